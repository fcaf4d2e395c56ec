import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGATestSupport

@Suite struct LinePauseTests {
    /// A quote from a file that tries to set the clipboard (OSC 52, ended by
    /// BEL), clear the screen with a C1 CSI, and hide a DEL.
    static let hostile = Quote(id: "q1", text: "Be still\u{1B}]52;c;cm0gLXJmIH4=\u{07} and know.\u{9B}2J\u{7F}",
                               source: "Some\u{1B}[31mone\r", tags: ["calm\u{07}"])
    static let quotes = [hostile, Quote.sample("q2", "The second quote, brought by Deepen.")]
    static let keys = "(then Enter)\n"
    static let atZero = "(then Enter): "

    static func isPlain(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == "\n" || ($0.value >= 0x20 && !(0x7F...0x9F).contains($0.value)) }
    }

    func session(length: Int = 30, at time: ManualTime) -> PauseSession {
        PauseSession(programName: "Firefox", length: length, quote: Self.hostile, at: time.monotonic())
    }

    @Test(arguments: ["e", "q", " E "])
    func exit_to_focus_before_zero_ends_at_once(_ key: String) {
        let script = LineScript([reply(after: Self.keys, wait: 3, send: key + "\n")])
        var session = session(at: script.time)
        #expect(script.run(&session) == .exitToFocus)
        #expect(session.pausedSeconds == 3)
        #expect(script.written.hasPrefix("\na pause before Firefox\n\n  “Be still"))
        #expect(script.written.contains("Pause: 0:30 — Proceed opens at zero.\ne Exit to Focus · d Deepen the Pause (then Enter)\n"))
        #expect(!script.written.contains("complete"))
        #expect(script.isPlainText)
    }

    /// Every line fits the terminal's width, broken between words.
    @Test(arguments: [40, 30, 24])
    func lines_are_wrapped_to_the_terminal_s_width(width: Int) {
        let script = LineScript([reply(after: "(then", wait: 30), reply(after: "Enter): ", send: "e\n")])
        var session = PauseSession(programName: "Firefox", length: 30, quote: Quote.sample("long", String(repeating: "A calm long sentence. ", count: 8)),
                                   at: script.time.monotonic())
        session.alternative = "read ten pages of the book on the shelf"
        #expect(script.run(&session, width: width) == .exitToFocus)
        let lines = script.written.split(separator: "\n")
        #expect(lines.allSatisfy { CellWidth.of(String($0)) <= width }, "wider than \(width):\n\(script.written)")
        for phrase in ["Deepen the", "Exit to", "(then Enter)"] {
            #expect(lines.contains { $0.contains(phrase) }, "\(phrase) broken at \(width):\n\(script.written)")
        }
    }

    @Test func hostile_words_are_shown_as_replacement_characters() {
        let script = LineScript([reply(after: Self.keys, send: "e\n")])
        var session = PauseSession(programName: "Fire\u{1B}[2Jfox", length: 30, quote: Self.hostile, at: script.time.monotonic())
        session.alternative = "read\u{1B}]52;c;aGk=\u{07} ten pages"
        #expect(script.run(&session) == .exitToFocus)
        #expect(script.written.contains("“Be still\u{FFFD}]52;c;cm0gLXJmIH4=\u{FFFD} and know.\u{FFFD}2J\u{FFFD}”"))
        #expect(script.written.contains("— Some\u{FFFD}[31mone\u{FFFD} · calm\u{FFFD}"))
        #expect(script.written.contains("a pause before Fire\u{FFFD}[2Jfox"))
        #expect(script.written.contains("i Instead: read\u{FFFD}]52;c;aGk=\u{FFFD} ten pages"))
        #expect(script.isPlainText)
    }

    @Test func the_countdown_goes_on_in_lines_and_proceed_opens_at_zero() {
        let script = LineScript([reply(after: Self.keys, wait: 10), reply(after: "0:20 …\n", wait: 10),
                                 reply(after: "0:10 …\n", wait: 10), reply(after: Self.atZero, wait: 2, send: "p\n")])
        var session = session(at: script.time)
        #expect(script.run(&session) == .proceed)
        #expect(script.written.hasSuffix("Proceed opens at zero.\ne Exit to Focus · d Deepen the Pause (then Enter)\n"
            + "0:20 …\n0:10 …\nThe pause is complete — the choice is yours.\n"
            + "e Exit to Focus · d Deepen the Pause · p Proceed to Firefox (then Enter): "))
        #expect(session.pausedSeconds == 32)
        #expect(script.isPlainText)
    }

    @Test func proceed_before_zero_is_refused_kindly() {
        let script = LineScript([reply(after: Self.keys, wait: 5, send: "p\n"),
                                 reply(after: "there is no hurry.\n", wait: 25),
                                 reply(after: Self.atZero, send: "P\n")])
        var session = session(at: script.time)
        #expect(script.run(&session) == .proceed)
        #expect(script.written.contains("Proceed opens at zero — there is no hurry.\nThe pause is complete"))
        #expect(session.pausedSeconds == 30)
        #expect(script.isPlainText)
    }

    @Test func deepening_prints_a_new_quote_and_restarts_the_countdown() {
        var deepened: [Int] = []
        let script = LineScript([reply(after: Self.keys, wait: 12, send: "d\n"),
                                 reply(after: Self.keys, wait: 29, send: "p\n"),
                                 reply(after: "there is no hurry.\n", wait: 1),
                                 reply(after: Self.atZero, send: "p\n")])
        var session = session(at: script.time)
        #expect(script.run(&session, onDeepen: { deepened.append($0.deepenCount) }) == .proceed)
        #expect(deepened == [1])
        #expect(session.quotesShown == ["q1", "q2"])
        #expect(session.pausedSeconds == 42)
        #expect(script.written.contains("\n  “The second quote, brought by Deepen.”\n  Mindfulness\n\nPause: 0:30"))
        #expect(script.written.components(separatedBy: "Pause: 0:30").count == 3)
        #expect(script.isPlainText)
    }

    @Test func deepening_after_zero_closes_proceed_again() {
        let script = LineScript([reply(after: Self.keys, wait: 30), reply(after: Self.atZero, send: "d\n"),
                                 reply(after: Self.keys, wait: 1, send: "p\n")])
        var session = session(at: script.time)
        #expect(script.run(&session) == .hangup)
        #expect(session.deepenCount == 1)
        #expect(script.written.hasSuffix("Proceed opens at zero — there is no hurry.\n"))
        #expect(script.isPlainText)
    }

    @Test func w_shows_the_quote_again() {
        let script = LineScript([reply(after: Self.keys, send: "w\n"), reply(after: "calm\u{FFFD}\n\n", send: "e\n")])
        var session = session(at: script.time)
        #expect(script.run(&session) == .exitToFocus)
        #expect(script.written.components(separatedBy: "“Be still").count == 3)
        #expect(script.isPlainText)
    }

    @Test func an_empty_or_unknown_line_repeats_the_choices() {
        let script = LineScript([reply(after: Self.keys, send: "\n"), reply(after: Self.keys, send: "maybe\n"),
                                 reply(after: "A letter from the line below, then Enter.\ne Exit to Focus", wait: 30, send: "i\n"),
                                 reply(after: "A letter from the line below, then Enter.\ne Exit to Focus", send: "e\n")])
        var session = session(at: script.time)
        #expect(script.run(&session) == .exitToFocus)
        // Without an alternative on offer, i is no choice at all.
        #expect(script.written.hasSuffix("A letter from the line below, then Enter.\n" +
                                         "e Exit to Focus · d Deepen the Pause · p Proceed to Firefox (then Enter): "))
        #expect(script.isPlainText)
    }

    @Test func the_intention_is_asked_until_answered_and_recorded() {
        let question = "What are you opening Firefox for? "
        let script = LineScript([reply(after: Self.keys, wait: 30), reply(after: Self.atZero, send: "p\n"),
                                 reply(after: question, send: "  \r\n"),
                                 reply(after: "A few words first — or e to exit.\n" + question, send: "  to reply to Ana \u{07}\n")])
        var session = session(at: script.time)
        session.kind = .intention
        session.asksIntention = true
        #expect(script.run(&session) == .proceed)
        #expect(session.answeredIntention == "to reply to Ana")
        #expect(script.written.contains("Pause: 0:30 — while it counts: what are you opening Firefox for?\n"))
        #expect(script.isPlainText)
    }

    @Test func an_answer_given_while_it_counts_is_the_intention_and_proceed_asks_no_more() {
        // The kind `intention` asks from the start, as the full-screen pause does.
        let script = LineScript([reply(after: Self.keys, send: "to reply to Ana\n"),
                                 reply(after: "Noted: to reply to Ana.\n", wait: 30),
                                 reply(after: Self.atZero, send: "p\n")])
        var session = session(at: script.time)
        session.kind = .intention
        session.asksIntention = true
        session.beginIntention(at: script.time.monotonic())
        #expect(script.run(&session) == .proceed)
        #expect(session.answeredIntention == "to reply to Ana")
        #expect(!script.written.contains("What are you opening"), "the question came again")
        #expect(!script.written.contains("A letter from the line below"))
        #expect(script.isPlainText)
    }

    @Test func exit_is_one_letter_away_from_the_question() {
        let script = LineScript([reply(after: Self.keys, wait: 30), reply(after: Self.atZero, send: "p\n"),
                                 reply(after: "for? ", send: "e\n")])
        var session = session(at: script.time)
        session.asksIntention = true
        #expect(script.run(&session) == .exitToFocus)
        #expect(script.isPlainText)
    }

    @Test func the_typed_line_must_be_typed_exactly() {
        let line = "I choose this on purpose."
        let script = LineScript([reply(after: Self.keys, wait: 30), reply(after: Self.atZero, send: "p\n"),
                                 reply(after: "› ", send: "I chose this on purpose.\n"),
                                 reply(after: "› ", send: line + " and more\n"),
                                 reply(after: "Not quite — try again, or e to exit.\n› ", send: line + "\r\n")])
        var session = session(at: script.time)
        session.kind = .type
        session.typingTarget = line
        #expect(script.run(&session) == .proceed)
        #expect(session.typedInFull)
        #expect(session.progress.typed == true)
        #expect(script.written.contains("Pause: 0:30 — Proceed opens at zero, after a short line typed back.\n"))
        #expect(script.written.contains("Type this line to open Firefox:\n  I choose this on purpose.\n› "))
        #expect(script.written.components(separatedBy: "Not quite").count == 3)
        #expect(script.isPlainText)
    }

    @Test func a_typed_line_comes_before_the_question() {
        let script = LineScript([reply(after: Self.keys, wait: 30), reply(after: Self.atZero, send: "p\n"),
                                 reply(after: "› ", send: "slow\n"), reply(after: "for? ", send: "mail\n")])
        var session = session(at: script.time)
        session.typingTarget = "slow"
        session.asksIntention = true
        #expect(script.run(&session) == .proceed)
        #expect(session.typedInFull)
        #expect(session.answeredIntention == "mail")
        #expect(script.isPlainText)
    }

    @Test func a_wrong_typed_line_can_exit_to_focus() {
        let script = LineScript([reply(after: Self.keys, wait: 30), reply(after: Self.atZero, send: "p\n"),
                                 reply(after: "› ", send: "e\n")])
        var session = session(at: script.time)
        session.typingTarget = "\u{1B}]52;c;aGk=\u{07}"
        #expect(script.run(&session) == .exitToFocus)
        #expect(!session.typedInFull)
        #expect(script.isPlainText)
    }

    @Test func the_alternative_is_one_letter_away() {
        let script = LineScript([reply(after: Self.keys, wait: 4, send: "i\n")])
        var session = session(at: script.time)
        session.kind = .instead
        session.alternative = "read ten pages\u{1B}]52;c;aGk=\u{07}"
        #expect(script.run(&session) == .alternative)
        // Wider than 80 columns, so "(then Enter)" goes on a line of its own.
        #expect(script.written.contains(
            "e Exit to Focus · i Instead: read ten pages\u{FFFD}]52;c;aGk=\u{FFFD} · d Deepen the Pause\n(then Enter)\n"))
        #expect(script.isPlainText)
    }

    @Test func the_end_of_input_is_a_hangup() {
        let script = LineScript([])
        var session = session(at: script.time)
        #expect(script.run(&session) == .hangup)
        #expect(script.isPlainText)
    }

    @Test func the_end_of_input_while_asked_is_a_hangup() {
        let script = LineScript([reply(after: Self.keys, wait: 30), reply(after: Self.atZero, send: "p\n")])
        var session = session(at: script.time)
        session.asksIntention = true
        #expect(script.run(&session) == .hangup)
        #expect(script.written.hasSuffix("What are you opening Firefox for? "))
        #expect(script.isPlainText)
    }

    @Test func a_signal_ends_the_pause_and_a_resize_does_not() {
        let signals = makePipe()
        defer {
            close(signals.read)
            close(signals.write)
        }
        var bytes: [UInt8] = [UInt8(SIGWINCH), UInt8(SIGTERM)]
        #expect(write(signals.write, &bytes, bytes.count) == 2)
        let script = LineScript([reply(after: Self.keys, send: nil), reply(after: "never", send: nil)])
        var session = session(at: script.time)
        #expect(script.run(&session, signals: signals.read) == .signal(SIGTERM))
        #expect(script.isPlainText)
    }

    @Test func another_launch_proceeding_ends_the_pause_as_yielded() {
        let script = LineScript([reply(after: "never")])
        var asked = 0
        var session = session(at: script.time)
        #expect(script.run(&session, shouldYield: {
            asked += 1
            script.time.advance(1)
            return asked == 3
        }) == .yielded)
        #expect(asked == 3)
        #expect(script.isPlainText)
    }

    @Test func the_quote_is_wrapped_to_72_columns() {
        let long = Quote(id: "long", text: String(repeating: "Attention is the rarest and purest form of generosity. ", count: 4)
                             + " / A second verse.", source: "inspired by Simone Weil", tags: ["attention"])
        let script = LineScript([reply(after: Self.keys, send: "e\n")])
        var session = PauseSession(programName: "Firefox", length: 30, quote: long, at: script.time.monotonic())
        #expect(script.run(&session) == .exitToFocus)
        let quoteLines = script.written.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(quoteLines.count == 6)
        #expect(quoteLines.allSatisfy { CellWidth.of(String($0)) <= 72 })
        #expect(quoteLines.last == "  — inspired by Simone Weil · attention")
        #expect(script.isPlainText)
    }

    /// The real clock and poll(2): the countdown reaches zero while nobody types.
    @Test func the_countdown_goes_on_while_nobody_types() {
        let (readEnd, writeEnd) = makePipe()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        var written = ""
        var session = PauseSession(programName: "Firefox", length: 1, quote: Self.hostile, at: SystemTime().monotonic())
        let ending = LinePause.run(&session, input: readEnd, output: { text in
            written += text
            if text.hasSuffix(Self.atZero) { writeAll(writeEnd, "p\n") }
        }, time: SystemTime(), world: ScriptedWorld(quotes: Self.quotes), tick: 0.4)
        #expect(ending == .proceed)
        #expect(session.pausedSeconds >= 1)
        #expect(written.contains("Pause: 0:01 — Proceed opens at zero.\n"))
        #expect(written.contains("0:01 …\n0:01 …\nThe pause is complete"))
        #expect(Self.isPlain(written))
    }
}
