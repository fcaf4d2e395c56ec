import Foundation
import Testing
@testable import MIGAKit

/// The numbers commands as a person runs them: the built binary, real stores.
@Suite(.serialized) struct StatsEndToEndTests {
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
}
