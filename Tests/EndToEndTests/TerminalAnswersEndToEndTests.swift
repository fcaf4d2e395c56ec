import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit

/// The gateway asks the terminal for its background (OSC 11, with DA1 after
/// it). A slow or remote terminal answers in pieces, and late: whatever the
/// pieces, an answer is never read as keys ("rgb:dede/…" holds a d and an
/// e), so the pause neither deepens nor ends by itself.
@Suite(.serialized, .endToEnd) struct TerminalAnswersEndToEndTests {
    let sandbox = Sandbox()

    var environment: [String: String] { sandbox.environment.merging(["TERM": "xterm-256color"]) { $1 } }

    /// Starts a ten-minute pause in a terminal of the test's own, waits for its question.
    func pause() throws -> PseudoTerminal {
        let terminal = try PseudoTerminal(["gate", "--pause", "600", "argv-dump"], environment: environment)
        try terminal.waitForOutput("the background question") { $0.contains("\u{1B}]11;?") }
        return terminal
    }

    /// The pause still up two ticks later, never deepened (its clock never
    /// back at 10:00) and nothing recorded as ended.
    func expectStillPausing(_ terminal: PseudoTerminal) throws {
        let screen = try terminal.waitForOutput("two ticks of the countdown") { $0.contains("9:58") || !terminal.isRunning }
        let (running, exited) = (terminal.isRunning, screen.contains("You chose yourself"))
        #expect(running && !exited, "the pause ended (as Exit to Focus: \(exited))")
        let deepened = screen.components(separatedBy: "9:59").dropFirst().joined().contains("10:00")
        #expect(!deepened, "the pause deepened")
        #expect(try sandbox.sessions().map(\.outcome) == [.open])
    }

    @Test func an_answer_cut_in_two_inside_the_question_s_wait_is_no_keys() throws {
        let terminal = try pause()
        terminal.send("\u{1B}]11;rgb:1c1c/")
        // The rest comes after the gateway has stopped waiting for it.
        terminal.keepReading(for: 0.2)
        terminal.send("1c1c/dede\u{1B}\\")
        terminal.keepReading(for: 0.1)
        terminal.send("\u{1B}[?62;c")
        try expectStillPausing(terminal)
    }

    /// Longer than any terminal's answer (300 bytes of "dede/"): dropped up
    /// to its end, none of it read as keys.
    @Test func an_answer_past_the_cap_is_no_keys() throws {
        let terminal = try pause()
        terminal.send("\u{1B}]11;rgb:" + String(repeating: "dede/", count: 58) + "\u{07}\u{1B}[?62;c")
        try expectStillPausing(terminal)
    }

    @Test func an_answer_that_comes_late_in_pieces_is_no_keys_and_still_sets_the_look() throws {
        let terminal = try pause()
        try terminal.waitForOutput("the first frame") { $0.contains("Exit to Focus") }
        let firstFrame = terminal.output.count
        terminal.send("\u{1B}]11;rgb:1c")
        terminal.keepReading(for: 0.1)
        terminal.send("1c/1c1c/1e1e\u{07}\u{1B}[?6")
        terminal.keepReading(for: 0.1)
        terminal.send("2;c")
        try expectStillPausing(terminal)
        // A dark background after all: the pause is drawn again in the dark
        // look, without the light sheet (256 colours: background 255).
        let later = String(decoding: terminal.output[firstFrame...], as: UTF8.self)
        let lastFrame = later.components(separatedBy: "\u{1B}[?2026h").last ?? ""
        let redrawn = later.contains("\u{1B}[2J"), light = lastFrame.contains("48;5;255")
        #expect(redrawn && !light, "still the light look (drawn again: \(redrawn))")
    }

    /// A DCS answer (a setting, a capability) and an APC one (an image
    /// protocol's status), each holding d, e and p: no keys either.
    @Test func dcs_and_apc_answers_are_no_keys() throws {
        let terminal = try pause()
        try terminal.waitForOutput("the first frame") { $0.contains("Exit to Focus") }
        terminal.send("\u{1B}P1$r0;dede;p\u{1B}\\\u{1B}_Gi=1;dede;p\u{1B}\\\u{1B}[?62;c")
        try expectStillPausing(terminal)
    }

    /// The Esc of an answer, then its rest later than an Esc waits for the
    /// rest of a key's sequence, while the answers are still awaited: the
    /// start of a late answer, not Esc (Exit) and keys.
    @Test func an_answer_cut_right_after_its_escape_is_no_keys() throws {
        let terminal = try pause()
        // Well after the question: the countdown's first tick.
        try terminal.waitForOutput("the first tick") { $0.contains("9:59") }
        terminal.send("\u{1B}")
        // The gap that cuts the answer: what is under test.
        terminal.keepReading(for: 0.2)
        terminal.send("]11;rgb:dede/dede/dede\u{07}\u{1B}[?62;c")
        try expectStillPausing(terminal)
    }

    /// An answer that never ends holds no one in the pause: an e typed
    /// after its start is Exit to Focus within a second or so, with
    /// nothing more typed.
    @Test func e_after_an_answer_that_never_ends_still_exits() throws {
        let terminal = try pause()
        try terminal.waitForOutput("the first frame") { $0.contains("Exit to Focus") }
        terminal.send("\u{1B}]11;rgb:1c1c/")
        let typed = Date()
        terminal.send("e")
        try terminal.waitForOutput("the farewell") { $0.contains("You chose yourself") || !terminal.isRunning }
        let waited = Date().timeIntervalSince(typed)
        #expect(waited < 3, "Exit took \(waited) s")
        #expect(try sandbox.sessions().map(\.outcome) == [.exit])
    }
}
