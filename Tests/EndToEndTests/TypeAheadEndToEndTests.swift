import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit

/// Keys belong to whoever was on screen when they were typed: a command
/// typed right after Exit to Focus is the shell's, and keys typed before the
/// pause was drawn (the next line, already under way) or pasted into it are
/// no choices. A real bash in a real terminal (tmux).
@Suite(.serialized, .endToEnd) struct TypeAheadEndToEndTests {
    let sandbox = Sandbox()

    /// An interactive bash with a prompt to wait for.
    func shell() throws -> Tmux {
        let tmux = try Tmux(command: "bash --norc --noprofile -i",
                            environment: sandbox.environment.merging(["PS1": "READY$ ", "HISTFILE": sandbox.root + "/history"]) { $1 })
        try tmux.waitForScreen("a prompt") { $0.contains("READY$") }
        return tmux
    }

    var gateLine: String { [migaBinary, "gate", "--pause", "60", "argv-dump"].map(shellQuoted).joined(separator: " ") }

    @Test func a_command_typed_right_after_exit_to_focus_reaches_the_shell() throws {
        let tmux = try shell()
        try tmux.send("-l", gateLine)
        try tmux.send("Enter")
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        // e, and at once the next command, in one go: as someone types who knows what comes next.
        let next = "echo typed-ahead > " + shellQuoted(sandbox.root + "/ahead.txt")
        try tmux.tmux(["send-keys", "e", ";", "send-keys", "-l", next, ";", "send-keys", "Enter"])
        try eventually("the command typed ahead to run in the shell", timeout: 10) {
            sandbox.read("ahead.txt") == "typed-ahead\n" ? true : nil
        }
        #expect(try sandbox.sessions().map(\.outcome) == [.exit])
    }

    @Test func keys_typed_before_the_first_frame_are_no_choice() throws {
        let tmux = try shell()
        // The command and, before its pause is drawn, an "e" of the next line.
        try tmux.tmux(["send-keys", "-l", gateLine, ";", "send-keys", "Enter", ";", "send-keys", "-l", "e"])
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        try tmux.waitForScreen("two ticks of the countdown") { countdownShown(in: $0, atMost: 58) || $0.contains("READY$") }
        #expect(try sandbox.sessions().map(\.outcome) == [.open], "the e typed ahead ended the pause")
        try tmux.send("e")
        try tmux.waitForScreen("the farewell") { $0.contains("You chose yourself") && $0.contains("READY$") }
        #expect(try sandbox.sessions().map(\.outcome) == [.exit])
    }

    @Test func a_bracketed_paste_on_the_pause_is_no_keys() throws {
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: sandbox.environment)
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        // Pasted as the terminal pastes (the pause asked for bracketed paste), and by hand.
        try tmux.tmux(["set-buffer", "deep end: exit, deepen, proceed; e d p q"])
        try tmux.tmux(["paste-buffer", "-p"])
        try tmux.send("-l", "\u{1B}[200~e then d\u{1B}[201~")
        try tmux.waitForScreen("two ticks of the countdown") { countdownShown(in: $0, atMost: 57) || !$0.contains("Exit to Focus") }
        let screen = try tmux.screen()
        #expect(screen.contains("Exit to Focus"), "the paste ended the pause:\n\(screen)")
        let row = try #require(try sandbox.sessions().first)
        #expect(row.outcome == .open && row.deepenCount == 0, "\(row.outcome), deepened \(row.deepenCount)×")
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
    }
}

/// Whether the pause's countdown (an "m:ss" on screen) shows `seconds` or
/// fewer. At most, not exactly: on a loaded machine a poll can miss the one
/// second a given figure is on screen.
private func countdownShown(in screen: String, atMost seconds: Int) -> Bool {
    screen.matches(of: /(\d+):(\d\d)/).contains { match in
        guard let minutes = Int(match.1), let rest = Int(match.2) else { return false }
        return minutes * 60 + rest <= seconds
    }
}
