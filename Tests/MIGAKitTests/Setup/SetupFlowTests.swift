import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAConfig
@testable import MIGADesktop

@Suite struct SetupFlowTests {
    static let programs = [
        SetupProgram(name: "Firefox", command: "firefox", glyph: "◎", installed: true),
        SetupProgram(name: "Discord", command: "discord", glyph: "✉", installed: true),
        SetupProgram(name: "Chromium", command: "chromium", glyph: "◎", installed: false),
    ]
    static let tags = [(tag: "Stoicism", count: 19), (tag: "Nature", count: 26), (tag: "Zen", count: 20)]
    static let hook = HookOffer(shownFile: "~/.zshrc", file: "/home/u/.zshrc", line: "eval \"$(miga init zsh)\"", present: false)

    func flow(firstRun: Bool = true, hook: HookOffer? = SetupFlowTests.hook) -> SetupFlow {
        SetupFlow(firstRun: firstRun, programs: Self.programs, tags: Self.tags, hook: hook,
                  check: { $0 == "newsboat" ? nil : "\($0) is not installed here." })
    }

    @discardableResult
    func press(_ keys: [Key], on flow: inout SetupFlow) -> SetupFlow.Result? {
        var result: SetupFlow.Result?
        for key in keys { result = flow.handle(key) ?? result }
        return result
    }

    @Test func the_first_run_begins_with_twelve_pages() {
        var setup = flow()
        #expect(setup.step == .page(0))
        press([.left], on: &setup)
        #expect(setup.step == .page(0))
        press([.right, .enter, .space], on: &setup)
        #expect(setup.step == .page(3))
        press([.left], on: &setup)
        #expect(setup.step == .page(2))
        press(Array(repeating: .enter, count: 9), on: &setup)
        #expect(setup.step == .page(11))
        press([.enter], on: &setup)
        #expect(setup.step == .programs)
    }

    @Test func the_first_run_cannot_be_skipped_but_ctrl_c_always_leaves() {
        var setup = flow()
        #expect(setup.handle(.escape) == nil)
        #expect(setup.handle(.character("q")) == nil)
        #expect(setup.message?.contains("Ctrl-C") == true)
        #expect(setup.handle(.control("c")) == .left)
        var later = flow(firstRun: false)
        #expect(later.step == .programs)
        #expect(later.handle(.escape) == .left)
    }

    @Test func continue_needs_one_installed_program() {
        var setup = flow(firstRun: false)
        press([.enter], on: &setup)
        #expect(setup.step == .programs)
        #expect(setup.message == "Choose at least one program with Space.")
        press([.down, .down, .space], on: &setup)
        #expect(setup.programs[2].selected == false)
        #expect(setup.message == "Chromium is not installed here.")
        press([.up, .up, .space, .enter], on: &setup)
        #expect(setup.step == .interests)
    }

    @Test func another_command_is_checked_then_added_and_chosen() {
        var setup = flow(firstRun: false)
        press([.down, .down, .down, .enter], on: &setup)
        #expect(setup.field == "")
        press(Array("steam").map(Key.character) + [.enter], on: &setup)
        #expect(setup.message == "steam is not installed here.")
        #expect(setup.field == "steam")
        press(Array(repeating: .backspace, count: 5) + Array("newsboat").map(Key.character) + [.enter], on: &setup)
        #expect(setup.field == nil)
        #expect(setup.message == nil, "the refusal of steam is answered by newsboat")
        #expect(setup.programs.last == SetupProgram(name: "Newsboat", command: "newsboat", glyph: "≡", installed: true, selected: true))
        press([.down, .enter, .escape], on: &setup)
        #expect(setup.field == nil)
    }

    @Test func continue_is_reached_with_the_arrows_like_every_other_line() {
        var setup = flow(firstRun: false)
        press([.space], on: &setup)
        // Past the three programs and "another command": Continue, where Down stops.
        press(Array(repeating: .down, count: 6), on: &setup)
        #expect(setup.cursor == setup.continueRow)
        #expect(setup.frame(size: TerminalSize(columns: 80, rows: 24)).text.contains("›   Continue with 1 program"))
        press([.space], on: &setup)
        #expect(setup.field == nil && setup.step == .programs, "Space on Continue opens nothing")
        press([.enter], on: &setup)
        #expect(setup.step == .interests)
    }

    @Test func the_answers_are_what_was_chosen() {
        var setup = flow(firstRun: false)
        press([.space, .down, .space, .enter], on: &setup)            // Firefox and Discord
        press([.space, .down, .down, .space, .enter], on: &setup)     // Stoicism and Zen
        press([.left, .left, .left, .left, .left, .right, .right, .enter], on: &setup) // 20 s, then 45 s
        press([.character("n")], on: &setup)
        #expect(setup.step == .ready)
        let result = press([.enter], on: &setup)
        #expect(result == .finished(SetupAnswers(programs: [Self.programs[0], Self.programs[1]].map {
            var chosen = $0
            chosen.selected = true
            return chosen
        }, interests: ["Stoicism", "Zen"], pause: 45, addHook: false)))
    }

    @Test func the_pause_goes_as_far_as_the_command_line_allows_with_a_note_when_very_short() {
        var setup = flow(firstRun: false)
        press([.space, .enter, .enter], on: &setup)
        press(Array(repeating: .right, count: 60), on: &setup)
        #expect(setup.pause == Config.pauseRange.upperBound)
        press(Array(repeating: .left, count: 60), on: &setup)
        #expect(setup.pause == Config.pauseRange.lowerBound)
        let size = TerminalSize(columns: 80, rows: 24)
        #expect(setup.frame(size: size).text.contains("ten seconds or more"))
        press([.right, .right, .right, .right], on: &setup)
        #expect(setup.pause == 10)
        #expect(!setup.frame(size: size).text.contains("ten seconds or more"))
        // A length set in the config between the rungs moves to the nearest one.
        #expect(SetupFlow.step(100, longer: true) == 105)
        #expect(SetupFlow.step(100, longer: false) == 90)
        #expect(SetupFlow.step(7, longer: false) == 5)
    }

    @Test func backspace_goes_back_a_step_and_a_present_hook_is_not_offered_again() {
        let present = HookOffer(shownFile: "~/.zshrc", file: "/f", line: "l", present: true)
        var setup = flow(firstRun: false, hook: present)
        press([.space, .enter, .enter, .enter], on: &setup)
        #expect(setup.step == .hook)
        press([.character("y"), .enter], on: &setup)
        #expect(setup.answers.addHook == false)
        press([.backspace, .backspace, .backspace], on: &setup)
        #expect(setup.step == .interests)
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func snapshots_of_a_page_and_the_program_list(columns: Int, rows: Int) throws {
        let size = TerminalSize(columns: columns, rows: rows)
        var setup = flow()
        press([.right, .right, .right], on: &setup)
        try assertSnapshot(setup.frame(size: size).text, named: "setup-page-\(columns)x\(rows)")
        var list = flow(firstRun: false)
        press([.space, .down], on: &list)
        try assertSnapshot(list.frame(size: size).text, named: "setup-programs-\(columns)x\(rows)")
        for frame in [setup.frame(size: size), list.frame(size: size)] {
            #expect(frame.lines.allSatisfy { $0.width <= columns })
        }
    }

    @Test func every_step_fits_small_and_large_terminals() {
        for size in [TerminalSize(columns: 60, rows: 20), TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 200, rows: 60)] {
            var setup = flow()
            var frames = [setup.frame(size: size)]
            for key in Array(repeating: Key.enter, count: 12) + [.space, .enter, .enter, .enter, .enter] {
                _ = setup.handle(key)
                frames.append(setup.frame(size: size))
            }
            #expect(setup.step == .ready)
            #expect(frames.allSatisfy { frame in frame.lines.allSatisfy { $0.width <= size.columns } })
        }
    }
}
