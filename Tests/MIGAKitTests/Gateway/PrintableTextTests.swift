import Testing
@testable import MIGACore
@testable import MIGATerminal
@testable import MIGAKit
@testable import MIGATestSupport

/// Words from files and other machines reach the terminal as text only:
/// nothing in them can act as a control sequence.
@Suite struct PrintableTextTests {
    let hostile = "calm\u{1B}]0;owned\u{07} words\u{1B}[2J\u{9B}31m\tend\u{7F}"

    @Test func control_characters_become_visible_replacements() {
        #expect(Span(hostile).text == "calm\u{FFFD}]0;owned\u{FFFD} words\u{FFFD}[2J\u{FFFD}31m end\u{FFFD}")
        #expect(Span("plain words, café, 東京 ⣿").text == "plain words, café, 東京 ⣿")
    }

    @Test func a_hostile_quote_on_the_pause_screen_writes_no_escape_of_its_own() {
        let quote = Quote(id: "evil", text: hostile, source: "a \u{1B}[31msource", tags: ["Tag\u{1B}"])
        let session = PauseSession(programName: "Fire\u{1B}[8mfox", length: 30, quote: quote, at: 0)
        let frame = PauseScreen.frame(session, size: TerminalSize(columns: 80, rows: 24), look: PauseLook(motion: false))
        var renderer = FrameRenderer(palette: Palette(mode: .none))
        let written = renderer.render(frame)
        #expect(!frame.text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        // The only escapes written are the renderer's own: no title change, no bell, no hidden text.
        #expect(!written.contains("\u{1B}]0;owned") && !written.contains("\u{07}") && !written.contains("\u{1B}[8m"))
        #expect(written.contains("\u{FFFD}]0;owned\u{FFFD}"))
    }

    @Test func command_line_tables_are_cleaned_too() {
        let out = Palette(mode: .none).render([Line([Span("fire\u{1B}[2Jfox"), Span(" \u{9B}6n")])])
        #expect(out == "fire\u{FFFD}[2Jfox \u{FFFD}6n\n")
    }

    @Test func an_intention_takes_no_control_characters() {
        var session = PauseSession(programName: "X", length: 1, quote: Quote(id: "q", text: "Q", tags: ["T"]), at: 0)
        session.asksIntention = true
        session.advance(to: 2)
        session.beginIntention(at: 2)
        for character in "a\u{9B}b\u{1B}c\u{85}d" { session.typeIntention(character) }
        #expect(session.intention == "abcd")
    }
}
