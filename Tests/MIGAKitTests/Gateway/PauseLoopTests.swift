import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGATestSupport

@Suite struct PauseLoopTests {
    let time = ManualTime()
    let quotes = (1...5).map { Quote.sample("q\($0)", "Quote number \($0).") }

    func loop(_ script: [ScriptedTerminal.Step], length: Int = 5, motion: Bool = false,
              onDeepen: @escaping (PauseSession) -> Void = { _ in }) -> (PauseLoop, ScriptedTerminal) {
        let terminal = ScriptedTerminal(time: time, script: script)
        let loop = PauseLoop(
            session: PauseSession(programName: "Fake", length: length, quote: quotes[0], at: time.monotonic()),
            terminal: terminal, time: time, look: PauseLook(motion: motion, showTrack: true),
            palette: Palette(mode: .none), world: ScriptedWorld(quotes: quotes, onDeepen: onDeepen))
        return (loop, terminal)
    }

    @Test func exit_to_focus_ends_the_pause_at_once() {
        let (pause, terminal) = loop([.wait(1), ScriptedTerminal.keys("e")])
        #expect(pause.run() == .exitToFocus)
        #expect(terminal.enterCount == 1)
        #expect(pause.session.pausedSeconds == 1)
        #expect(pause.lastFrame?.text.contains("Quote number 1.") == true)
    }

    @Test func proceed_before_zero_is_ignored_and_after_zero_proceeds() {
        let (pause, _) = loop([.wait(2), ScriptedTerminal.keys("p"), .wait(3.5), ScriptedTerminal.keys("p")])
        #expect(pause.run() == .proceed)
        #expect(pause.session.pausedSeconds == 5.5)
    }

    @Test func proceed_early_says_so_gently() {
        let (pause, _) = loop([.wait(1), ScriptedTerminal.keys("p"), .wait(0.1), .events([.signal(15)])])
        #expect(pause.run() == .signal(15))
        #expect(pause.lastFrame?.text.contains("there is no hurry") == true)
    }

    @Test func deepen_brings_the_next_quote_and_starts_the_count_again() {
        var deepened: [Int] = []
        let (pause, _) = loop([.wait(4), .events([.key(.space)]), .wait(4), ScriptedTerminal.keys("p"),
                               .wait(1.5), ScriptedTerminal.keys("p")],
                              onDeepen: { deepened.append($0.deepenCount) })
        #expect(pause.run() == .proceed)
        #expect(deepened == [1])
        #expect(pause.session.quotesShown == ["q1", "q2"])
        #expect(pause.session.pausedSeconds == 9.5)
        #expect(pause.lastFrame?.text.contains("Quote number 2.") == true)
    }

    @Test func ctrl_z_suspends_and_the_time_away_does_not_count() {
        let (pause, terminal) = loop([.wait(1), .events([.key(.control("z"))]), .wait(1), ScriptedTerminal.keys("e")])
        terminal.stoppedFor = 300
        #expect(pause.run() == .exitToFocus)
        #expect(terminal.suspendCount == 1)
        #expect(pause.session.pausedSeconds == 2)
    }

    @Test func a_stop_from_outside_is_not_counted_either() {
        let (pause, _) = loop([.wait(1), .events([.suspendRequested]), .wait(1), ScriptedTerminal.keys("e")])
        #expect(pause.run() == .exitToFocus)
        #expect(pause.session.pausedSeconds == 2)
    }

    @Test func resuming_after_sigstop_skips_the_gap() {
        let (pause, _) = loop([.wait(1), .frozen(600), .wait(0.5), ScriptedTerminal.keys("e")])
        #expect(pause.run() == .exitToFocus)
        #expect(pause.session.pausedSeconds == 1.5)
    }

    @Test func resizing_redraws_the_whole_screen() {
        let (pause, terminal) = loop([.wait(0.5), .events([.resized]), ScriptedTerminal.keys("e")])
        terminal.size = TerminalSize(columns: 80, rows: 24)
        _ = pause.run()
        #expect(terminal.written.components(separatedBy: "\u{1B}[2J").count - 1 == 2)
    }

    @Test func signals_and_hangups_end_the_pause() {
        #expect(loop([.events([.signal(15)])]).0.run() == .signal(15))
        #expect(loop([.events([.signal(1)])]).0.run() == .signal(1))
        #expect(loop([.events([.hangup])]).0.run() == .hangup)
    }

    @Test func a_still_screen_is_drawn_only_when_the_seconds_change() {
        let (pause, terminal) = loop([.wait(3), ScriptedTerminal.keys("e")], length: 10, motion: false)
        _ = pause.run()
        // The first frame and one per second; unchanged rows are never rewritten.
        let frames = terminal.written.components(separatedBy: "\u{1B}[?2026h").count - 1
        #expect(frames >= 3 && frames <= 5)
    }

    @Test func the_celebration_shows_its_words_and_ends() {
        let (pause, _) = loop([.wait(5)])
        pause.celebrate(headline: "You chose yourself.", detail: "Fake can wait")
        #expect(pause.lastFrame?.text.contains("You chose yourself.") == true)
    }
}
