import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore

/// The commands that only look (`miga stats` in every form, `miga history`,
/// `miga list`, `miga doctor` without `--fix`) change nothing and notify
/// nobody, with everything in place that a run which acts would act on: a
/// history whose weekly look back is due, a protected program, and a launch
/// of it around the pause still running. Every file of the data and config
/// folders keeps its bytes, no file comes or goes, and a real notification
/// server receives nothing.
@Suite(.serialized, .endToEnd) struct ReadingCommandsEndToEndTests {
    let sandbox = Sandbox()
    let program: String

    init() throws {
        program = try sandbox.longRunningProgram()
    }

    func stopAll() throws { try sandbox.stopPrograms() }

    /// Every file and folder under the data and config folders, with its bytes (a link: where it points).
    func snapshot() -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for folder in ["/data", "/config"] {
            let root = sandbox.root + folder
            files[folder] = []
            for name in FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [] {
                let path = root + "/" + name
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                    files[folder + "/" + name] = Array(("→ " + target).utf8)
                } else {
                    files[folder + "/" + name] = FileManager.default.contents(atPath: path).map { Array($0) } ?? Array("(folder)".utf8)
                }
            }
        }
        return files
    }

    /// The files that came, went or changed since `before`, by name.
    func changes(since before: [String: [UInt8]]) -> [String] {
        let after = snapshot()
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    /// The program protected, three weeks of its history with this week's look
    /// back due, and the program started by its path around the gate, running.
    func seed(_ environment: [String: String]) throws {
        #expect(try run(migaBinary, ["protect", program], environment: environment).status == 0)
        let now = Date()
        var records: [SessionRecord] = []
        for day in 1...21 {
            let end = now.addingTimeInterval(-Double(day) * 86_400)
            records.append(SessionRecord(id: "e\(day)", program: program, startedAt: end - 60, endedAt: end, outcome: .exit, kind: .breathe))
            records.append(SessionRecord(id: "p\(day)", program: program, startedAt: end - 30, endedAt: end, outcome: .proceed, kind: .breathe))
        }
        do {
            let store = try SessionStore(path: sandbox.storePath)
            try store.insertMissing(records)
            let thisWeek = WeeklyLookBack.due(before: now, in: .utc).monday
            try store.setMeta(WeeklyLookBack.metaKey, String(thisWeek.number - 7))
        }
        _ = try sandbox.start(program, ["600"], environment: environment)
        try eventually("the launch around the gate") {
            try run("/usr/bin/pgrep", ["-f", sandbox.root + "/bin/" + program]).status == 0 ? true : nil
        }
    }

    /// Seeds, runs each of `runs` (a command's words) and checks that nothing changed and nobody was notified.
    func expectNothingChanges(_ runs: [[String]], _ look: ([String], (status: Int32, output: String, error: String)) throws -> Void) throws {
        defer { try? stopAll() }
        let server = try NotificationServer(folder: sandbox.root + "/server")
        let environment = sandbox.environment.merging(["DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress,
                                                       "COLUMNS": "200"]) { $1 }
        try seed(environment)
        let before = snapshot()
        for words in runs {
            let result = try run(migaBinary, words, environment: environment)
            try look(words, result)
            let changed = changes(since: before)
            #expect(changed.isEmpty, "\(words) changed \(changed)")
        }
        // Only the marker that settles the log reached the server.
        #expect(try server.settledCalls(summary: WeeklyReview.title) == 0)
        #expect(server.notifyCalls == 1, "\(server.monitorLog)")
    }

    @Test func stats_in_every_form_writes_nothing_notifies_nobody_and_counts_the_launch_around_the_pause() throws {
        try expectNothingChanges([["stats"], ["stats", "--json"], ["stats", "--year"], ["stats", "--days", "7", "--program", program],
                                  ["stats", "--device", "this"], ["stats", "--json", "--device", "this"]]) { words, result in
            #expect(result.status == 0, "\(words): \(result.error)")
            if words == ["stats", "--json"] {
                let document = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
                #expect((document?["leaks"] as? [String: Any])?["this_week"] as? Int == 1, "\(result.output)")
            }
            if words == ["stats"] {
                #expect(result.output.contains("1 launch went around the pause this week (1 from \(sandbox.root)/bin/\(program))"),
                        "\(result.output)")
            }
        }
    }

    @Test func history_in_every_form_writes_nothing_and_notifies_nobody() throws {
        try expectNothingChanges([["history"], ["history", "--all"], ["history", "--json"], ["history", "--csv"]]) { words, result in
            #expect(result.status == 0, "\(words): \(result.error)")
            #expect(words != ["history"] || result.output.contains(program), "\(result.output)")
        }
    }

    @Test func list_and_its_routes_write_nothing_and_notify_nobody() throws {
        try expectNothingChanges([["list"], ["list", "--routes"]]) { words, result in
            #expect(result.status == 0, "\(words): \(result.error)")
            #expect(result.output.contains(program), "\(result.output)")
        }
    }

    @Test func doctor_without_fix_writes_nothing_notifies_nobody_and_reports_the_launch_around_the_pause() throws {
        try expectNothingChanges([["doctor"]]) { _, result in
            #expect(result.output.contains("✗ leaks: 1 launch went around the pause in the last 7 days "
                                           + "(\(program) from \(sandbox.root)/bin/\(program), a path no shim sees)"), "\(result.output)")
        }
    }

    @Test func with_no_history_yet_a_pass_through_waiting_is_counted_and_no_store_is_made() throws {
        #expect(try run(migaBinary, ["protect", "argv-dump"], environment: sandbox.environment).status == 0)
        // No terminal: a pass-through, dropped in the inbox for the first store to fold in.
        #expect(try run(migaBinary, ["gate", "argv-dump"], environment: sandbox.environment).status == 7)
        let inbox = try FileManager.default.contentsOfDirectory(atPath: sandbox.root + "/data/miga/inbox")
        #expect(inbox.count == 1, "\(inbox)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
        let before = snapshot()
        for words in [["stats", "--json"], ["history", "--all"], ["stats"], ["history"], ["list"], ["doctor"]] {
            let result = try run(migaBinary, words, environment: sandbox.environment)
            if words == ["stats", "--json"] {
                let document = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
                #expect(document?["pass_throughs"] as? Int == 1, "\(result.output)")
            }
            if words == ["history", "--all"] { #expect(result.output.contains("passed through"), "\(result.output)") }
            let changed = changes(since: before)
            #expect(changed.isEmpty, "\(words) changed \(changed)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    }
}
