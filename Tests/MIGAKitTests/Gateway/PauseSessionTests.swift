import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGATestSupport

@Suite struct PauseSessionTests {
    let first = Quote.sample("first")
    let second = Quote.sample("second")

    func session(length: Int = 90) -> PauseSession {
        PauseSession(programName: "Firefox", length: length, quote: first, at: 100)
    }

    @Test func the_countdown_follows_the_clock() {
        var pause = session()
        #expect(pause.secondsLeft == 90)
        #expect(pause.clock == "1:30")
        pause.advance(to: 100.4)
        #expect(pause.secondsLeft == 90) // 89.6 left still shows as 90, counting down like a clock
        pause.advance(to: 101)
        #expect(pause.secondsLeft == 89)
        pause.advance(to: 145)
        #expect(pause.clock == "0:45")
        #expect(pause.remainingFraction == 0.5)
    }

    @Test func proceed_is_inert_until_zero() {
        var pause = session(length: 3)
        pause.advance(to: 102.99)
        #expect(!pause.canProceed)
        #expect(pause.secondsLeft == 1)
        pause.advance(to: 103)
        #expect(pause.canProceed)
        #expect(pause.secondsLeft == 0)
        pause.advance(to: 200)
        #expect(pause.secondsLeft == 0)
        #expect(pause.remainingFraction == 0)
    }

    @Test func deepening_brings_a_new_quote_and_resets_the_countdown() {
        var pause = session(length: 10)
        pause.advance(to: 110)
        #expect(pause.canProceed)
        pause.deepen(with: second, at: 112)
        #expect(pause.quote == second)
        #expect(pause.secondsLeft == 10)
        #expect(!pause.canProceed)
        #expect(pause.deepenCount == 1)
        #expect(pause.quotesShown == ["first", "second"])
        // Time before the deepen still counts as time paused.
        #expect(pause.pausedSeconds == 12)
    }

    @Test func deepening_works_any_number_of_times() {
        var pause = session()
        for round in 1...25 {
            pause.deepen(with: Quote.sample("q\(round)"), at: 100 + Double(round))
        }
        #expect(pause.deepenCount == 25)
        #expect(pause.quotesShown.count == 26)
        #expect(pause.secondsLeft == 90)
    }

    @Test func pressing_proceed_early_only_nudges_for_a_moment() {
        var pause = session()
        pause.nudge(at: 105)
        #expect(pause.isNudging)
        #expect(!pause.canProceed)
        pause.advance(to: 105 + PauseSession.nudgeSeconds + 0.1)
        #expect(!pause.isNudging)
    }

    @Test func time_stopped_is_not_counted() {
        var pause = session()
        pause.advance(to: 110)
        pause.skip(to: 500) // suspended with Ctrl-Z for 390 s
        pause.advance(to: 505)
        #expect(pause.pausedSeconds == 15)
        #expect(pause.secondsLeft == 75)
    }

    @Test func a_clock_that_goes_backwards_changes_nothing() {
        var pause = session()
        pause.advance(to: 110)
        pause.advance(to: 50)
        #expect(pause.pausedSeconds == 10)
    }

    @Test func progress_is_what_the_store_keeps() {
        var pause = session()
        pause.deepen(with: second, at: 130)
        #expect(pause.progress == PauseProgress(pausedSeconds: 30, deepenCount: 1, quotes: ["first", "second"], kind: .breathe))
    }

    @Test(arguments: [
        (Key.character("e"), PauseAction.exitToFocus), (.character("E"), .exitToFocus), (.character("q"), .exitToFocus),
        (.escape, .exitToFocus), (.control("c"), .exitToFocus),
        (.character("d"), .deepen), (.space, .deepen),
        (.character("p"), .proceed), (.enter, .proceed),
    ])
    func keys_map_to_actions(key: Key, action: PauseAction) {
        #expect(PauseAction(key: key) == action)
    }

    @Test func other_keys_do_nothing() {
        #expect(PauseAction(key: .character("x")) == nil)
        #expect(PauseAction(key: .up) == nil)
        #expect(PauseAction(key: .control("z")) == nil)
    }
}
