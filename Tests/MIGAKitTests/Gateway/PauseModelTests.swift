import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGATestSupport

/// Every rule of the pause with plain numbers: an input and a time go in,
/// commands come out. No terminal, no clock, no store.
@Suite struct PauseModelTests {
    let first = Quote.sample("q1", "Quote number 1.")

    func model(length: Int = 5, holds: Bool = false, yields: Bool = false, asks: Bool = false) -> PauseModel {
        var session = PauseSession(programName: "Fake", length: length, quote: first, at: 0)
        session.asksIntention = asks
        session.holdsWhenUnfocused = holds
        return PauseModel(session: session, look: PauseLook(motion: false, showTrack: true), checksYield: yields)
    }

    func key(_ character: Character) -> ScreenInput { .key(.character(character)) }

    @Test(arguments: [Key.character("e"), .character("q"), .escape, .control("c")])
    func exit_to_focus_is_one_key_away_at_any_moment(key: Key) {
        var pause = model()
        #expect(pause.update(.key(key), at: 0.1) == [.finish(.exitToFocus)])
    }

    @Test func proceed_waits_for_zero_and_says_so_gently_before() {
        var pause = model(length: 5)
        #expect(pause.update(key("p"), at: 2).isEmpty)
        #expect(pause.session.isNudging)
        #expect(pause.update(.key(.enter), at: 5).count == 1)
        var late = model(length: 5)
        #expect(late.update(key("p"), at: 5) == [.finish(.proceed)])
    }

    @Test func deepen_asks_the_world_for_the_next_quote_at_its_moment() {
        var pause = model()
        #expect(pause.update(key("d"), at: 3) == [.perform(.deepen(at: 3))])
        #expect(pause.update(.key(.space), at: 4) == [.perform(.deepen(at: 4))])
    }

    @Test func a_stop_and_a_resize_redraw_and_the_time_away_does_not_count() {
        var pause = model(length: 10)
        #expect(pause.update(.key(.control("z")), at: 1) == [.suspend])
        #expect(pause.update(.resumed, at: 301) == [.redraw])
        _ = pause.update(nil, at: 302)
        #expect(pause.session.pausedSeconds == 2)
        #expect(pause.update(.resized, at: 302) == [.redraw])
        #expect(pause.update(.key(.control("l")), at: 302) == [.redraw])
    }

    @Test func looking_away_holds_the_countdown_only_when_asked() {
        var holding = model(length: 10, holds: true)
        _ = holding.update(.key(.focusOut), at: 1)
        _ = holding.update(nil, at: 6)
        #expect(holding.session.secondsLeft == 9)
        _ = holding.update(.key(.focusIn), at: 6)
        _ = holding.update(nil, at: 8)
        #expect(holding.session.secondsLeft == 7)
        var plain = model(length: 10)
        _ = plain.update(.key(.focusOut), at: 1)
        _ = plain.update(nil, at: 6)
        #expect(plain.session.secondsLeft == 4)
    }

    @Test func the_question_of_giving_way_comes_about_once_a_second() {
        var pause = model(yields: true)
        #expect(pause.update(nil, at: 0) == [.perform(.checkYield)])
        #expect(pause.update(nil, at: 0.5).isEmpty)
        #expect(pause.update(nil, at: 1.0) == [.perform(.checkYield)])
        var quiet = model(yields: false)
        #expect(quiet.update(nil, at: 5).isEmpty)
    }

    @Test func the_intention_is_typed_after_zero_and_enter_proceeds_with_words() {
        var pause = model(length: 1, asks: true)
        #expect(pause.update(key("p"), at: 1).isEmpty)
        #expect(pause.session.isAskingIntention)
        #expect(pause.update(.key(.enter), at: 1.1).isEmpty, "no words yet")
        for character in "chat" { _ = pause.update(key(character), at: 1.2) }
        #expect(pause.update(key("e"), at: 1.3).isEmpty, "e types, it does not exit")
        #expect(pause.update(.key(.escape), at: 1.4).isEmpty)
        #expect(!pause.session.isAskingIntention, "Esc goes back to the pause")
        _ = pause.update(key("p"), at: 1.5)
        _ = pause.update(key("x"), at: 1.6)
        #expect(pause.update(.key(.enter), at: 1.7) == [.finish(.proceed)])
        var leaving = model(length: 1, asks: true)
        _ = leaving.update(key("p"), at: 1)
        #expect(leaving.update(.key(.control("c")), at: 1.1) == [.finish(.exitToFocus)])
    }

    @Test func a_still_screen_wakes_when_the_seconds_change_and_motion_ten_times_a_second() {
        let still = model(length: 10)
        #expect(still.wait(at: 0) == 0.02, "at a whole second: the shortest wait")
        var running = model(length: 10)
        _ = running.update(nil, at: 0.3)
        #expect(abs(running.wait(at: 0.3) - 0.705) < 0.001)
        var moving = PauseModel(session: PauseSession(programName: "Fake", length: 10, quote: first, at: 0),
                                look: PauseLook(motion: true, showTrack: true))
        _ = moving.update(nil, at: 1)
        #expect(moving.wait(at: 1) == 0.1)
    }
}
