import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore

/// The numbers commands as a person runs them: the built binary, real stores.
@Suite(.serialized, .endToEnd) struct StatsEndToEndTests {
    let sandbox = Sandbox()

    func miga(_ arguments: String..., environment extra: [String: String] = [:]) throws -> (status: Int32, output: String, error: String) {
        try run(migaBinary, arguments, environment: sandbox.environment.merging(extra) { $1 })
    }

    /// A few finished pauses, through the real gateway.
    func pause(_ key: String, times: Int) throws {
        for index in 0..<times {
            let name = "\(key)-\(index).sh"
            let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "1", "argv-dump"], named: name), environment: sandbox.environment)
            try tmux.waitForScreen("the end of the countdown") { $0.contains("the choice is yours") }
            try tmux.send(key)
            _ = try sandbox.status(of: name)
        }
    }

    @Test func a_first_run_is_welcomed_and_pauses_are_counted() throws {
        let empty = try miga("stats")
        #expect(empty.status == 0)
        #expect(empty.output.contains("No pauses yet."))
        #expect(!empty.output.contains("\u{1B}"), "not a terminal: plain text")
        try pause("e", times: 2)
        try pause("p", times: 1)
        let stats = try miga("stats")
        #expect(stats.output.contains("Conscious exits") && stats.output.contains("67 %"), "\(stats.output)")
        #expect(stats.output.contains("1-day streak"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try miga("stats", "--json").output.utf8)) as? [String: Any])
        #expect(json["conscious_exits"] as? Int == 2)
        #expect(json["sessions"] as? Int == 3)
        #expect((json["streak"] as? [String: Int])?["current"] == 1)
        let history = try miga("history")
        #expect(history.output.split(separator: "\n").count == 3)
        #expect(history.output.contains("exit to focus") && history.output.contains("proceeded"))
    }

    /// Under a C locale "…" reads "...": a line cut to the terminal's width
    /// still fits in it, and nothing spills onto the next row.
    @Test(arguments: [["history"], ["stats"]])
    func lines_cut_to_the_width_fit_it_in_ascii(arguments: [String]) throws {
        try FileManager.default.createDirectory(atPath: sandbox.root + "/data/miga", withIntermediateDirectories: true)
        let now = Date()
        try SessionStore(path: sandbox.storePath).insertMissing((0..<6).map { index in
            SessionRecord(id: "s\(index)", program: index % 2 == 0 ? "telegram-desktop-nightly-build" : "firefox",
                          startedAt: now - Double(3600 * index) - 60, endedAt: now - Double(3600 * index),
                          outcome: index % 3 == 0 ? .exit : .proceed, pausedSeconds: 60, deepenCount: index % 2,
                          intention: index % 3 == 0 ? nil : "to answer the message about the weekend", kind: .breathe)
        })
        let terminal = try PseudoTerminal(arguments, environment: sandbox.environment.merging(["LANG": "C", "TERM": "xterm"]) { $1 },
                                          columns: 40)
        try eventually("miga \(arguments[0]) to end") { terminal.isRunning ? nil : true }
        let output = try terminal.waitForOutput("the rest of what it wrote") { _ in true }
        let rows = output.replacingOccurrences(of: #"\x{1B}\[[0-9;?]*[A-Za-z]"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        #expect(rows.count > 3 && rows.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }, "\(rows)")
        #expect(rows.allSatisfy { $0.count <= 40 }, "wider than 40:\n\(rows.filter { $0.count > 40 }.joined(separator: "\n"))")
        if arguments == ["history"] { #expect(rows.contains { $0.count == 40 && $0.hasSuffix("...") }, "\(rows)") }
    }

    @Test func export_and_import_carry_a_history_to_another_home() throws {
        try pause("e", times: 1)
        let exported = sandbox.root + "/export.json"
        #expect(try miga("export", "--format", "json", exported).status == 0)
        let other = Sandbox()
        let imported = try run(migaBinary, ["import", exported], environment: other.environment)
        #expect(imported.status == 0)
        #expect(imported.output == "Imported 1 new session.\n")
        let again = try run(migaBinary, ["import", exported], environment: other.environment)
        #expect(again.output == "Imported 0 new sessions (1 were already here).\n")
        try "{ \"format\": \"miga-sessions\", \"version\": 1, \"sessions\": [ { \"id\": \"x\" } ] }"
            .write(toFile: sandbox.root + "/broken.json", atomically: true, encoding: .utf8)
        let broken = try run(migaBinary, ["import", sandbox.root + "/broken.json"], environment: other.environment)
        #expect(broken.status == 65)
        #expect(broken.error.contains("nothing was imported"))
        #expect(try other.sessions().count == 1)
    }

    @Test func two_homes_share_one_history_through_a_folder() throws {
        try pause("e", times: 1)
        let other = Sandbox()
        let shared = sandbox.root + "/Sync"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        #expect(try miga("sync", shared).output.contains("Wrote 1 new session"))
        let synced = try run(migaBinary, ["sync", shared], environment: other.environment)
        #expect(synced.output.contains("added 1 from 1 other device"), "\(synced.output)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try run(migaBinary, ["stats", "--json"], environment: other.environment).output.utf8)) as? [String: Any])
        #expect(json["conscious_exits"] as? Int == 1)
        let typo = try miga("sync", sandbox.root + "/Snyc")
        #expect(typo.status == 1)
        #expect(typo.error.contains("is not a folder"))
    }

    /// Each machine's history as ids, and the machines they happened on.
    func history(_ home: Sandbox) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try home.sessions().map { ($0.id, $0.happenedOn) })
    }

    @Test func imported_sessions_reach_the_other_machines_once_and_keep_where_they_happened() throws {
        // An old laptop's export, imported here; another machine of this person's; one folder between them.
        let laptop = Sandbox(), desktop = Sandbox()
        try pause("e", times: 1)
        let laptopPause = try Tmux(command: try laptop.gateScript(["--pause", "1", "argv-dump"]), environment: laptop.environment)
        try laptopPause.waitForScreen("the end of the countdown") { $0.contains("the choice is yours") }
        try laptopPause.send("p")
        _ = try laptop.status()
        #expect(try run(migaBinary, ["export", laptop.root + "/old.json"], environment: laptop.environment).status == 0)
        let laptopID = try SessionStore(path: laptop.storePath).deviceID()
        #expect(try miga("import", laptop.root + "/old.json").status == 0)
        try run(migaBinary, ["gate", "argv-dump"], environment: desktop.environment) // a pass-through over there

        let shared = sandbox.root + "/Sync"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        for _ in 0..<2 {
            #expect(try miga("sync", shared).status == 0)
            #expect(try run(migaBinary, ["sync", shared], environment: desktop.environment).status == 0)
        }
        let here = try history(sandbox), there = try history(desktop)
        #expect(here.count == 3 && there.count == 3, "here \(here.count), there \(there.count)")
        #expect(Set(here.keys) == Set(there.keys))
        #expect(here.values.filter { $0 == laptopID }.count == 1)
        #expect(there.values.filter { $0 == laptopID }.count == 1, "the imported session happened on the laptop, there too")
        // Every id once in the folder: what arrived through sync is never published again.
        var ids: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: shared) {
            let text = try String(contentsOfFile: shared + "/" + name, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                ids.append(try #require(object["id"] as? String))
                #expect(name == "miga-\(object["device"] as? String ?? "").jsonl", "a line's device is its file's")
            }
        }
        #expect(ids.count == 3 && Set(ids).count == 3, "\(ids)")
        // The desktop names the laptop by the start of its id, as history shows it.
        let shown = try run(migaBinary, ["history"], environment: desktop.environment).output
        #expect(shown.contains("on \(laptopID.prefix(8))"), "\(shown)")
        let json = try run(migaBinary, ["stats", "--json", "--device", String(laptopID.prefix(8))], environment: desktop.environment)
        let numbers = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(numbers["proceeds"] as? Int == 1, "\(json.output)\(json.error)")
        #expect((numbers["filter"] as? [String: Any])?["device"] as? String == laptopID)
    }

    /// Where the clocks spring forward at midnight (Santiago on 2026-09-06),
    /// the day begins at 01:00: `--since` that day leaves out 23:30 the
    /// evening before, and `stats` counts each on its own day.
    @Test(arguments: [("America/Santiago", "2026-09-06", "2026-09-06T03:30:00Z", "2026-09-06T04:30:00Z"),
                      ("America/Havana", "2026-03-08", "2026-03-08T04:30:00Z", "2026-03-08T05:30:00Z"),
                      ("Africa/Cairo", "2026-04-24", "2026-04-23T21:30:00Z", "2026-04-23T22:30:00Z"),
                      ("Asia/Beirut", "2026-03-29", "2026-03-28T21:30:00Z", "2026-03-28T22:30:00Z")])
    func history_since_a_day_without_a_midnight_starts_at_its_first_instant(zone: String, day: String, evening: String,
                                                                          morning: String) throws {
        let store = try SessionStore(path: sandbox.storePath)
        let times = try [evening, morning].map { try #require(ISO8601DateFormatter().date(from: $0)) }
        try store.insertMissing(zip(["the-evening-before", "the-morning-of"], times).map { program, ended in
            SessionRecord(id: newUUID(), program: program, startedAt: ended - 30, endedAt: ended, outcome: .exit, pausedSeconds: 30)
        })
        let since = try miga("history", "--since", day, environment: ["TZ": zone])
        #expect(since.status == 0, "\(since.error)")
        #expect(since.output.contains("the-morning-of") && !since.output.contains("the-evening-before"), "\(zone): \(since.output)")
        let before = try miga("history", "--since", try #require(LocalDay(parsing: day)?.previous.description), environment: ["TZ": zone])
        #expect(before.output.contains("the-morning-of") && before.output.contains("the-evening-before"), "\(zone): \(before.output)")
    }

    @Test(arguments: ["2026-11-31", "2026-02-30", "2026-13-01"])
    func history_refuses_a_date_that_does_not_exist(date: String) throws {
        let result = try miga("history", "--since", date)
        #expect(result.status == 64)
        #expect(result.error.contains("--since takes a date that exists"), "\(result.error)")
    }

    @Test func a_device_is_named_by_a_unique_start_of_its_id_or_this() throws {
        try pause("e", times: 1)
        let this = try SessionStore(path: sandbox.storePath).deviceID()
        let json = try miga("stats", "--json", "--device", "this")
        let numbers = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((numbers["filter"] as? [String: Any])?["device"] as? String == this)
        #expect(numbers["conscious_exits"] as? Int == 1)
        #expect(try miga("stats", "--device", String(this.prefix(8))).status == 0)
        let unknown = try miga("stats", "--device", "zzzz")
        #expect(unknown.status == 64)
        #expect(unknown.error.contains("no device starts with \"zzzz\"") && unknown.error.contains("\(this.prefix(8)) (this machine)"), "\(unknown.error)")
        #expect(try miga("stats", "--device", "").status == 64)
    }

    @Test func a_pause_killed_outright_counts_alike_in_the_totals_and_the_week() throws {
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: sandbox.environment)
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        kill(try sandbox.pid(), SIGKILL)
        try eventually("the gateway to be gone") { isGone(try sandbox.pid()) ? true : nil }
        let json = try miga("stats", "--json")
        let numbers = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let week = try #require((numbers["week"] as? [String: Any])?["this"] as? [String: Any])
        #expect(numbers["abandoned"] as? Int == 1)
        #expect(week["abandoned"] as? Int == 1, "\(json.output)")
        #expect(week["sessions"] as? Int == numbers["sessions"] as? Int)
        let days = try #require(numbers["days"] as? [[String: Any]])
        #expect(days.count == 30)
    }
}
