import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit
@testable import MIGATerminal

/// Nothing that came from a file, an argument or another machine reaches the
/// terminal as a control sequence, from any command: names holding
/// `ESC ] 52` (a clipboard write), `ESC ] 0` (a window title) and `CSI 2J`.
@Suite(.serialized, .endToEnd) struct HostileOutputEndToEndTests {
    let sandbox = Sandbox()
    static let hostile = "\u{1B}]52;c;aGk=\u{07}\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}1m"

    func miga(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String, error: String) {
        try run(migaBinary, arguments, environment: sandbox.environment, input: input)
    }

    func clean(_ text: String, _ what: String) {
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F || (0x80...0x9F).contains($0.value) },
                "\(what) printed a control character: \(text.debugDescription)")
    }

    @Test func names_quotes_and_synced_rows_are_printed_as_text() throws {
        // A program named in the config with a hostile name.
        try sandbox.config("[programs.argv-dump]\nname = \"Dump\\u001b]52;c;aGk=\\u0007\\u001b[2J\"\n")
        for arguments in [["list"], ["doctor"], ["protect", "argv-dump"], ["config"]] {
            let result = try miga(arguments)
            clean(result.output + result.error, arguments.joined(separator: " "))
        }
        // A fortune file and a quote with hostile bytes.
        try (Self.hostile + " wisdom\n%\nplain\n%\n").write(toFile: sandbox.root + "/evil", atomically: true, encoding: .utf8)
        let imported = try miga(["quotes", "import", sandbox.root + "/evil"])
        #expect(imported.status == 0, "\(imported.error)")
        for arguments in [["quotes", "list", "--tag", "Evil"], ["quotes", "show", "evil-0001"], ["quotes", "tags"]] {
            let result = try miga(arguments)
            clean(result.output + result.error, arguments.joined(separator: " "))
        }
        // A synced row with a hostile program and a formula for an intention.
        let other = "5ca1ab1e-0000-4000-8000-00000000000b"
        try FileManager.default.createDirectory(atPath: sandbox.root + "/sync", withIntermediateDirectories: true)
        let line = #"{"deepen_count":0,"device":"\#(other)","ended_at":"2026-11-20T10:01:00.000Z","id":"6f1c2d4e-0000-4000-8000-0000000000aa","intention":"=HYPERLINK(\"x\")","outcome":"proceed","paused_seconds":60,"program":"ev\u001b]0;t\u0007il","quotes":[],"started_at":"2026-11-20T10:00:00.000Z"}"#
        try (line + "\n").write(toFile: sandbox.root + "/sync/miga-\(other).jsonl", atomically: true, encoding: .utf8)
        #expect(try miga(["sync", sandbox.root + "/sync"]).status == 0)
        for arguments in [["history"], ["history", "--csv"], ["history", "--json"], ["stats"], ["export", "--format", "csv"]] {
            let result = try miga(arguments)
            clean(result.output.replacingOccurrences(of: "\r\n", with: "\n") + result.error, arguments.joined(separator: " "))
        }
        let csv = try miga(["history", "--csv"]).output
        #expect(csv.contains("\"'=HYPERLINK(\"\"x\"\")\""), "a formula is guarded: \(csv)")
        // The guard comes off again on import.
        try csv.write(toFile: sandbox.root + "/back.csv", atomically: true, encoding: .utf8)
        let other2 = Sandbox()
        #expect(try run(migaBinary, ["import", sandbox.root + "/back.csv"], environment: other2.environment).status == 0)
        #expect(try other2.sessions().first?.intention == "=HYPERLINK(\"x\")")
    }

    @Test func the_farewell_after_an_exit_names_the_program_as_text() throws {
        try sandbox.config("[programs.argv-dump]\nname = \"Dump\\u001b]0;owned\\u0007\"\n")
        let tmux = try Tmux(command: try sandbox.gateScript(["argv-dump"]), environment: sandbox.environment)
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
        // The sequence arrives as text: ESC and BEL shown as U+FFFD, the window title untouched.
        #expect(try tmux.screen().contains("Dump\u{FFFD}]0;owned\u{FFFD} can wait"))
        #expect(try tmux.value("#{pane_title}") != "owned")
    }
}
