import Testing
@testable import MIGACore
@testable import MIGATerminal
@testable import MIGATestSupport

@Suite struct CellWidthTests {
    @Test(arguments: [
        ("hello", 5), ("", 0), ("café", 4), ("cafe\u{301}", 4), // a combining accent takes no cell
        ("日本語", 6), ("한국어", 6), ("ｆｕｌｌ", 8), ("🌿", 2), ("☀️", 2), ("👩‍👧", 2), ("🇯🇵", 2),
        ("—", 1), ("“quoted”", 8), ("⣿⣿", 2),
        // Printable ASCII a cell a byte; its controls none; an ASCII base that
        // begins an emoji (a keycap) the emoji's two.
        ("~ ok!", 5), ("a\u{7F}b", 2), ("tab\there", 7), ("\u{1B}[1m", 3), ("#\u{FE0F}\u{20E3}", 2), ("1\u{FE0F}\u{20E3}2", 3),
        // As glibc's wcwidth and so tmux draw them: a spacing vowel sign in a cell of
        // its own, a conjunct in two, a joiner and a Hangul jamo vowel in none.
        ("का", 2), ("क्ष", 2), ("কি", 2), ("தமிழ்", 4), ("ไทย น้ำ", 6), ("من می\u{200C}خواهم", 10),
        ("\u{1112}\u{1161}\u{11AB}", 2), ("मैं अपनी क्\u{200D}षमता पर भरोसा करता हूँ।", 29),
    ])
    func measures_cells_not_characters(text: String, cells: Int) {
        #expect(CellWidth.of(text) == cells)
    }
}

@Suite struct TextWrapTests {
    @Test func wraps_at_spaces_within_the_width() {
        let lines = TextWrap.lines("The quick brown fox jumps over the lazy dog", width: 12)
        #expect(lines == ["The quick", "brown fox", "jumps over", "the lazy dog"])
        #expect(lines.allSatisfy { CellWidth.of($0) <= 12 })
    }

    @Test func wide_characters_wrap_by_their_cells() {
        let lines = TextWrap.lines("静かな 朝の 光が 窓に 落ちる", width: 10)
        #expect(lines.allSatisfy { CellWidth.of($0) <= 10 })
        #expect(lines.joined(separator: " ") == "静かな 朝の 光が 窓に 落ちる")
    }

    @Test func a_word_longer_than_the_line_is_broken() {
        let lines = TextWrap.lines("supercalifragilistic", width: 6)
        #expect(lines == ["superc", "alifra", "gilist", "ic"])
        let emoji = TextWrap.lines("🌿🌿🌿🌿🌿", width: 5)
        #expect(emoji.allSatisfy { CellWidth.of($0) <= 5 })
        #expect(emoji.joined() == "🌿🌿🌿🌿🌿")
    }

    @Test func truncation_ends_with_an_ellipsis_within_the_width() {
        #expect(TextWrap.truncate("Proceed to Firefox", width: 12) == "Proceed to …")
        #expect(TextWrap.truncate("short", width: 12) == "short")
        #expect(CellWidth.of(TextWrap.truncate("日本語のテキスト", width: 7)) <= 7)
    }

    /// A config problem cut to the rows it has keeps where it is: its cause
    /// gives way first, and the path's start (to the file's name, if that
    /// fits) only when the place alone leaves no room for the cut's "…".
    @Test func a_paragraph_out_of_rows_keeps_its_place() {
        let problem = "⚠ `pause` must be a whole number of seconds from 1 to 3600, not \"ten\"; using the default "
            + "(/tmp/review/home/config/miga/config.toml:12:5)"
        #expect(TextWrap.fitted([problem], width: 76, lines: 1)
            == ["⚠ `pause` must be a whole n… (/tmp/review/home/config/miga/config.toml:12:5)"])
        #expect(TextWrap.fitted([problem], width: 40, lines: 1) == ["⚠ `pause` must be … (…/config.toml:12:5)"])
        #expect(TextWrap.fitted([problem], width: 40, lines: 2)
            == ["⚠ `pause` must be a whole number of", "seconds from 1 to … (…/config.toml:12:5)"])
        #expect(TextWrap.fitted([problem], width: 21, lines: 1) == ["… (…config.toml:12:5)"])
        // Rows enough for the place as it wraps: kept whole, as before.
        #expect(TextWrap.fitted([problem], width: 40, lines: 3)
            == ["⚠ `pause` must be a whole number of sec…", "(/tmp/review/home/config/miga/config.tom", "l:12:5)"])
        for width in 21...90 {
            for rows in 1...3 {
                let lines = TextWrap.fitted([problem], width: width, lines: rows)
                #expect(lines.count <= rows && lines.allSatisfy { CellWidth.of($0) <= width }, "\(width)x\(rows): \(lines)")
                #expect(lines.joined().hasSuffix("config.toml:12:5)"), "\(width)x\(rows): \(lines)")
            }
        }
    }
}

@Suite struct KeyDecoderTests {
    let decoder = KeyDecoder()

    @Test func letters_controls_and_escape() {
        #expect(decoder.decode(Array("dp".utf8)) == [.character("d"), .character("p")])
        #expect(decoder.decode([0x03, 0x1A, 0x0D, 0x20]) == [.control("c"), .control("z"), .enter, .space])
        #expect(decoder.decode([0x1B]) == [.escape])
    }

    @Test func escape_sequences_are_not_the_escape_key() {
        #expect(decoder.decode(Array("\u{1B}[A\u{1B}[D".utf8)) == [.up, .left])
        #expect(decoder.decode(Array("\u{1B}OB".utf8)) == [.down])
        #expect(decoder.decode(Array("\u{1B}[I\u{1B}[O".utf8)) == [.focusIn, .focusOut])
        #expect(decoder.decode(Array("\u{1B}[1;5C".utf8)) == [.right])
        #expect(decoder.decode(Array("\u{1B}[300~".utf8)) == [.unknown])
    }

    @Test func page_home_and_end_in_each_terminals_spelling() {
        #expect(decoder.decode(Array("\u{1B}[5~\u{1B}[6~".utf8)) == [.pageUp, .pageDown])
        for home in ["\u{1B}[H", "\u{1B}OH", "\u{1B}[1~", "\u{1B}[7~"] {
            #expect(decoder.decode(Array(home.utf8)) == [.home], "\(home.debugDescription)")
        }
        for end in ["\u{1B}[F", "\u{1B}OF", "\u{1B}[4~", "\u{1B}[8~"] {
            #expect(decoder.decode(Array(end.utf8)) == [.end], "\(end.debugDescription)")
        }
    }

    @Test func non_ascii_letters_arrive_whole() {
        #expect(decoder.decode(Array("é".utf8)) == [.character("é")])
    }
}

@Suite struct RenderingTests {
    let size = TerminalSize(columns: 20, rows: 3)

    func frame(_ texts: [String]) -> Frame {
        Frame(size: size, lines: texts.map { Line([Span($0, .body)]) })
    }

    @Test func only_changed_rows_are_rewritten() {
        var renderer = FrameRenderer(palette: Palette(mode: .none))
        let first = renderer.render(frame(["one", "two", "three"]))
        #expect(first.contains("\u{1B}[2J"))
        let second = renderer.render(frame(["one", "TWO", "three"]))
        #expect(!second.contains("\u{1B}[2J"))
        #expect(second.contains("\u{1B}[2;1H"))
        #expect(!second.contains("\u{1B}[1;1H"))
        #expect(!second.contains("\u{1B}[3;1H"))
        renderer.invalidate()
        #expect(renderer.render(frame(["one", "TWO", "three"])).contains("\u{1B}[2J"))
    }

    @Test func no_color_means_no_colour_sequences() {
        var renderer = FrameRenderer(palette: Palette(mode: .none))
        let lines = [Line([Span("quote", .quote), Span("ring", .accent(glow: 2)), Span("exit", .primary), Span("warn", .notice)])]
        let output = renderer.render(Frame(size: size, lines: lines))
        // Every SGR sequence may reset, bold or dim, and nothing else.
        let sgr = output.split(separator: "\u{1B}[").compactMap { part -> Substring? in
            guard let end = part.firstIndex(where: { $0.isLetter }), part[end] == "m" else { return nil }
            return part[..<end]
        }
        #expect(!sgr.isEmpty)
        #expect(sgr.allSatisfy { $0.split(separator: ";").allSatisfy { ["0", "1", "2"].contains($0) } }, "\(sgr)")
    }

    @Test func true_colour_paints_the_light_sheet_and_the_teal_accent() {
        var renderer = FrameRenderer(palette: Palette(mode: .trueColor))
        let output = renderer.render(Frame(size: size, lines: [Line([Span("ring", .accent(glow: 0))])]))
        #expect(output.contains("\u{1B}[38;2;0;122;132m")) // #00A9B5 deepened to hold 3:1 and more on the sheet
        #expect(output.contains("\u{1B}[48;2;246;250;250m"))
    }

    @Test func rows_are_padded_to_the_width_and_never_beyond() {
        var renderer = FrameRenderer(palette: Palette(mode: .none))
        let output = renderer.render(Frame(size: TerminalSize(columns: 8, rows: 1), lines: [Line([Span("much too long for it")])]))
        #expect(output.contains("much to…"))
        #expect(!output.contains("long"))
    }

    @Test(arguments: [
        (["NO_COLOR": "1", "COLORTERM": "truecolor"], ColorMode.none),
        (["NO_COLOR": "", "COLORTERM": "truecolor"], .trueColor),
        (["TERM": "dumb"], .none),
        (["TERM": "xterm-256color"], .ansi256),
        (["TERM": "xterm-256color", "COLORTERM": "24bit"], .trueColor),
        (["TERM": "screen"], .ansi16),
    ])
    func colour_mode_follows_the_environment(environment: [String: String], mode: ColorMode) {
        #expect(ColorMode.detect(environment: environment) == mode)
    }
}
