#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import MIGACore
@testable import MIGATerminal
@testable import MIGATestSupport

/// What MIGA learns about the terminal: the background from COLORFGBG or an
/// OSC 11 answer, the character set from the locale, and what it does with
/// answers and text the terminal cannot show.
@Suite struct TerminalCapabilitiesTests {
    /// Dark or light by which text keeps more contrast on the colour (xterm's
    /// palette): black text wins above a relative luminance of about 0.179.
    @Test(arguments: [
        ("15;0", TerminalBackground.dark), ("0;15", .light), ("15;default;0", .dark), ("0;default;15", .light),
        ("0;7", .light), ("default;default", .unknown), ("15;0;x", .unknown), ("", .unknown),
        ("15;-1", .unknown), ("15;256", .unknown), (";;;", .unknown), ("15;0\u{1B}]52;c;aGk=\u{07}", .unknown),
        // #7F7F7F (0.21): black text 5.2:1, white 4.0:1. Green and cyan are light; blue, red and magenta dark.
        ("0;8", .light), ("0;2", .light), ("0;6", .light), ("15;4", .dark), ("15;1", .dark), ("15;5", .dark), ("15;12", .dark),
        // The 256-colour cube and greys: #875FFF (0.21) light, grey 240 (#585858) dark.
        ("0;99", .light), ("15;240", .dark),
    ])
    func colorfgbg_names_the_background_or_says_nothing(value: String, expected: TerminalBackground) {
        #expect(TerminalBackground.from(colorFGBG: value) == expected)
    }

    @Test func an_unset_colorfgbg_says_nothing() {
        #expect(TerminalBackground.from(colorFGBG: nil) == .unknown)
    }

    @Test(arguments: [
        ("\u{1B}]11;rgb:0000/0000/0000\u{07}", TerminalBackground?.some(.dark)),
        ("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\", .light),
        ("\u{1B}]11;rgb:1e/1e/2e\u{1B}\\\u{1B}[?62;22c", .dark), // two digits a channel, and the DA1 answer after
        ("\u{1B}]11;rgb:fdf6/e3e3/d0d0\u{07}", .light), // a cream background
        ("\u{1B}]11;rgb:8/8/8\u{07}", .light), // one digit a channel: mid grey (0.25) keeps black text better
        ("\u{1B}]11;rgb:b0b0/b0b0/b0b0\u{07}", .light), // light grey (0.43): pale text would be 1.1–1.9:1
        ("\u{1B}]11;rgb:5f5f/5f5f/5f5f\u{07}", .dark), ("\u{1B}]11;rgb:7474/7474/7474\u{07}", .dark), // 0.17: white text still better
        ("\u{1B}[?1;2c", nil), // a terminal that answers DA1 only
        ("\u{1B}]11;rgb:zz/00/00\u{07}", nil), ("\u{1B}]11;rgb:ffff/ffff\u{07}", nil),
        ("\u{1B}]11;rgb:fffff/0/0\u{07}", nil), ("\u{1B}]11;#ffffff\u{07}", nil), ("", nil),
    ])
    func an_osc_11_answer_gives_the_background(reply: String, expected: TerminalBackground?) {
        #expect(TerminalBackground.from(osc11: Array(reply.utf8)) == expected)
    }

    @Test func the_answers_are_taken_out_and_keys_typed_meanwhile_kept() {
        var input = TerminalInput()
        input.asked(at: 0)
        let taken = input.take(Array("d\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?62;22ce".utf8), at: 0.01)
        #expect(taken == TerminalInput.Taken(keys: [.character("d"), .character("e")], background: .dark, attributesAnswered: true))
        let alone = input.take(Array("\u{1B}]11;rgb:ff/ff/ff\u{07}p".utf8), at: 0.02)
        #expect(alone == TerminalInput.Taken(keys: [.character("p")], background: .light, attributesAnswered: false))
    }

    @Test func an_answer_that_comes_late_is_never_read_as_keys() {
        // "rgb:dede/eeee/…" holds d (Deepen) and e (Exit): after the first
        // frame it must reach the pause as nothing at all.
        let decoder = KeyDecoder()
        for late in ["\u{1B}]11;rgb:dede/eeee/dddd\u{1B}\\", "\u{1B}]11;rgb:dede/eeee/dddd\u{07}", "\u{1B}[?62;22c"] {
            #expect(decoder.decode(Array(late.utf8)).isEmpty, "\(late.debugDescription)")
        }
        #expect(decoder.decode(Array("\u{1B}]11;rgb:00/00/00\u{07}p".utf8)) == [.character("p")])
        // Alt and a key (a terminal that sends Escape for Alt): the key still counts,
        // but for an answer's openings (Alt+] opens an OSC, which is no keys).
        #expect(decoder.decode(Array("\u{1B}we".utf8)) == [.escape, .character("w"), .character("e")])
        #expect(decoder.decode(Array("\u{1B}]e".utf8)).isEmpty)
        // Esc, Enter or Ctrl-C pressed while an answer hangs unfinished: the key gets through.
        #expect(decoder.decode(Array("\u{1B}]11;rgb:de\u{03}".utf8)) == [.control("c")])
        #expect(decoder.decode(Array("\u{1B}]11;rgb:de\u{1B}e".utf8)) == [.escape, .character("e")])
    }

    /// An answer longer than any terminal gives (300 bytes, holding d and e)
    /// is dropped up to its end without being kept, however the reads cut
    /// it: none of it is keys, and an e after it is Exit to Focus.
    @Test(arguments: [
        "\u{1B}]11;rgb:" + String(repeating: "dede/", count: 58) + "\u{07}",
        "\u{1B}]11;rgb:" + String(repeating: "dede/", count: 58) + "\u{1B}\\",
        "\u{1B}[?" + String(repeating: "6;", count: 150) + "c",
    ])
    func an_answer_past_the_cap_is_dropped_up_to_its_end(answer: String) {
        let bytes = Array(answer.utf8)
        #expect(bytes.count >= 300)
        var whole = TerminalInput()
        #expect(whole.take(bytes, at: 0).keys.isEmpty)
        #expect(whole.take(Array("e".utf8), at: 0.1).keys.compactMap(PauseAction.init) == [.exitToFocus])
        for cut in Array(stride(from: 1, to: bytes.count, by: 7)) + [bytes.count - 2, bytes.count - 1] {
            var input = TerminalInput()
            let first = input.take(Array(bytes[..<cut]), at: 0)
            // (Cut right after its Esc, that may be the Escape key, briefly;
            // else an answer, given its patience.)
            let wait = input.deadline ?? .infinity // taken at 0
            let waits = cut == 1 ? wait == TerminalInput.escapeWait : wait == TerminalInput.answerPatience
            #expect(first.keys.isEmpty && waits, "cut at \(cut): \(first.keys), waits \(wait)")
            let second = input.take(Array(bytes[cut...]) + Array("e".utf8), at: 0.5)
            #expect(second.keys == [.character("e")], "cut at \(cut): \(second.keys)")
        }
        // Past the cap nothing is held: only that it is being dropped.
        let unfinished = KeyDecoder().decode(Array(bytes.dropLast(2)), final: false)
        #expect(unfinished.rest.isEmpty && unfinished.dropping != nil && unfinished.keys.isEmpty)
    }

    /// Ctrl-C, Enter or Esc pressed while an overlong answer is dropped
    /// still get through, and keys count again after them.
    @Test func keys_that_always_count_get_through_an_answer_past_the_cap() {
        let endless = "\u{1B}]11;" + String(repeating: "d", count: KeyDecoder.longestAnswer + 100)
        for (key, expected) in [("\u{03}", Key.control("c")), ("\r", .enter)] {
            var input = TerminalInput()
            #expect(input.take(Array(endless.utf8), at: 0).keys.isEmpty)
            #expect(input.take(Array((String(repeating: "d", count: 50) + key + "e").utf8), at: 0.1).keys == [expected, .character("e")])
        }
        #expect(KeyDecoder().decode(Array((endless + "\u{1B}e").utf8)) == [.escape, .character("e")])
        let csi = "\u{1B}[?" + String(repeating: "6;", count: 100)
        #expect(KeyDecoder().decode(Array((csi + "\u{03}e").utf8)) == [.control("c"), .character("e")])
    }

    /// Cut anywhere (even right after its Esc) and finished however late,
    /// an answer is no keys, and what is typed around it is.
    @Test func an_answer_cut_anywhere_and_finished_late_is_never_keys() {
        let answer = Array("\u{1B}]11;rgb:dede/dede/dede\u{07}\u{1B}[?62;c".utf8)
        for cut in 1..<answer.count {
            var input = TerminalInput()
            input.asked(at: 0)
            let first = input.take(Array("p".utf8) + answer[..<cut], at: 0.01)
            // Long after any wait for the rest of a sequence (but within the answers' window).
            let meanwhile = input.expire(at: 0.5)
            let second = input.take(Array(answer[cut...]) + Array("e".utf8), at: 0.6)
            #expect(first.keys + meanwhile + second.keys == [.character("p"), .character("e")], "cut at \(cut)")
            #expect(first.background ?? second.background == .light, "cut at \(cut)")
        }
    }

    @Test func a_lone_escape_is_the_escape_key_after_a_moment() {
        var input = TerminalInput()
        #expect(input.take([0x1B], at: 10).keys.isEmpty)
        #expect(input.expire(at: 10.01).isEmpty)
        #expect(input.expire(at: 10 + TerminalInput.escapeWait) == [.escape])
        // While answers are due, a lone Esc may be the first byte of one: it waits longer.
        input.asked(at: 20)
        _ = input.take([0x1B], at: 20.01)
        #expect(input.expire(at: 20.1).isEmpty)
        #expect(input.take(Array("[?62;c".utf8), at: 20.2) == TerminalInput.Taken(attributesAnswered: true))
        // Once the DA1 answer came, nothing more is due.
        _ = input.take([0x1B], at: 21)
        #expect(input.expire(at: 21 + TerminalInput.escapeWait) == [.escape])
    }

    @Test(arguments: [
        (["LANG": "C.UTF-8"], true), (["LANG": "C"], false), (["LANG": "POSIX"], false), ([:], false), (["LANG": ""], false),
        (["LC_ALL": "C", "LANG": "C.UTF-8"], false), (["LC_CTYPE": "C.UTF-8", "LANG": "C"], true),
        (["LC_ALL": "", "LC_CTYPE": "", "LANG": "C.UTF-8"], true),
        // Not installed here: the name says what the terminal is.
        (["LANG": "xx_YY.UTF-8"], true), (["LANG": "xx_YY.utf8"], true), (["LANG": "xx_YY.ISO-8859-1"], false),
    ])
    func the_locale_says_whether_the_terminal_speaks_utf8(environment: [String: String], expected: Bool) {
        let before = String(cString: setlocale(LC_CTYPE, nil))
        #expect(TerminalCapabilities.localeIsUTF8(environment) == expected)
        #expect(String(cString: setlocale(LC_CTYPE, nil)) == before, "the process's own locale changed")
    }

    @Test func detect_reads_each_setting_from_the_environment() {
        let dumb = TerminalCapabilities.detect(environment: ["TERM": "dumb", "LANG": "C"])
        #expect(dumb.dumb && !dumb.unicode)
        let dark = TerminalCapabilities.detect(environment: ["TERM": "xterm", "LANG": "C.UTF-8", "COLORFGBG": "15;0"])
        #expect(dark == TerminalCapabilities(colors: .ansi16, unicode: true, background: .dark, dumb: false))
        #expect(TerminalCapabilities.detect(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"]).colors == .none)
        #expect(!TerminalCapabilities.detect(environment: [:]).dumb)
    }

    @Test func contrast_follows_wcag() {
        #expect(abs(Contrast.ratio((0, 0, 0), (255, 255, 255)) - 21) < 0.01)
        #expect(Contrast.ratio((120, 120, 120), (120, 120, 120)) == 1)
        // WCAG's own example figure: #777 on white is just under 4.5:1.
        #expect(abs(Contrast.ratio((119, 119, 119), (255, 255, 255)) - 4.48) < 0.01)
    }
}

@Suite struct ASCIITextTests {
    @Test func punctuation_and_letters_become_their_plain_forms() {
        #expect(ASCIIText.of("“Be here” — Zoë’s café.") == "\"Be here\" - Zoe's cafe.")
        // In a padded column, "..." takes the padding: the columns stay aligned.
        #expect(ASCIIText.of("long-na…   12") == "long-na... 12")
        // Elsewhere it takes the cells before it: the end of what was cut.
        #expect(ASCIIText.of("Proceed to Fire…") == "Proceed to Fi...")
        #expect(ASCIIText.of("cut… (config.toml:3)") == "c... (config.toml:3)")
        #expect(ASCIIText.of("x…") == ".." && ASCIIText.of("…") == ".")
        #expect(ASCIIText.of("plain text") == "plain text")
        #expect(ASCIIText.of("→ ↑↓ · • ✓ ✗") == "> ^v - * + x")
        // The streak's mark.
        #expect(ASCIIText.of("▲ 12-day streak") == "^ 12-day streak")
    }

    @Test func the_ring_keeps_arc_and_track_apart() {
        #expect(ASCIIText.of("⣠⣴⣶", tone: .accent(glow: 0)) == "ooo")
        #expect(ASCIIText.of("⣠⣴⣶", tone: .track) == "...")
        #expect(ASCIIText.of("⠀") == " ")
    }

    /// "…" reads as "..." in ASCII (a lone "." reads as a full stop), and
    /// the row still fits: the dots take the cells before them.
    @Test func an_ellipsis_reads_as_three_dots_and_the_row_still_fits() {
        var renderer = FrameRenderer(palette: Palette(mode: .none, unicode: false))
        let frame = Frame(size: TerminalSize(columns: 20, rows: 2),
                          lines: [Line.centered("“the underneath …", .quote, in: 20), Line([Span(String(repeating: "x", count: 19) + "…")])])
        let written = renderer.render(frame)
        #expect(written.contains("underneat..."), "\(written.debugDescription)")
        let rows = written.replacingOccurrences(of: #"\x{1B}\[[0-9;?]*[A-Za-z]"#, with: "\n", options: .regularExpression)
            .split(separator: "\n").filter { !$0.isEmpty }
        #expect(rows.allSatisfy { $0.count <= 20 }, "\(rows)")
        #expect(rows.contains { $0.hasSuffix("...") && $0.count == 20 }, "\(rows)")
    }

    @Test func a_span_cut_to_fit_a_narrow_window_stays_ascii() {
        // The cut adds "…": made ASCII after the cut, not before.
        var renderer = FrameRenderer(palette: Palette(mode: .ansi16, unicode: false))
        let frame = Frame(size: TerminalSize(columns: 15, rows: 2),
                          lines: [Line([Span("w: the whole quote", .muted)]), Line([Span("“Zoë’s café”", .quote)])])
        let written = renderer.render(frame)
        #expect(written.utf8.allSatisfy { $0 < 0x80 }, "\(written.debugDescription)")
        #expect(written.contains("w: the whole..."), "\(written.debugDescription)")
    }

    @Test func every_character_keeps_its_width_and_becomes_ascii() {
        var generator = SeededGenerator(seed: 20)
        let samples = ["日本語", "👍🏽", "e\u{301}", "\u{200B}", "Ωμέγα", "ﬁ", "─│╭╯", "█▄▁", "…", "日…", "a…b", "…  x"]
        for _ in 0..<500 {
            let scalar = Unicode.Scalar(UInt32.random(in: 0x80...0x2FFFF, using: &generator)) ?? "?"
            let text = String(scalar)
            let plain = ASCIIText.of(text)
            #expect(plain.utf8.allSatisfy { $0 < 0x80 }, "\(text.debugDescription) → \(plain.debugDescription)")
            #expect(CellWidth.of(plain) == CellWidth.of(text), "\(text.debugDescription) → \(plain.debugDescription)")
        }
        for text in samples {
            let plain = ASCIIText.of(text)
            #expect(plain.utf8.allSatisfy { $0 < 0x80 } && CellWidth.of(plain) == CellWidth.of(text), "\(text) → \(plain)")
        }
    }
}
