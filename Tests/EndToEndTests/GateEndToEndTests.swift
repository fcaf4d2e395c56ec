import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal

/// The built `miga` in a real pseudo terminal (tmux), writing a real store.
@Suite(.serialized, .endToEnd) struct GateEndToEndTests {
    let sandbox = Sandbox()

    /// The quote on screen, found by its opening words in the built-in bank.
    func quoteOnScreen(_ screen: String) -> Quote? {
        let flat = screen.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        return QuoteBank.builtIn.quotes.first { quote in
            // Poems mark line breaks with " / ", which the screen shows as lines.
            let opening = quote.verses.joined(separator: " ").split(separator: " ").prefix(4).joined(separator: " ")
            return flat.contains("“" + opening)
        }
    }

    @Test func the_pause_appears_with_a_quote_a_countdown_and_the_actions() throws {
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: sandbox.environment)
        let screen = try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") && $0.contains("0:5") }
        #expect(quoteOnScreen(screen) != nil, "no quote from the bank on screen:\n\(screen)")
        #expect(screen.contains("[D] Deepen the Pause"))
        #expect(screen.contains("[P] Proceed to Argv-dump"))
        #expect(screen.contains("a pause before Argv-dump"))
        #expect(try tmux.value("#{alternate_on}") == "1")
        #expect(try tmux.value("#{cursor_flag}") == "0")
        // The row is written as soon as the pause opens.
        #expect(try sandbox.sessions().map(\.outcome) == [.open])
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
    }

    /// The countdown's seconds on screen (the ring's `M:SS`).
    func secondsLeft(_ screen: String) -> Int? {
        guard let match = screen.firstMatch(of: /(\d{1,2}):(\d\d)/), let minutes = Int(match.1), let seconds = Int(match.2) else { return nil }
        return minutes * 60 + seconds
    }

    @Test func deepen_changes_the_quote_and_restarts_the_countdown() throws {
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: sandbox.environment)
        let before = try tmux.waitForScreen("the count to run down a little") { self.secondsLeft($0).map { $0 <= 50 } ?? false }
        let firstQuote = try #require(quoteOnScreen(before))
        try tmux.send("d")
        // Both in one wait: rows are redrawn top to bottom, so the new quote
        // can be on screen a moment before the countdown below it. Back to
        // full is more than the 50 s left before; ten seconds to see it in,
        // however slowly a loaded machine lets the screen be read.
        let after = try tmux.waitForScreen("a fresh quote and the countdown back to full") { screen in
            (quoteOnScreen(screen).map { $0 != firstQuote } ?? false) && (self.secondsLeft(screen).map { $0 > 50 } ?? false)
        }
        try tmux.send("Space")
        try tmux.waitForScreen("another quote") { screen in
            quoteOnScreen(screen).map { $0 != firstQuote && $0 != quoteOnScreen(after) } ?? false
        }
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
        let row = try #require(try sandbox.sessions().first)
        #expect(row.deepenCount == 2)
        #expect(row.quotes.count == 3)
        #expect(Set(row.quotes).count == 3)
    }

    @Test func proceed_waits_for_zero_then_runs_the_program_with_its_exact_arguments() throws {
        let arguments = ["two words", "it's", "\"double\"", "*", "$HOME", ";", "a;b && c | d", "héllo wörld ✓ 日本",
                         "", "--", "-x", "back\\slash", "line\nbreak", "`tick`", "$(echo no)"]
        // Long enough that a loaded machine's slow keystroke still comes before zero.
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "6", "argv-dump", "--"] + arguments),
                            environment: sandbox.environment)
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        try tmux.send("p")
        try tmux.waitForScreen("a gentle not-yet") { $0.contains("there is no hurry") }
        #expect(sandbox.read("argv") == nil, "proceed ran the program before zero")
        try tmux.waitForScreen("the end of the countdown") { $0.contains("the choice is yours") }
        try tmux.send("p")
        #expect(try sandbox.status() == 7)
        let expected: [UInt8] = arguments.flatMap { Array($0.utf8) + [UInt8(0)] }
        #expect(sandbox.bytes("argv") == expected)
        #expect(try tmux.value("#{alternate_on}") == "0")
        let row = try #require(try sandbox.sessions().first)
        #expect(row.outcome == .proceed)
        #expect(row.pausedSeconds >= 6)
    }

    @Test func bytes_that_are_not_utf8_reach_the_program_unchanged() throws {
        let script = sandbox.root + "/raw.sh"
        // printf writes the argument 0xFF 0x41 0x80: not valid UTF-8, still a valid file name on Linux.
        try """
            cd \(shellQuoted(sandbox.root))
            \(shellQuoted(migaBinary)) gate argv-dump -- "$(printf '\\377A\\200')" plain < /dev/null
            echo "$?" > run.sh.status
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try run("/bin/sh", [script], environment: sandbox.environment)
        #expect(result.status == 0)
        #expect(try sandbox.status() == 7)
        #expect(sandbox.bytes("argv") == [0xFF, 0x41, 0x80, 0] + Array("plain".utf8) + [0])
    }

    @Test func exit_to_focus_celebrates_records_and_restores_the_terminal() throws {
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: sandbox.environment)
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        try tmux.send("e")
        try tmux.waitForScreen("the celebration") { $0.contains("You chose yourself.") }
        #expect(try sandbox.status() == 0)
        let screen = try tmux.waitForScreen("the farewell line") { $0.contains("✓ You chose yourself.") }
        #expect(screen.contains("Argv-dump can wait · day 1 of a new streak."))
        #expect(sandbox.read("argv") == nil)
        #expect(try tmux.value("#{alternate_on}") == "0")
        #expect(try tmux.value("#{cursor_flag}") == "1")
        let settings = try tmux.terminalSettings().split(whereSeparator: \.isWhitespace)
        #expect(settings.contains("icanon") && settings.contains("echo") && settings.contains("isig"), "\(settings)")
        let row = try #require(try sandbox.sessions().first)
        #expect(row.outcome == .exit)
        #expect(row.endedAt != nil)
    }

    @Test func a_missing_program_is_named_with_status_127_and_not_recorded() throws {
        let result = try run(migaBinary, ["gate", "no-such-program"], environment: sandbox.environment)
        #expect(result.status == 127)
        #expect(result.error == "Please install no-such-program first.\n")
        #expect(try sandbox.sessions().isEmpty)
        let tmux = try Tmux(command: try sandbox.gateScript(["no-such-program"]), environment: sandbox.environment)
        #expect(try sandbox.status() == 127)
        #expect(try tmux.screen().contains("Please install no-such-program first."))
        #expect(try sandbox.sessions().isEmpty)
    }

    @Test func without_a_terminal_the_program_passes_through_without_waiting() throws {
        let started = Date()
        let result = try run(migaBinary, ["gate", "argv-dump", "--", "from a script"], environment: sandbox.environment,
                             input: "some input\n")
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(result.status == 7)
        #expect(sandbox.bytes("argv") == Array("from a script".utf8) + [0])
        #expect(try sandbox.sessions().map(\.outcome) == [.passthrough])
    }

    @Test func without_a_terminal_deny_refuses_and_runs_nothing() throws {
        try sandbox.config("[programs.argv-dump]\nnon_interactive = \"deny\"\n")
        let result = try run(migaBinary, ["gate", "argv-dump"], environment: sandbox.environment)
        #expect(result.status == 69)
        #expect(result.error.contains("not starting it"))
        #expect(sandbox.read("argv") == nil)
    }

    @Test func sigterm_restores_the_terminal_and_records_the_pause() throws {
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: sandbox.environment)
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        #expect(try tmux.terminalSettings().split(whereSeparator: \.isWhitespace).contains("-icanon"), "raw mode expected during the pause")
        kill(try sandbox.pid(), SIGTERM)
        #expect(try sandbox.status() == 143)
        #expect(try tmux.value("#{alternate_on}") == "0")
        #expect(try tmux.value("#{cursor_flag}") == "1")
        let settings = try tmux.terminalSettings().split(whereSeparator: \.isWhitespace)
        #expect(settings.contains("icanon") && settings.contains("echo") && settings.contains("isig"), "\(settings)")
        let row = try #require(try sandbox.sessions().first)
        #expect(row.outcome == .abandoned)
        #expect(row.endedAt != nil)
    }

    @Test func a_crash_still_restores_the_terminal() throws {
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: sandbox.environment)
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        kill(try sandbox.pid(), SIGSEGV)
        #expect(try sandbox.status() == 128 + SIGSEGV)
        #expect(try tmux.value("#{alternate_on}") == "0")
        #expect(try tmux.value("#{cursor_flag}") == "1")
        let settings = try tmux.terminalSettings().split(whereSeparator: \.isWhitespace)
        #expect(settings.contains("icanon") && settings.contains("echo") && settings.contains("isig"), "\(settings)")
    }

    @Test func a_closed_window_ends_the_gateway_and_records_the_pause() throws {
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: sandbox.environment)
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        let pid = try sandbox.pid()
        try tmux.tmux(["kill-pane"])
        try eventually("the gateway to end") { isGone(pid) ? true : nil }
        let row = try eventually("the row to be completed") { try sandbox.sessions().first { $0.outcome != .open } }
        #expect(row.outcome == .abandoned)
        #expect(row.endedAt != nil)
    }

    @Test func a_killed_gateway_is_settled_as_abandoned_by_the_next_run() throws {
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: sandbox.environment)
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        let pid = try sandbox.pid()
        kill(pid, SIGKILL)
        try eventually("the gateway to die") { isGone(pid) ? true : nil }
        // Whoever reads the history next settles it, and gives it an end.
        let settled = try #require(try sandbox.sessions().first)
        #expect(settled.outcome == .abandoned)
        #expect(settled.endedAt.map { $0 >= settled.startedAt } == true)
        _ = try run(migaBinary, ["gate", "argv-dump"], environment: sandbox.environment)
        #expect(try sandbox.sessions().map(\.outcome).sorted { $0.rawValue < $1.rawValue } == [.abandoned, .passthrough])
    }

    @Test func ctrl_z_suspends_and_fg_brings_the_pause_back() throws {
        let tmux = try Tmux(command: "bash --norc --noprofile -i", environment: sandbox.environment.merging(["PS1": "READY$ "]) { $1 })
        try tmux.waitForScreen("a prompt") { $0.contains("READY$") }
        let line = ([migaBinary, "gate", "--pause", "60", "argv-dump"]).map(shellQuoted).joined(separator: " ")
        try tmux.send("-l", line)
        try tmux.send("Enter")
        let first = try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        try tmux.send("C-z")
        try tmux.waitForScreen("the shell after the stop") { $0.contains("Stopped") }
        #expect(try tmux.value("#{alternate_on}") == "0")
        #expect(try tmux.value("#{cursor_flag}") == "1")
        try tmux.send("-l", "fg")
        try tmux.send("Enter")
        let back = try tmux.waitForScreen("the pause again") { $0.contains("Exit to Focus") }
        #expect(quoteOnScreen(back) == quoteOnScreen(first))
        #expect(try tmux.value("#{alternate_on}") == "1")
        // Raw mode is back: a single key, without Enter, deepens.
        try tmux.send("d")
        try tmux.waitForScreen("a fresh quote after fg") { quoteOnScreen($0).map { $0 != quoteOnScreen(first) } ?? false }
        try tmux.send("e")
        try tmux.waitForScreen("the farewell") { $0.contains("✓ You chose yourself.") && $0.contains("READY$") }
        #expect(try sandbox.sessions().map(\.outcome) == [.exit])
    }

    @Test func resizing_redraws_at_the_new_size() throws {
        let tmux = try Tmux(columns: 80, rows: 24, command: try sandbox.gateScript(["--pause", "60", "argv-dump"]),
                            environment: sandbox.environment)
        // Rows of the ring: lines with Braille dots.
        let ringRows = { (screen: String) in
            screen.split(separator: "\n").filter { $0.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) } }.count
        }
        let small = try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") && ringRows($0) > 0 }
        try tmux.tmux(["resize-window", "-x", "140", "-y", "44"])
        // Waited for whole: a capture can catch a redraw half done.
        try tmux.waitForScreen("the pause redrawn wide, with a larger ring") { screen in
            let centred = screen.split(separator: "\n").contains { line in
                line.prefix { $0 == " " }.count > 50 && line.drop { $0 == " " }.hasPrefix("a pause before")
            }
            return centred && screen.contains("Exit to Focus") && ringRows(screen) > ringRows(small)
        }
        try tmux.tmux(["resize-window", "-x", "50", "-y", "16"])
        let narrow = try tmux.waitForScreen("the pause redrawn narrow") { $0.split(separator: "\n").count <= 16 && $0.contains("Exit to Focus") }
        #expect(narrow.split(separator: "\n").allSatisfy { CellWidth.of($0) <= 50 })
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
    }

    @Test func no_color_draws_without_colours() throws {
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]),
                            environment: sandbox.environment.merging(["NO_COLOR": "1"]) { $1 })
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        // tmux reports every attribute it holds; only reset, bold and dim may be there.
        let codes = try tmux.screenWithEscapes().split(separator: "\u{1B}[").dropFirst().compactMap { part -> [Substring]? in
            guard let end = part.firstIndex(of: "m") else { return nil }
            return part[..<end].split(separator: ";")
        }
        // (39 and 49 are tmux's own "default colour", which it writes to reset.)
        #expect(codes.joined().allSatisfy { ["0", "1", "2", "22", "39", "49"].contains($0) }, "\(codes)")
        try tmux.send("q")
        #expect(try sandbox.status() == 0)
    }
}
