import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit

/// The effect's figures on seeded histories with known answers, in zones
/// whose clocks change at midnight as well as in plain ones: programs added
/// or dropped along the way, a quiet first week, a quiet recent week, a break.
@Suite struct EffectFiguresTests {
    static let zones = ["UTC", "Europe/Berlin", "America/Santiago", "America/Havana", "Africa/Cairo", "Asia/Beirut"]

    func day(_ text: String) -> LocalDay { LocalDay(parsing: text)! }

    /// Firefox at 4 a day from 09-01 to 10-06 (36 days); Discord protected on
    /// 09-16 (day 16) and flat at 4 a day too. Today 10-07.
    func twoFlatPrograms(_ zone: String) -> History {
        var history = History(zone: zone)
        history.every("2026-09-01", "2026-10-06", exits: 1, proceeds: 3)
        history.every("2026-09-16", "2026-10-06", exits: 2, proceeds: 2, program: "discord")
        return history
    }

    @Test(arguments: zones)
    func a_program_added_later_changes_nothing_overall(zone: String) {
        let report = twoFlatPrograms(zone).measure(today: "2026-10-07")
        #expect(report["firefox"]?.attempts?.change == 0)
        #expect(report["discord"]?.attempts?.change == 0)
        #expect(report.overall.attempts?.change == 0)
        #expect(report.overall.attempts?.firstWeekPerDay == 8.0)
        #expect(report.overall.attempts?.recentWeekPerDay == 8.0)
        #expect(report.overall.openings?.change == 0)
        // The weekly look back says the same as the card.
        let review = WeeklyReview.compose(tallies: twoFlatPrograms(zone).tallies, weekEndingBefore: day("2026-10-07"))
        #expect(review?.body.hasPrefix("56 attempts, 21 conscious exits, openings level with your first week") == true)
    }

    @Test(arguments: zones)
    func a_program_dropped_along_the_way_fakes_no_fall(zone: String) {
        var history = History(zone: zone)
        history.every("2026-09-01", "2026-10-06", exits: 1, proceeds: 3)
        // Discord from 09-01 and unprotected after 09-25: nothing since.
        history.every("2026-09-01", "2026-09-25", proceeds: 4, program: "discord")
        let overall = history.measure(today: "2026-10-07").overall
        #expect(overall.attempts?.change == 0)
        #expect(overall.attempts?.firstWeekPerDay == 4.0)
    }

    @Test(arguments: zones)
    func the_overall_change_weighs_each_programs_own_change_by_its_first_week_attempts(zone: String) {
        var history = History(zone: zone)
        // Firefox 6 a day, then 3 a day from 09-20: −50 %. Discord from 09-10, 2 a day, then 4 from 09-25: +100 %.
        history.every("2026-09-01", "2026-09-19", proceeds: 6)
        history.every("2026-09-20", "2026-10-06", proceeds: 3)
        history.every("2026-09-10", "2026-09-24", exits: 2, program: "discord")
        history.every("2026-09-25", "2026-10-06", exits: 4, program: "discord")
        let report = history.measure(today: "2026-10-07")
        #expect(report["firefox"]?.attempts?.change == -0.5)
        #expect(report["discord"]?.attempts?.change == 1.0)
        // (42 × −0.5 + 14 × 1.0) ÷ 56 = −0.125: (21 + 28 − 56) ÷ 56.
        #expect(report.overall.attempts?.change == -0.125)
        #expect(report.overall.attempts?.firstWeek == 56)
        #expect(report.overall.attempts?.recentWeek == 49)
    }

    @Test(arguments: zones)
    func the_first_week_is_the_first_seven_full_days_with_a_session(zone: String) {
        var history = History(zone: zone)
        // Installed 09-01, one try; nothing for ten days; then 3 a day from 09-12, 2 a day from 09-24.
        history.add(.proceed, on: "2026-09-01")
        history.every("2026-09-12", "2026-09-23", exits: 1, proceeds: 2)
        history.every("2026-09-24", "2026-10-06", exits: 1, proceeds: 1)
        let effect = history.measure(today: "2026-10-07").overall
        // First week 09-12..09-18: 21 attempts; recent week 09-30..10-06: 14.
        #expect(effect.attempts?.firstWeek == 21)
        #expect(effect.attempts?.recentWeek == 14)
        #expect(abs((effect.attempts?.change ?? 0) - -1.0 / 3) < 1e-12)
        let card = EffectCard(effect).lines(width: 100).joined(separator: "\n")
        #expect(!card.contains("none in your first week"))
        #expect(card.contains("3.0 → 2.0 (−33 %)"))
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
        history.every("2026-09-01", "2026-09-14", exits: 2, proceeds: 3)
        // MIGA not run for four weeks.
        let effect = history.measure(today: "2026-10-13").overall
        #expect(effect.attempts?.change == nil)
        #expect(effect.openings?.change == nil)
        let card = EffectCard(effect).lines(width: 100)
        #expect(card.contains("  attempts a day    no pauses in the last 7 days · 5.0 in your first week"))
        #expect(!card.joined().contains("−100 %"))

        // Pass-throughs only: the program was in use, and the fall is real.
        history.every("2026-10-06", "2026-10-12", passthroughs: 1)
        #expect(history.measure(today: "2026-10-13").overall.attempts?.change == -0.8)
    }

    @Test(arguments: zones)
    func the_card_says_how_many_weeks_the_change_covers(zone: String) {
        let effect = twoFlatPrograms(zone).measure(today: "2026-10-07")["firefox"]!
        // First week 09-02..09-08; 09-02 to 10-07 is 35 days: 5 weeks.
        #expect(EffectCard(effect).lines(width: 100).contains(
            "  attempts a day    4.0 → 4.0 (0 %) after 5 weeks · one sec: −37 % after six weeks"))
    }

    @Test(arguments: zones)
    func without_a_program_to_compare_overall_there_is_no_change(zone: String) {
        var history = History(zone: zone)
        // Firefox until 09-10, then unprotected; Discord from 09-12, its first week not yet apart from the recent one.
        history.every("2026-09-01", "2026-09-10", proceeds: 3)
        history.every("2026-09-12", "2026-09-20", proceeds: 1, program: "discord")
        let effect = history.measure(today: "2026-09-21").overall
        #expect(effect.attempts?.change == nil)
        #expect(EffectCard(effect).lines(width: 120).contains(
            "  attempts a day    3.0 in your first week · no program used lately has a first week to compare with yet"))
    }
}
