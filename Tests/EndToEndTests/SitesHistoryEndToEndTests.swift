import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAStore

/// A site's outcomes are the history's program `site:NAME`: the numbers
/// commands show them beside the programs, by the site's name, and what
/// comes from a file or another machine names a site MIGA can read, or nothing.
@Suite(.endToEnd) struct SitesHistoryEndToEndTests {
    let sandbox = Sandbox()

    func miga(_ arguments: String..., in home: Sandbox? = nil) throws -> (status: Int32, output: String, error: String) {
        try run(migaBinary, arguments, environment: (home ?? sandbox).environment)
    }

    /// Three exits and a proceed on youtube.com (one of them queued by the
    /// browser while the host was away), and an exit of a program.
    func seed() throws {
        let store = try SessionStore(path: sandbox.storePath)
        let now = Date()
        var sessions: [SessionRecord] = []
        for index in 0..<3 {
            let start = now - Double(600 + index * 60)
            sessions.append(SessionRecord(id: newUUID(), program: "site:youtube.com", startedAt: start, endedAt: start + 30,
                                          outcome: .exit, pausedSeconds: 30, origin: index == 0 ? "browser" : ""))
        }
        sessions.append(SessionRecord(id: newUUID(), program: "site:youtube.com", startedAt: now - 300, endedAt: now - 240,
                                      outcome: .proceed, pausedSeconds: 60))
        sessions.append(SessionRecord(id: newUUID(), program: "argv-dump", startedAt: now - 200, endedAt: now - 170,
                                      outcome: .exit, pausedSeconds: 30))
        try store.insertMissing(sessions)
    }

    @Test func stats_and_history_show_a_site_by_its_name_beside_the_programs() throws {
        try seed()
        let stats = try miga("stats")
        #expect(stats.status == 0, "\(stats.error)")
        #expect(stats.output.contains("youtube.com (site)") && !stats.output.contains("site:youtube.com"), "\(stats.output)")
        #expect(stats.output.contains("argv-dump"))

        let json = try #require(try JSONSerialization.jsonObject(with: Data(try miga("stats", "--json").output.utf8)) as? [String: Any])
        #expect(json["conscious_exits"] as? Int == 4)
        let programs = try #require(json["programs"] as? [[String: Any]])
        #expect(programs.contains { $0["program"] as? String == "site:youtube.com" && $0["conscious_exits"] as? Int == 3 }, "\(programs)")

        let one = try miga("stats", "--json", "--program", "site:youtube.com")
        let numbers = try #require(try JSONSerialization.jsonObject(with: Data(one.output.utf8)) as? [String: Any], "\(one.error)")
        #expect(numbers["conscious_exits"] as? Int == 3 && numbers["proceeds"] as? Int == 1, "\(one.output)")
        let effect = try #require(numbers["effect"] as? [String: Any])
        #expect((effect["programs"] as? [[String: Any]])?.map { $0["program"] as? String } == ["site:youtube.com"], "\(effect)")
        // The site as a person types it finds the same history.
        let typed = try miga("stats", "--json", "--program", "site:www.YouTube.com")
        #expect((try JSONSerialization.jsonObject(with: Data(typed.output.utf8)) as? [String: Any])?["conscious_exits"] as? Int == 3,
                "\(typed.output)\(typed.error)")
        let text = try miga("stats", "--program", "site:youtube.com")
        #expect(text.output.contains("The effect on youtube.com (site)"), "\(text.output)")

        let history = try miga("history")
        #expect(history.output.split(separator: "\n").filter { $0.contains("youtube.com (site)") }.count == 4, "\(history.output)")
        let only = try miga("history", "--program", "site:youtube.com")
        #expect(only.output.split(separator: "\n").count == 4 && !only.output.contains("argv-dump"), "\(only.output)")
    }

    @Test func a_site_travels_through_export_import_and_sync() throws {
        try seed()
        let exported = sandbox.root + "/export.json"
        #expect(try miga("export", "--format", "json", exported).status == 0)
        let other = Sandbox()
        let imported = try miga("import", exported, in: other)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(try other.sessions().filter { $0.program == "site:youtube.com" }.count == 4)

        let shared = sandbox.root + "/Sync"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        #expect(try miga("sync", shared).status == 0)
        let third = Sandbox()
        #expect(try miga("sync", shared, in: third).status == 0)
        #expect(try third.sessions().filter { $0.program == "site:youtube.com" }.count == 4)
    }

    @Test(arguments: ["site:you tube.com", "site:", "site:\u{1B}]52;c;aGk=\u{07}", "site:ftp://example.org"])
    func an_import_naming_no_site_is_refused_whole_with_status_65(program: String) throws {
        let record: [String: Any] = ["id": "a", "program": program, "started_at": "2026-01-01T10:00:00Z",
                                     "ended_at": "2026-01-01T10:01:00Z", "outcome": "exit", "paused_seconds": 30,
                                     "deepen_count": 0, "quotes": [String](), "device": ""]
        let good = record.merging(["id": "b", "program": "site:youtube.com"]) { $1 }
        let document: [String: Any] = ["format": "miga-sessions", "version": 1, "sessions": [good, record]]
        let file = sandbox.root + "/hostile.json"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: file))
        let refused = try miga("import", file)
        #expect(refused.status == 65, "\(refused.output)\(refused.error)")
        #expect(refused.error.contains("session 2") && refused.error.contains("nothing was imported"), "\(refused.error)")
        #expect(!refused.error.contains("\u{1B}") && !refused.error.contains("\u{07}"))
        #expect(try sandbox.sessions().isEmpty)
    }

    @Test func a_synced_line_naming_no_site_is_skipped_and_the_rest_arrive() throws {
        let shared = sandbox.root + "/Sync"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let device = "01234567-89ab-cdef-0123-456789abcdef"
        let lines = [("good", "site:youtube.com"), ("bad", "site:you tube.com"), ("worse", "site:\u{1B}[2J")].map { id, program in
            let record: [String: Any] = ["id": id, "program": program, "started_at": "2026-01-01T10:00:00Z",
                                         "ended_at": "2026-01-01T10:01:00Z", "outcome": "exit", "paused_seconds": 30,
                                         "deepen_count": 0, "quotes": [String](), "device": device]
            return String(decoding: try! JSONSerialization.data(withJSONObject: record), as: UTF8.self)
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: shared + "/miga-\(device).jsonl", atomically: true, encoding: .utf8)
        let synced = try miga("sync", shared)
        #expect(synced.status == 0, "\(synced.error)")
        #expect(!synced.output.contains("\u{1B}") && !synced.error.contains("\u{1B}"))
        #expect(try sandbox.sessions().map(\.program) == ["site:youtube.com"])
    }

    @Test func a_hostile_site_name_already_in_the_store_reaches_no_terminal() throws {
        let store = try SessionStore(path: sandbox.storePath)
        try store.insertMissing([SessionRecord(id: newUUID(), program: "site:\u{1B}]52;c;aGk=\u{07}x.com", startedAt: Date() - 60,
                                               endedAt: Date() - 30, outcome: .exit, pausedSeconds: 30)])
        for arguments in [["stats"], ["history"], ["stats", "--program", "site:\u{1B}]52;c;aGk=\u{07}x.com"]] {
            let shown = try run(migaBinary, arguments, environment: sandbox.environment)
            #expect(!shown.output.contains("\u{1B}]") && !shown.output.contains("\u{07}"), "\(arguments)")
            #expect(!shown.error.contains("\u{1B}]") && !shown.error.contains("\u{07}"), "\(arguments)")
        }
    }

    @Test func the_learning_of_a_site_typed_as_an_address_starts_afresh_under_its_history_name() throws {
        try seed()
        let reset = try miga("stats", "--program", "site:https://www.YouTube.com/", "--reset-learning", "--yes")
        #expect(reset.status == 0, "\(reset.error)")
        #expect(reset.output.contains("with youtube.com."), "\(reset.output)")
        #expect(try SessionStore(path: sandbox.storePath).learningReset(program: "site:youtube.com") != nil)
    }
}
