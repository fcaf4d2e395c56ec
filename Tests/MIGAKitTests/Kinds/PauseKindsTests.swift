import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGATestSupport

/// The kinds of pause as the model runs them: a typed line that forgives
/// mistakes and refuses pastes, an alternative that is an exit, the question
/// of the kind `intention`. Plain numbers for time, no terminal.
@Suite struct PauseKindsTests {
    let quote = Quote.sample("q1", "Quote number 1.")

    func typed(_ line: String = "I choose.", length: Int = 5) -> PauseModel {
        var session = PauseSession(programName: "Fake", length: length, quote: quote, at: 0)
        session.kind = .type
        session.typingTarget = line
        return PauseModel(session: session, look: PauseLook(motion: false, showTrack: true))
    }

    /// Keys a hand types: a tenth of a second apart.
    func type(_ text: String, into pause: inout PauseModel, from start: Double) -> Double {
        var time = start
        for character in text {
            _ = pause.update(.key(character == " " ? .space : .character(character)), at: time)
            time += 0.1
        }
        return time
    }

    @Test func proceed_opens_the_line_to_type_and_only_the_whole_line_opens_the_program() {
        var pause = typed()
        #expect(pause.update(.key(.character("p")), at: 5).isEmpty)
        #expect(pause.session.isTyping)
        var time = type("I choo", into: &pause, from: 5.1)
        #expect(pause.update(.key(.enter), at: time).isEmpty)
        #expect(pause.session.isNudging)
        time = type("se.", into: &pause, from: time + 0.1)
        #expect(pause.session.typedInFull)
        #expect(pause.update(.key(.enter), at: time) == [.finish(.proceed)])
        #expect(pause.session.progress.typed == true)
        #expect(pause.session.progress.kind == .type)
    }

    @Test func a_mistake_stays_out_and_the_cursor_waits_where_it_happened() {
        var pause = typed()
        _ = pause.update(.key(.character("p")), at: 5)
        let time = type("I x", into: &pause, from: 5.1)
        #expect(pause.session.typed == "I ")
        #expect(pause.session.typingMistake)
        let frame = PauseScreen.frame(pause.session, size: TerminalSize(columns: 80, rows: 24), look: PauseLook())
        #expect(frame.text.contains("Not quite — the cursor shows where to go on"))
        #expect(frame.text.contains("I ▏choose."))
        _ = type("c", into: &pause, from: time)
        #expect(pause.session.typed == "I c")
        #expect(!pause.session.typingMistake)
    }

    @Test func a_burst_no_hand_types_is_taken_back() {
        var pause = typed("I choose how I spend it.")
        _ = pause.update(.key(.character("p")), at: 5)
        let time = type("I ", into: &pause, from: 5.1)
        // A paste without bracketing: characters a millisecond apart.
        for (index, character) in "choose".enumerated() {
            _ = pause.update(.key(.character(character)), at: time + Double(index) * 0.001)
        }
        #expect(pause.session.typed == "I ")
        #expect(pause.session.pasteRefused)
        // Two keys pressed together are no paste.
        _ = pause.update(.key(.character("c")), at: time + 1)
        _ = pause.update(.key(.character("h")), at: time + 1.002)
        #expect(pause.session.typed == "I ch")
        #expect(!pause.session.pasteRefused)
    }

    @Test func a_line_in_any_script_is_typed_a_code_point_at_a_time_and_proceeds() {
        for line in ["मैं अपना समय खुद चुनता हूँ", "ฉันเลือกเวลาของฉันเอง", "나는 내 시간을 고른다", "Je choisis ma soirée."] {
            var pause = typed(line)
            _ = pause.update(.key(.character("p")), at: 5)
            var time = 5.1
            // Each character as an input method commits it: its code points
            // in one read, at the same instant, a hand's pause between characters.
            for character in line {
                for scalar in character.unicodeScalars {
                    _ = pause.update(.key(scalar == " " ? .space : .character(Character(scalar))), at: time)
                }
                time += 0.1
            }
            #expect(!pause.session.typingMistake, "\(line)")
            #expect(!pause.session.pasteRefused, "\(line)")
            #expect(pause.session.typedInFull, "\(line)")
            #expect(pause.update(.key(.enter), at: time) == [.finish(.proceed)], "\(line)")
        }
    }

    @Test func a_line_with_a_joiner_is_typed_with_it_or_without_and_stays_whole_on_screen() {
        let size = TerminalSize(columns: 80, rows: 24)
        let joiners: Set<Unicode.Scalar> = ["\u{200C}", "\u{200D}"]
        // Persian "می‌خواهم" and a Devanagari virama kept visible, each with a non-joiner;
        // Devanagari's half form with a joiner.
        for line in ["من می\u{200C}خواهم امروز کتاب بخوانم.", "मैं अपनी क्\u{200C}षमता पर भरोसा करता हूँ।",
                     "मैं अपनी क्\u{200D}षमता पर भरोसा करता हूँ।"] {
            let withoutJoiners = String(String.UnicodeScalarView(line.unicodeScalars.filter { !joiners.contains($0) }))
            for keys in [line, withoutJoiners] {
                var pause = typed(line)
                _ = pause.update(.key(.character("p")), at: 5)
                var time = 5.1
                for scalar in keys.unicodeScalars {
                    _ = pause.update(.key(scalar == " " ? .space : .character(Character(scalar))), at: time)
                    time += 0.1
                    #expect(!pause.session.typingMistake, "\(keys.unicodeScalars.map(\.value))")
                    // The whole line in the field at every key, the cursor in it.
                    let field = PauseScreen.frame(pause.session, size: size, look: PauseLook()).text
                        .split(separator: "\n").first { $0.contains("▏") }
                    #expect(field?.replacingOccurrences(of: "▏", with: "").contains(line) == true, "\(field ?? "")")
                }
                #expect(pause.session.typedInFull)
                #expect(pause.update(.key(.enter), at: time) == [.finish(.proceed)])
            }
            // Typed back as a line at once (the line conversation, a form), without its joiners too.
            var pause = typed(line)
            _ = pause.update(.key(.character("p")), at: 5)
            pause.session.typeLine(withoutJoiners, at: 6)
            #expect(!pause.session.typingMistake && pause.session.typedInFull)
        }
    }

    @Test func a_combining_accent_typed_as_a_key_of_its_own_joins_its_letter() {
        var pause = typed("Un café.")
        _ = pause.update(.key(.character("p")), at: 5)
        var time = type("Un cafe", into: &pause, from: 5.1)
        #expect(!pause.session.typingMistake)
        // The accent as a key of its own (a dead key some terminals send apart).
        _ = pause.update(.key(.character("\u{0301}")), at: time)
        time += 0.1
        #expect(!pause.session.typingMistake)
        let frame = PauseScreen.frame(pause.session, size: TerminalSize(columns: 80, rows: 24), look: PauseLook())
        #expect(frame.text.contains("Un café▏."))
        _ = type(".", into: &pause, from: time)
        #expect(pause.session.typedInFull)
    }

    @Test func a_bracketed_paste_counts_for_nothing_anywhere_on_the_pause() {
        var pause = typed("I choose.")
        _ = pause.update(.key(.character("p")), at: 5)
        _ = pause.update(.key(.pasteStart), at: 6)
        _ = type("I choose.", into: &pause, from: 6)
        _ = pause.update(.key(.pasteEnd), at: 7)
        #expect(pause.session.typed == "")
        #expect(pause.session.pasteRefused)
        #expect(pause.update(.key(.enter), at: 7.1).isEmpty)
        // On the actions too: a "p" inside a paste is no Proceed.
        var plain = PauseModel(session: PauseSession(programName: "Fake", length: 1, quote: quote, at: 0),
                               look: PauseLook(motion: false))
        _ = plain.update(.key(.pasteStart), at: 2)
        #expect(plain.update(.key(.character("p")), at: 2).isEmpty)
        #expect(plain.update(.key(.character("e")), at: 2).isEmpty)
        _ = plain.update(.key(.pasteEnd), at: 2)
        #expect(plain.update(.key(.character("p")), at: 2.5) == [.finish(.proceed)])
    }

    @Test func esc_goes_back_keeping_what_was_typed_and_ctrl_c_exits() {
        var pause = typed()
        _ = pause.update(.key(.character("p")), at: 5)
        let time = type("I c", into: &pause, from: 5.1)
        _ = pause.update(.key(.escape), at: time)
        #expect(!pause.session.isTyping)
        _ = pause.update(.key(.character("p")), at: time + 1)
        #expect(pause.session.typed == "I c")
        #expect(pause.update(.key(.backspace), at: time + 1.5).isEmpty)
        #expect(pause.session.typed == "I ")
        #expect(pause.update(.key(.control("c")), at: time + 2) == [.finish(.exitToFocus)])
        // Left without typing it all: recorded as not typed.
        #expect(pause.session.progress.typed == false)
    }

    @Test func the_typed_line_comes_before_the_intention_question_when_both_are_asked() {
        var pause = typed("I choose.")
        pause.session.asksIntention = true
        _ = pause.update(.key(.character("p")), at: 5)
        let time = type("I choose.", into: &pause, from: 5.1)
        #expect(pause.update(.key(.enter), at: time).isEmpty)
        #expect(pause.session.isAskingIntention)
    }

    @Test func the_alternative_is_an_exit_with_one_key_and_only_when_offered() {
        var session = PauseSession(programName: "Fake", length: 5, quote: quote, at: 0)
        session.kind = .instead
        session.alternative = "read ten pages"
        var pause = PauseModel(session: session, look: PauseLook(motion: false))
        let frame = PauseScreen.frame(pause.session, size: TerminalSize(columns: 80, rows: 24), look: PauseLook())
        #expect(frame.text.contains("[I] Instead: read ten pages"))
        #expect(pause.update(.key(.character("i")), at: 1) == [.finish(.alternative)])
        var plain = PauseModel(session: PauseSession(programName: "Fake", length: 5, quote: quote, at: 0), look: PauseLook())
        #expect(plain.update(.key(.character("i")), at: 1).isEmpty)
    }

    @Test func an_alternative_from_a_file_cannot_reach_the_terminal_as_a_control_sequence() {
        var session = PauseSession(programName: "Fake", length: 5, quote: quote, at: 0)
        session.alternative = "read\u{1B}]52;c;aGk=\u{07}"
        let frame = PauseScreen.frame(session, size: TerminalSize(columns: 80, rows: 24), look: PauseLook())
        #expect(!frame.text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test func the_intention_kind_asks_while_the_ring_empties() {
        var session = PauseSession(programName: "Fake", length: 5, quote: quote, at: 0)
        session.kind = .intention
        session.asksIntention = true
        let frame = PauseScreen.frame(session, size: TerminalSize(columns: 80, rows: 24), look: PauseLook())
        #expect(frame.text.contains("While the ring empties: what are you opening Fake for?"))
    }

    @Test func the_actions_and_status_hold_still_when_the_typing_field_opens() {
        var pause = typed()
        let size = TerminalSize(columns: 80, rows: 24)
        let before = PauseScreen.frame(pause.session, size: size, look: PauseLook()).text.split(separator: "\n", omittingEmptySubsequences: false)
        _ = pause.update(.key(.character("p")), at: 5)
        let after = PauseScreen.frame(pause.session, size: size, look: PauseLook()).text.split(separator: "\n", omittingEmptySubsequences: false)
        let row = { (lines: [Substring], text: String) in lines.firstIndex { $0.contains(text) } }
        #expect(row(before, "Exit to Focus") != nil)
        #expect(row(before, "Exit to Focus") == row(after, "I choose."))
        #expect(before.count == after.count)
    }

    @Test func deepen_asks_for_a_line_of_the_new_quote_and_what_was_typed_of_the_old_one_goes() {
        var session = PauseSession(programName: "Fake", length: 5, quote: Quote.sample("a", "The river does not hurry."), at: 0)
        session.kind = .type
        session.typedLines = TypedLineSource(own: [], asciiOnly: false, seed: 1)
        let chosen = session.chooseTypingLine()
        #expect(chosen && session.typingTarget == "The river does not hurry.")
        var pause = PauseModel(session: session, look: PauseLook(motion: false))
        _ = pause.update(.key(.character("p")), at: 5)
        let time = type("The ", into: &pause, from: 5.1)
        _ = pause.update(.key(.escape), at: time)
        #expect(pause.update(.key(.character("d")), at: time + 0.5) == [.perform(.deepen(at: time + 0.5))])
        pause.session.deepen(with: Quote.sample("b", "I choose my evening now."), at: time + 0.5)
        #expect(pause.session.typingTarget == "I choose my evening now.")
        #expect(pause.session.typed == "" && !pause.session.typedInFull)
        // A quote that gives no line to type keeps the line there was.
        pause.session.deepen(with: Quote.sample("c", "Be still."), at: time + 1)
        #expect(pause.session.typingTarget == "I choose my evening now.")
        // The person's own lines: one of them again, drawn afresh.
        var own = PauseSession(programName: "Fake", length: 5, quote: quote, at: 0)
        own.typedLines = TypedLineSource(own: ["I choose my evening.", "Later is a fine time."], asciiOnly: false, seed: 3)
        own.chooseTypingLine()
        var lines: Set<String> = []
        for index in 0..<12 {
            own.deepen(with: Quote.sample("q\(index)", "Quote number \(index)."), at: Double(index))
            lines.insert(own.typingTarget ?? "")
        }
        #expect(lines == ["I choose my evening.", "Later is a fine time."])
    }

    // MARK: The line

    @Test func the_line_is_a_sentence_of_the_quote_that_the_keyboard_types() {
        let quote = Quote.sample("q", "“Sort it quickly — this part is yours.” Then rest. A sentence that is far too long to type back on a pause screen at all.")
        #expect(TypedLine.sentences(of: quote.text) == ["Sort it quickly - this part is yours."])
        var generator = SeededGenerator(seed: 1)
        #expect(TypedLine.choose(quote: quote, own: [], using: &generator) == "Sort it quickly - this part is yours.")
        #expect(TypedLine.choose(quote: quote, own: ["I choose my evening."], using: &generator) == "I choose my evening.")
        #expect(TypedLine.choose(quote: Quote.sample("x", "Été à Noël, très."), own: [], asciiOnly: true, using: &generator) == nil)
    }

    @Test func a_terminal_without_utf8_is_never_asked_for_an_accent() {
        // Under a C locale "café" shows as "cafe" and the é cannot be sent.
        var generator = SeededGenerator(seed: 1)
        let quote = Quote.sample("q", "Sort it quickly, this part is yours.")
        #expect(TypedLine.choose(quote: quote, own: ["Un café, puis le travail."], using: &generator) == "Un café, puis le travail.")
        #expect(TypedLine.choose(quote: quote, own: ["Un café, puis le travail."], asciiOnly: true, using: &generator)
                == "Sort it quickly, this part is yours.")
    }

    @Test func keys_mark_a_bracketed_paste() {
        let keys = KeyDecoder().decode(Array("\u{1B}[200~p\u{1B}[201~e".utf8))
        #expect(keys == [.pasteStart, .character("p"), .pasteEnd, .character("e")])
    }

    /// An intention pause, its question open from the first frame.
    func intentionPause(length: Int = 5) -> PauseModel {
        var session = PauseSession(programName: "Fake", length: length, quote: quote, at: 0)
        session.kind = .intention
        session.asksIntention = true
        session.beginIntention(at: 0)
        return PauseModel(session: session, look: PauseLook(motion: false))
    }

    @Test func an_intention_pause_asks_from_the_start_and_the_answer_waits_for_zero() {
        var pause = intentionPause()
        // Letters type the answer, even those that are keys on the actions.
        for (index, character) in "email".enumerated() {
            #expect(pause.update(.key(.character(character)), at: 1 + Double(index) * 0.2).isEmpty)
        }
        #expect(pause.session.intention == "email")
        #expect(pause.update(.key(.enter), at: 3).isEmpty)
        #expect(pause.session.isNudging)
        let frame = PauseScreen.frame(pause.session, size: TerminalSize(columns: 80, rows: 24), look: PauseLook())
        #expect(frame.text.contains("Proceed opens when the ring is empty — there is no hurry"))
        #expect(pause.update(.key(.enter), at: 5.5) == [.finish(.proceed)])
    }

    @Test func exit_to_focus_is_one_key_on_screen_while_the_intention_pause_asks() {
        var pause = intentionPause()
        _ = pause.update(.key(.character("e")), at: 1)
        for width in [80, 60, 40] {
            let frame = PauseScreen.frame(pause.session, size: TerminalSize(columns: width, rows: 24), look: PauseLook())
            #expect(frame.text.contains("[Esc] Exit to Focus"), "at \(width) columns:\n\(frame.text)")
        }
        let wide = PauseScreen.frame(pause.session, size: TerminalSize(columns: 80, rows: 24), look: PauseLook())
        #expect(wide.text.contains("[Tab] Deepen the Pause"))
        #expect(pause.update(.key(.escape), at: 1.5) == [.finish(.exitToFocus)])
        var interrupted = intentionPause()
        #expect(interrupted.update(.key(.control("c")), at: 1) == [.finish(.exitToFocus)])
    }

    @Test func deepen_is_one_key_from_the_intention_question_and_the_answer_stays() {
        var pause = intentionPause()
        _ = pause.update(.key(.character("x")), at: 1)
        #expect(pause.update(.key(.tab), at: 2) == [.perform(.deepen(at: 2))])
        pause.session.deepen(with: Quote.sample("q2", "Quote number 2."), at: 2)
        #expect(pause.session.isAskingIntention && pause.session.intention == "x")
        #expect(pause.session.secondsLeft == 5)
    }

    @Test func a_paste_marker_cut_by_the_end_of_a_read_still_ends_the_paste() {
        let decoder = KeyDecoder()
        let first = decoder.decode(Array("\u{1B}[200~pe\u{1B}[20".utf8), final: false)
        #expect(first.keys == [.pasteStart, .character("p"), .character("e")])
        #expect(first.rest == Array("\u{1B}[20".utf8))
        let second = decoder.decode(first.rest + Array("1~p".utf8), final: false)
        #expect(second.keys == [.pasteEnd, .character("p")])
        #expect(second.rest.isEmpty)
        // A lone Esc at the end of a read waits a moment (TerminalInput), then is the Escape key.
        #expect(decoder.decode(Array("\u{1B}".utf8), final: false).rest == [0x1B])
        #expect(decoder.decode(Array("\u{1B}".utf8), final: true).keys == [.escape])
    }

    @Test func a_paste_whose_end_never_comes_ends_after_a_quiet_second() {
        var pause = PauseModel(session: PauseSession(programName: "Fake", length: 1, quote: quote, at: 0), look: PauseLook(motion: false))
        _ = pause.update(.key(.pasteStart), at: 2)
        #expect(pause.update(.key(.character("e")), at: 2.1).isEmpty)
        _ = pause.update(nil, at: 3.5)
        #expect(pause.update(.key(.character("e")), at: 3.6) == [.finish(.exitToFocus)])
    }

    @Test func own_lines_that_no_keyboard_types_at_a_key_a_time_are_not_asked_for() {
        var generator = SeededGenerator(seed: 2)
        let quote = Quote.sample("q", "A sentence of the quote to type.")
        #expect(TypedLine.choose(quote: quote, own: ["Evening is mine 🌙 tonight", "\u{FFFD} replaced text here"], using: &generator)
                == "A sentence of the quote to type.")
        #expect(TypedLine.choose(quote: quote, own: ["Je choisis ma soirée."], using: &generator) == "Je choisis ma soirée.")
    }
}
