import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit

/// The effect's figures on seeded histories with known answers, in zones
/// whose clocks change at midnight as well as in plain ones: programs added
/// or dropped along the way, a quiet start, a quiet recent span, a break.
@Suite struct EffectFiguresTests {
    static let zones = ["UTC", "Europe/Berlin", "America/Santiago", "America/Havana", "Africa/Cairo", "Asia/Beirut"]

    func day(_ text: String) -> LocalDay { LocalDay(parsing: text)! }

    /// Firefox at 4 a day from 09-01 to 10-20 (50 days); Discord protected on
    /// 09-16 (day 16) and flat at 4 a day too. Today 10-21.
    func twoFlatPrograms(_ zone: String) -> History {
        var history = History(zone: zone)
        history.every("2026-09-01", "2026-10-20", exits: 1, proceeds: 3)
        history.every("2026-09-16", "2026-10-20", exits: 2, proceeds: 2, program: "discord")
        return history
    }

    @Test(arguments: zones)
    func a_program_added_later_changes_nothing_overall(zone: String) {
        let report = twoFlatPrograms(zone).measure(today: "2026-10-21")
        #expect(report["firefox"]?.attempts?.change == 0)
        #expect(report["discord"]?.attempts?.change == 0)
        #expect(report.overall.attempts?.change == 0)
        #expect(report.overall.attempts?.firstPerDay == 8.0)
        #expect(report.overall.attempts?.recentPerDay == 8.0)
        #expect(report.overall.openings?.change == 0)
        // The weekly look back says the same as the card.
        let review = WeeklyReview.compose(tallies: twoFlatPrograms(zone).tallies, weekEndingBefore: day("2026-10-21"))
        #expect(review?.body.hasPrefix("56 attempts, 21 conscious exits, openings in the last two weeks level with your first two") == true)
    }

    @Test(arguments: zones)
    func a_program_dropped_along_the_way_fakes_no_fall(zone: String) {
        var history = History(zone: zone)
        history.every("2026-09-01", "2026-10-20", exits: 1, proceeds: 3)
        // Discord from 09-01 and unprotected after 10-05: nothing since.
        history.every("2026-09-01", "2026-10-05", proceeds: 4, program: "discord")
        let overall = history.measure(today: "2026-10-21").overall
        #expect(overall.attempts?.change == 0)
        #expect(overall.attempts?.firstPerDay == 4.0)
    }

    @Test(arguments: zones)
    func the_overall_change_weighs_each_programs_own_change_by_its_first_weeks_attempts(zone: String) {
        var history = History(zone: zone)
        // Firefox 6 a day, then 3 a day from 10-01: −50 %. Discord from 09-10, 2 a day, then 4 from 10-06: +100 %.
        history.every("2026-09-01", "2026-09-30", proceeds: 6)
        history.every("2026-10-01", "2026-10-20", proceeds: 3)
        history.every("2026-09-10", "2026-10-05", exits: 2, program: "discord")
        history.every("2026-10-06", "2026-10-20", exits: 4, program: "discord")
        let report = history.measure(today: "2026-10-21")
        #expect(report["firefox"]?.attempts?.change == -0.5)
        #expect(report["discord"]?.attempts?.change == 1.0)
        // (84 × −0.5 + 28 × 1.0) ÷ 112 = −0.125: (42 + 56 − 112) ÷ 112.
        #expect(report.overall.attempts?.change == -0.125)
        #expect(report.overall.attempts?.first == 112)
        #expect(report.overall.attempts?.recent == 98)
    }

    @Test(arguments: zones)
    func the_overall_openings_change_weighs_each_programs_own_by_its_first_weeks_openings(zone: String) {
        var history = History(zone: zone)
        // Firefox: 5 attempts a day throughout; 1 opening a day, then 2 in the last two weeks: +100 %.
        history.every("2026-09-01", "2026-10-06", exits: 4, proceeds: 1)
        history.every("2026-10-07", "2026-10-20", exits: 3, proceeds: 2)
        // Steam: 1 attempt a day throughout; opened each time, then never in the last two weeks: −100 %.
        history.every("2026-09-01", "2026-10-06", proceeds: 1, program: "steam")
        history.every("2026-10-07", "2026-10-20", exits: 1, program: "steam")
        let report = history.measure(today: "2026-10-21")
        #expect(report["firefox"]?.openings?.change == 1.0)
        #expect(report["steam"]?.openings?.change == -1.0)
        #expect(report["firefox"]?.attempts?.first == 70)
        #expect(report["steam"]?.attempts?.first == 14)
        // Each program's change weighed by its openings in its first two weeks,
        // (14 × 1.0 + 14 × −1.0) ÷ 28 = 0: the openings a day the card shows beside it,
        // 2.0 before and after. Weighed by attempts it would read (70 − 14) ÷ 84 = +67 %.
        #expect(report.overall.openings?.change == 0)
        #expect(report.overall.openings?.firstPerDay == 2.0)
        #expect(report.overall.openings?.recentPerDay == 2.0)
        #expect(EffectCard(report.overall).lines(width: 100).contains(
            "  openings a day    2.0 → 2.0 (0 %) after 7 weeks · one sec: −57 % after six weeks"))
    }

    @Test(arguments: zones)
    func a_quiet_start_counts_as_days_without_use(zone: String) {
        var history = History(zone: zone)
        // Installed 09-01, one try; nothing for ten days; then 3 a day from 09-12, 2 a day from 10-01.
        history.add(.proceed, on: "2026-09-01")
        history.every("2026-09-12", "2026-09-30", exits: 1, proceeds: 2)
        history.every("2026-10-01", "2026-10-20", exits: 1, proceeds: 1)
        let effect = history.measure(today: "2026-10-21").overall
        // First two weeks 09-02..09-15, four of them in use: 12 attempts; recent 10-07..10-20: 28.
        // Counted in calendar days as the recent span is, never the first days in use.
        #expect(effect.firstWeeks == day("2026-09-02")...day("2026-09-15"))
        #expect(effect.attempts?.first == 12)
        #expect(effect.attempts?.recent == 28)
        #expect(abs((effect.attempts?.change ?? 0) - 4.0 / 3) < 1e-12)
        #expect(EffectCard(effect).lines(width: 100).joined(separator: "\n").contains("0.9 → 2.0 (+133 %)"))
    }

    @Test(arguments: zones)
    func too_little_use_in_both_spans_is_not_compared(zone: String) {
        var history = History(zone: zone)
        // Every third day from 09-01: 4 attempts in 09-02..09-15 and 5 in 10-07..10-20.
        var day = day("2026-09-01")
        while day < self.day("2026-10-21") {
            history.add(.proceed, on: day.description)
            day = LocalDay(number: day.number + 3)
        }
        let effect = history.measure(today: "2026-10-21").overall
        #expect(effect.attempts?.first == 4 && effect.attempts?.recent == 5)
        #expect(effect.attempts?.enoughUse == false)
        #expect(effect.attempts?.change == nil)
        let card = EffectCard(effect).lines(width: 100)
        #expect(card.contains("  attempts a day    0.3 → 0.4 after 7 weeks"), "\(card)")
        #expect(card.contains("                    not enough use yet to compare (under 7 in each two weeks)"), "\(card)")
        // Three more on 10-19: 8 in the recent span, and the change shows.
        history.add(.proceed, 3, on: "2026-10-19")
        #expect(history.measure(today: "2026-10-21").overall.attempts?.change == 1.0)
    }

    @Test(arguments: zones)
    func a_rise_within_chance_is_no_rebound_and_a_clear_one_is(zone: String) {
        var history = History(zone: zone)
        // Installed 09-01 with 20 tries, then 32 attempts in the 7 days before a break (4.57 a day).
        history.add(.proceed, 20, on: "2026-09-01")
        history.every("2026-09-02", "2026-09-08", proceeds: 4)
        history.add(.proceed, 4, on: "2026-09-08")
        // 09-09..09-11 nothing; after it 34 in 7 days (4.86 a day).
        history.every("2026-09-12", "2026-09-18", proceeds: 4)
        history.add(.exit, 6, on: "2026-09-18")
        history.add(.proceed, 2, on: "2026-09-19")
        let rebound = history.measure(today: "2026-09-19").overall.rebound
        #expect(rebound?.attemptsBefore == 32)
        #expect(rebound?.daysBefore == 7)
        #expect(rebound?.attemptsAfter == 34)
        #expect(rebound?.daysAfter == 7)
        #expect(rebound?.flagged == false)

        var clear = History(zone: zone)
        clear.every("2026-09-01", "2026-09-08", proceeds: 2)
        clear.every("2026-09-12", "2026-09-18", proceeds: 5)
        #expect(clear.measure(today: "2026-09-19").overall.rebound?.flagged == true)
    }

    @Test(arguments: zones)
    func the_days_before_a_break_leave_out_the_partial_install_day(zone: String) {
        var history = History(zone: zone)
        // 30 tries while setting up on 09-01, then 2 a day; 09-06..09-08 nothing; 2 a day after.
        history.add(.exit, 30, on: "2026-09-01")
        history.every("2026-09-02", "2026-09-05", proceeds: 2)
        history.every("2026-09-09", "2026-09-20", proceeds: 2)
        let rebound = history.measure(today: "2026-09-21").overall.rebound
        #expect(rebound?.daysBefore == 4)
        #expect(rebound?.attemptsBefore == 8)
        #expect(rebound?.perDayBefore == 2.0)
    }

    @Test(arguments: zones)
    func a_recent_week_without_pauses_says_so_instead_of_a_fall(zone: String) {
        var history = History(zone: zone)
        history.every("2026-09-01", "2026-09-15", exits: 2, proceeds: 3)
        // MIGA not run for four weeks.
        let effect = history.measure(today: "2026-10-13").overall
        #expect(effect.attempts?.change == nil)
        #expect(effect.openings?.change == nil)
        let card = EffectCard(effect).lines(width: 100)
        #expect(card.contains("  attempts a day    no pauses in the last 14 days · 5.0 in your first two weeks"))
        #expect(!card.joined().contains("−100 %"))

        // Pass-throughs only: the program was in use, and the fall is real.
        history.every("2026-09-29", "2026-10-12", passthroughs: 1)
        #expect(history.measure(today: "2026-10-13").overall.attempts?.change == -0.8)
    }

    @Test(arguments: zones)
    func the_card_says_how_many_weeks_the_change_covers(zone: String) {
        let effect = twoFlatPrograms(zone).measure(today: "2026-10-21")["firefox"]!
        // First two weeks 09-02..09-15; 09-02 to 10-21 is 49 days: 7 weeks.
        #expect(EffectCard(effect).lines(width: 100).contains(
            "  attempts a day    4.0 → 4.0 (0 %) after 7 weeks · one sec: −37 % after six weeks"))
    }

    @Test(arguments: zones)
    func without_a_program_to_compare_overall_there_is_no_change(zone: String) {
        var history = History(zone: zone)
        // Firefox until 09-10, then unprotected; Discord from 09-12, its first weeks not yet apart from the recent ones.
        history.every("2026-09-01", "2026-09-10", proceeds: 3)
        history.every("2026-09-12", "2026-10-04", proceeds: 1, program: "discord")
        let effect = history.measure(today: "2026-10-05").overall
        #expect(effect.attempts?.change == nil)
        // 27 of Firefox's and 4 of Discord's in 09-02..09-15.
        #expect(EffectCard(effect).lines(width: 120).contains(
            "  attempts a day    2.2 in your first two weeks · no program used lately has first weeks to compare with yet"))
    }
}
