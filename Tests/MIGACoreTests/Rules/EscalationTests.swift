import Foundation
import Testing
@testable import MIGACore

@Suite struct EscalationTests {
    let ladder = Escalation() // step 30, up to 300

    // MARK: The ladder

    @Test func the_defaults_are_thirty_seconds_a_step_up_to_five_minutes() {
        #expect(ladder == Escalation(step: 30, maximum: 300))
    }

    @Test(arguments: [(0, 10), (1, 40), (2, 70), (3, 100), (9, 280), (10, 300), (11, 300), (50, 300)])
    func each_earlier_attempt_adds_a_step_up_to_the_maximum(earlier: Int, pause: Int) {
        #expect(ladder.pause(base: 10, earlierAttempts: earlier) == pause)
    }

    @Test func the_step_and_maximum_are_the_programs_own() {
        let custom = Escalation(step: 20, maximum: 120)
        #expect(custom.pause(base: 60, earlierAttempts: 1) == 80)
        #expect(custom.pause(base: 60, earlierAttempts: 3) == 120)
        #expect(custom.pause(base: 60, earlierAttempts: 4) == 120)
    }

    @Test(arguments: [300, 301, 600])
    func a_base_pause_already_at_or_above_the_maximum_is_kept(base: Int) {
        #expect(ladder.pause(base: base, earlierAttempts: 0) == base)
        #expect(ladder.pause(base: base, earlierAttempts: 1) == base)
        #expect(ladder.pause(base: base, earlierAttempts: 7) == base)
    }

    @Test func a_huge_count_gives_the_maximum_instead_of_overflowing() {
        #expect(ladder.pause(base: 10, earlierAttempts: .max) == 300)
        #expect(Escalation(step: 3600, maximum: 3600).pause(base: 1, earlierAttempts: .max / 2) == 3600)
    }

    @Test func a_count_whose_steps_just_fit_but_overflow_with_the_base_still_gives_the_maximum() {
        // step × count does not overflow (1 × Int.max), but base + that would.
        #expect(Escalation(step: 1, maximum: 300).pause(base: 10, earlierAttempts: .max) == 300)
    }

    // MARK: How often, how recently

    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func the_first_attempt_of_the_day_says_so() {
        #expect(ImpulseWords.attempts(LaunchHistory(), now: now) == "first time today")
    }

    @Test func a_later_attempt_within_the_hour_says_how_long_ago_the_last_was() {
        let history = LaunchHistory(earlierToday: 1, lastAttempt: now - 12 * 60)
        #expect(ImpulseWords.attempts(history, now: now) == "2nd time today · the last was 12 minutes ago")
    }

    @Test(arguments: [(0.0, "moments ago"), (59, "moments ago"), (60, "a minute ago"), (119, "a minute ago"),
                      (120, "2 minutes ago"), (3599, "59 minutes ago")] as [(Double, String)])
    func how_long_ago_is_said_in_whole_minutes(seconds: Double, words: String) {
        let history = LaunchHistory(earlierToday: 2, lastAttempt: now - seconds)
        #expect(ImpulseWords.attempts(history, now: now) == "3rd time today · the last was \(words)")
    }

    @Test(arguments: [3600, 3601, 5 * 3600] as [Double])
    func a_last_attempt_an_hour_or_more_ago_is_not_mentioned(seconds: Double) {
        let history = LaunchHistory(earlierToday: 3, lastAttempt: now - seconds)
        #expect(ImpulseWords.attempts(history, now: now) == "4th time today")
    }

    @Test func a_recent_attempt_from_before_midnight_is_mentioned_on_the_first_of_the_day() {
        // The count starts at midnight, the "last was" looks back an hour.
        let history = LaunchHistory(earlierToday: 0, lastAttempt: now - 10 * 60)
        #expect(ImpulseWords.attempts(history, now: now) == "first time today · the last was 10 minutes ago")
    }

    // MARK: Why the pause is longer

    @Test func a_pause_that_did_not_grow_has_no_words() {
        #expect(ImpulseWords.escalation(base: 10, length: 10, earlierAttempts: 0) == nil)
        // A base already above the cap is kept; nothing grew.
        #expect(ImpulseWords.escalation(base: 400, length: 400, earlierAttempts: 5) == nil)
        #expect(ImpulseWords.escalation(base: 90, length: 60, earlierAttempts: 2) == nil)
    }

    @Test func a_longer_pause_says_by_how_much_and_which_try_it_is() {
        #expect(ImpulseWords.escalation(base: 10, length: 70, earlierAttempts: 2)
                == "A longer pause (+1:00): the 3rd try within the hour")
        #expect(ImpulseWords.escalation(base: 10, length: 40, earlierAttempts: 1)
                == "A longer pause (+0:30): the 2nd try within the hour")
        #expect(ImpulseWords.escalation(base: 10, length: 300, earlierAttempts: 20)
                == "A longer pause (+4:50): the 21st try within the hour")
    }

    @Test(arguments: [(5, "0:05"), (60, "1:00"), (65, "1:05"), (600, "10:00")])
    func the_extra_time_is_minutes_and_two_digit_seconds(seconds: Int, clock: String) {
        #expect(MIGACore.clock(seconds) == clock)
    }

    @Test(arguments: [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"),
                      (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th"), (112, "112th"),
                      (113, "113th"), (1002, "1002nd")])
    func ordinals_follow_english_including_the_teens(number: Int, word: String) {
        #expect(ImpulseWords.ordinal(number) == word)
    }
}
