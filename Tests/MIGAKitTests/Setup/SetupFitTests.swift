import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGADesktop

/// Setup in small and large windows: what does not fit scrolls and says so.
@Suite struct SetupFitTests {
    static let sizes = [TerminalSize(columns: 40, rows: 12), TerminalSize(columns: 60, rows: 20), TerminalSize(columns: 80, rows: 20),
                        TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 200, rows: 60)]
    /// The whole catalog, as setup offers it on a machine that has it all.
    static let catalog = ProgramCatalog.programs.map {
        SetupProgram(name: $0.name, command: $0.commands.last ?? "", glyph: $0.glyph, installed: true)
    }
    static let manyTags = (1...20).map { (tag: "Tag number \($0)", count: $0) }

    func flow(firstRun: Bool = true, programs: [SetupProgram] = catalog,
              tags: [(tag: String, count: Int)] = SetupFlowTests.tags) -> SetupFlow {
        SetupFlow(firstRun: firstRun, programs: programs, tags: tags, hook: SetupFlowTests.hook, check: { _ in nil })
    }

    /// As the screen loop draws: told the size, then drawn.
    func frame(_ setup: inout SetupFlow, _ size: TerminalSize) -> Frame {
        setup.resize(size)
        return setup.frame(size: size)
    }

    func press(_ key: Key, on setup: inout SetupFlow, _ size: TerminalSize) {
        setup.resize(size)
        _ = setup.handle(key)
    }

    /// The number in a cue line ("↓ 4 more"), nil when there is none.
    func cue(_ arrow: String, in frame: Frame) -> Int? {
        for line in frame.lines {
            let words = line.text.split(separator: " ")
            if words.count == 3, words[0] == arrow, words[2] == "more", let count = Int(words[1]) { return count }
        }
        return nil
    }

    @Test(arguments: sizes)
    func a_long_program_list_says_what_is_hidden_and_keeps_the_cursor_in_view(size: TerminalSize) {
        var setup = flow(firstRun: false)
        let entries = Self.catalog.count + 3 // and "another command", the sites' heading and "another site"
        for row in 0...(entries) {
            let shown = frame(&setup, size)
            let visible = Self.catalog.filter { program in shown.lines.contains { $0.text.contains(" \(program.name) ") } }.count
                + (shown.text.contains("+ another command…") ? 1 : 0) + (shown.text.contains("+ another site…") ? 1 : 0)
                + (shown.lines.contains { $0.text.trimmingCharacters(in: .whitespaces) == "Sites" } ? 1 : 0)
            let hidden = (cue("↑", in: shown) ?? 0) + (cue("↓", in: shown) ?? 0)
            #expect(visible + hidden == entries, "row \(row) at \(size): \(visible) shown, \(hidden) said hidden\n\(shown.text)")
            if row < Self.catalog.count {
                let pointed = shown.lines.first { $0.text.contains("› ") }?.text ?? ""
                #expect(pointed.contains(Self.catalog[row].name), "row \(row) at \(size) is out of view\n\(shown.text)")
            }
            #expect(shown.text.contains("Continue"), "\(size)\n\(shown.text)")
            press(.down, on: &setup, size)
        }
    }

    @Test func twelve_of_sixteen_at_eighty_by_twenty_four_say_the_rest() {
        var setup = flow(firstRun: false)
        let shown = frame(&setup, TerminalSize(columns: 80, rows: 24))
        #expect(cue("↓", in: shown) != nil, "\(shown.text)")
        #expect(cue("↑", in: shown) == nil)
    }

    @Test(arguments: sizes)
    func a_long_interest_list_says_what_is_hidden(size: TerminalSize) {
        var setup = flow(firstRun: false, tags: Self.manyTags)
        press(.space, on: &setup, size)
        press(.enter, on: &setup, size)
        #expect(setup.step == .interests)
        for row in 0..<Self.manyTags.count {
            let shown = frame(&setup, size)
            let visible = Self.manyTags.filter { entry in shown.lines.contains { $0.text.contains(entry.tag + " ") } }.count
            let hidden = (cue("↑", in: shown) ?? 0) + (cue("↓", in: shown) ?? 0)
            #expect(visible + hidden == Self.manyTags.count, "row \(row) at \(size)\n\(shown.text)")
            let pointed = shown.lines.first { $0.text.contains("› ") }?.text ?? ""
            #expect(pointed.contains(Self.manyTags[row].tag + " "), "row \(row) at \(size)\n\(shown.text)")
            press(.down, on: &setup, size)
        }
    }

    /// Every word of every page can be read, scrolling with ↓; a page cut
    /// short says that more follows.
    @Test(arguments: sizes)
    func every_page_can_be_read_to_its_end(size: TerminalSize) {
        for (index, page) in Onboarding.pages.enumerated() {
            var setup = flow()
            for _ in 0..<index { press(.right, on: &setup, size) }
            #expect(setup.step == .page(index))
            let words = page.paragraphs.joined(separator: " ").replacingOccurrences(of: "`", with: "").split(separator: " ").map(String.init)
            var seen: Set<String> = []
            var previous: Frame?
            for _ in 0..<40 {
                let shown = frame(&setup, size)
                if shown == previous { break }
                previous = shown
                let onScreen = Set(shown.text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
                seen.formUnion(onScreen)
                if !onScreen.contains(words.last ?? "") {
                    #expect(cue("↓", in: shown) != nil, "page \(index + 1) at \(size) is cut without a cue\n\(shown.text)")
                }
                press(.down, on: &setup, size)
            }
            let missing = words.filter { !seen.contains($0) }
            #expect(missing.isEmpty, "page \(index + 1) at \(size) never shows \(missing)")
            #expect(setup.step == .page(index))
        }
    }

    @Test func enter_reads_on_before_it_turns_the_page() {
        let size = TerminalSize(columns: 40, rows: 12)
        var setup = flow()
        for _ in 0..<7 { press(.right, on: &setup, size) }
        #expect(setup.step == .page(7))
        var presses = 0
        while setup.step == .page(7) && presses < 20 {
            press(.enter, on: &setup, size)
            presses += 1
        }
        #expect(presses > 1, "the long page turned before its end was shown")
        #expect(setup.step == .page(8))
    }

    @Test(arguments: sizes)
    func every_step_fits_the_window(size: TerminalSize) {
        var setup = flow()
        var frames = [frame(&setup, size)]
        let keys: [Key] = Array(repeating: .right, count: 12) + [.space, .enter, .space, .enter, .enter, .enter]
        for key in keys {
            press(key, on: &setup, size)
            frames.append(frame(&setup, size))
        }
        #expect(setup.step == .ready)
        for frame in frames {
            let wide = frame.lines.filter { $0.width > size.columns }.map(\.text)
            #expect(wide.isEmpty, "wider than \(size): \(wide)\n\(frame.text)")
            #expect(frame.lines.count == size.rows)
        }
    }

    @Test(arguments: sizes)
    func the_keys_shorten_before_they_go(size: TerminalSize) {
        var setup = flow()
        let hints = frame(&setup, size).lines.last { !$0.text.isEmpty }?.text ?? ""
        #expect(hints.contains("Ctrl-C"), "\(size): \(hints)")
        #expect(!hints.contains("…"), "\(size): \(hints)")
    }
}
