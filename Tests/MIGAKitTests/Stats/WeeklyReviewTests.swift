import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit

@Suite struct WeeklyReviewTests {
    /// The review of the 7 days before `today`; `kinds`: the programs' kinds
    /// in use, the defaults for any other.
    func review(_ history: History, today: String = "2026-10-01", kinds: [String: [PauseKind]] = [:]) -> WeeklyReview? {
        WeeklyReview.compose(tallies: history.tallies, weekEndingBefore: LocalDay(parsing: today)!) { kinds[$0] ?? PauseKind.defaults }
    }

    func lines(_ history: History, today: String = "2026-10-01", kinds: [String: [PauseKind]] = [:]) -> [String] {
        review(history, today: today, kinds: kinds)?.body.split(separator: "\n").map(String.init) ?? []
    }

    // MARK: The first line

    @Test func a_week_with_fewer_openings_than_the_first() {
        var history = History()
        history.add(.exit, on: "2026-09-01")
        // First two weeks 09-02..09-15: 31 openings.
        history.every("2026-09-02", "2026-09-15", proceeds: 2)
        history.add(.passthrough, 3, on: "2026-09-02")
        // The last two weeks, 09-17..09-30: 17 openings.
        history.every("2026-09-16", "2026-09-23", exits: 1, proceeds: 1)
        // The week ending yesterday: 23 attempts, 9 exits, 10 openings.
        history.every("2026-09-24", "2026-09-30", exits: 1, proceeds: 1)
        history.add(.exit, 2, on: "2026-09-24")
        history.add(.proceed, 3, on: "2026-09-24")
        history.add(.abandoned, 4, on: "2026-09-24")
        // Today is not in the week.
        history.add(.exit, 6, on: "2026-10-01")
        #expect(review(history) == WeeklyReview(summary: "Your week with MIGA",
                                                body: "23 attempts, 9 conscious exits, openings in the last two weeks down 45 % from your first two"))
    }

    @Test func one_of_each_is_singular_and_a_young_history_has_no_change() {
        var history = History()
        history.add(.exit, on: "2026-09-30")
        #expect(lines(history) == ["1 attempt, 1 conscious exit"])
        history.add(.proceed, on: "2026-09-29")
        history.add(.passthrough, on: "2026-09-29")
        history.records.removeAll { $0.outcome == .exit }
        #expect(lines(history) == ["2 attempts, 0 conscious exits"])
    }

    @Test func more_openings_than_in_the_first_two_weeks_are_up() {
        var history = History()
        history.every("2026-09-01", "2026-09-23", proceeds: 1)
        history.every("2026-09-24", "2026-09-30", proceeds: 2)
        #expect(lines(history) == ["14 attempts, 0 conscious exits, openings in the last two weeks up 50 % from your first two"])
    }

    @Test func as_many_openings_as_in_the_first_two_weeks_are_level() {
        var history = History()
        history.every("2026-09-01", "2026-09-30", exits: 1, proceeds: 1)
        #expect(lines(history) == ["14 attempts, 7 conscious exits, openings in the last two weeks level with your first two"])
    }

    @Test func a_week_without_attempts_has_no_review() {
        var history = History()
        history.every("2026-09-01", "2026-09-23", exits: 1)
        history.add(.exit, on: "2026-10-01")
        history.add(.open, on: "2026-09-28")
        #expect(review(history) == nil)
        #expect(WeeklyReview.compose(tallies: [], weekEndingBefore: LocalDay(parsing: "2026-10-01")!) == nil)
    }

    // MARK: Fading

    /// Discord: 9 exits of 20 pauses before the week (45 %), 2 of 9 in it (22 %);
    /// 10 openings in its first two weeks, 7 in the last two.
    var fading: History {
        var history = History()
        history.every("2026-09-01", "2026-09-11", proceeds: 1, program: "discord")
        history.every("2026-09-02", "2026-09-10", exits: 1, program: "discord")
        history.every("2026-09-24", "2026-09-30", proceeds: 1, program: "discord")
        history.add(.exit, 2, on: "2026-09-24", program: "discord")
        return history
    }

    /// `fading`, and slack's rate falling less: 45 % to 35 %.
    var fadingAndSlackLess: History {
        var history = fading
        history.every("2026-09-01", "2026-09-09", exits: 1, program: "slack")
        history.every("2026-09-01", "2026-09-11", proceeds: 1, program: "slack")
        history.add(.exit, 7, on: "2026-09-25", program: "slack")
        history.add(.proceed, 13, on: "2026-09-26", program: "slack")
        return history
    }

    @Test func a_fading_effect_suggests_a_typed_pause() {
        #expect(lines(fading) == [
            "9 attempts, 2 conscious exits, openings in the last two weeks down 30 % from your first two",
            "Discord's pauses end in an exit less often lately (22 % from 45 %). "
                + "A typed pause may help: miga protect discord --kinds breathe,type",
        ])
        #expect(lines(fading, kinds: ["discord": [.intention, .instead]]).last
            == "Discord's pauses end in an exit less often lately (22 % from 45 %). "
            + "A typed pause may help: miga protect discord --kinds intention,instead,type")
    }

    @Test func a_program_with_a_typed_pause_already_gets_no_suggestion() {
        #expect(lines(fading, kinds: ["discord": [.breathe, .type]]) == [
            "9 attempts, 2 conscious exits, openings in the last two weeks down 30 % from your first two",
        ])
    }

    @Test func fewer_than_five_pauses_on_a_side_are_too_few_to_tell() {
        // 45 % before, none of 4 pauses lately.
        var history = History()
        history.every("2026-09-01", "2026-09-11", proceeds: 1, program: "discord")
        history.every("2026-09-02", "2026-09-10", exits: 1, program: "discord")
        history.every("2026-09-24", "2026-09-27", proceeds: 1, program: "discord")
        #expect(lines(history).count == 1)
        var fewBefore = History()
        fewBefore.every("2026-09-01", "2026-09-04", exits: 1, program: "discord")
        fewBefore.every("2026-09-24", "2026-09-30", proceeds: 1, program: "discord")
        #expect(lines(fewBefore).count == 1)
    }

    @Test(arguments: [(7, 20, true), (9, 25, false), (8, 20, false)])
    func ten_points_is_the_least_fall_that_counts(exitsLately: Int, pausesLately: Int, suggested: Bool) {
        // 45 % before; 35 % is ten points lower, 36 % and 40 % less.
        var history = History()
        history.every("2026-09-01", "2026-09-09", exits: 1, program: "slack")
        history.every("2026-09-01", "2026-09-11", proceeds: 1, program: "slack")
        history.add(.exit, exitsLately, on: "2026-09-25", program: "slack")
        history.add(.proceed, pausesLately - exitsLately, on: "2026-09-26", program: "slack")
        #expect((lines(history).count == 2) == suggested)
    }

    @Test func the_suggestion_goes_to_the_program_whose_rate_fell_most() {
        let body = lines(fadingAndSlackLess)
        #expect(body.count == 2)
        #expect(body.last?.hasPrefix("Discord's pauses") == true)
        #expect(body.last?.hasSuffix("miga protect discord --kinds breathe,type") == true)
    }

    @Test func a_program_with_a_typed_pause_already_leaves_the_suggestion_to_the_next_that_fell() {
        // Discord types already.
        let body = lines(fadingAndSlackLess, kinds: ["discord": [.breathe, .type]])
        #expect(body.last == "Slack's pauses end in an exit less often lately (35 % from 45 %). "
            + "A typed pause may help: miga protect slack --kinds breathe,type", "\(body)")
    }

    @Test func the_review_stays_gentle() {
        let text = review(fading)!.body.lowercased()
        for word in ["fail", "bad", "worse", "should"] { #expect(!text.contains(word), "\(word)") }
    }

    @Test func a_program_name_the_shell_would_split_is_quoted() {
        #expect(WeeklyReview.shellWord("discord") == "discord")
        #expect(WeeklyReview.shellWord("my app") == "'my app'")
        #expect(WeeklyReview.shellWord("it's") == "'it'\\''s'")
    }

    @Test func a_fading_site_is_named_as_a_site_and_the_suggestion_protects_it_as_one() {
        var history = History()
        history.every("2026-09-01", "2026-09-11", proceeds: 1, program: "site:youtube.com")
        history.every("2026-09-02", "2026-09-10", exits: 1, program: "site:youtube.com")
        history.every("2026-09-24", "2026-09-30", proceeds: 1, program: "site:youtube.com")
        history.add(.exit, 2, on: "2026-09-24", program: "site:youtube.com")
        #expect(lines(history).last == "youtube.com's pauses end in an exit less often lately (22 % from 45 %). "
            + "A typed pause may help: miga protect --site youtube.com --kinds breathe,type")
    }
}
