import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal

/// A history written as the store holds it: records ending at local
/// instants in a named zone, read by a formatter rather than by the code
/// under test.
struct History {
    let zone: String
    var records: [SessionRecord] = []

    init(zone: String = "Europe/Berlin") { self.zone = zone }

    var timeZone: TimeZone { TimeZone(identifier: zone)! }

    func instant(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    /// `count` sessions of `program` with `outcome`, each ending at `time` on `day`.
    mutating func add(_ outcome: SessionOutcome, _ count: Int = 1, on day: String, at time: String = "12:00",
                      program: String = "firefox") {
        let end = instant("\(day) \(time)")
        for _ in 0..<count {
            records.append(SessionRecord(id: "r\(records.count)", program: program, startedAt: end - 30,
                                         endedAt: outcome == .open ? nil : end, outcome: outcome, pausedSeconds: 30))
        }
    }

    /// The same sessions on every day from `first` to `last`, both included.
    mutating func every(_ first: String, _ last: String, exits: Int = 0, proceeds: Int = 0, abandoned: Int = 0,
                        passthroughs: Int = 0, program: String = "firefox") {
        var day = LocalDay(parsing: first)!
        while day <= LocalDay(parsing: last)! {
            add(.exit, exits, on: day.description, program: program)
            add(.proceed, proceeds, on: day.description, program: program)
            add(.abandoned, abandoned, on: day.description, program: program)
            add(.passthrough, passthroughs, on: day.description, program: program)
            day = day.next
        }
    }

    var tallies: [DayTally] { DayTally.tallies(from: records, in: LocalZone(timeZone)) }

    func measure(today: String) -> EffectReport { Effect.measure(tallies, today: LocalDay(parsing: today)!) }
}

@Suite struct EffectTests {
    func day(_ text: String) -> LocalDay { LocalDay(parsing: text)! }

    // MARK: Tallies

    @Test func outcomes_are_counted_by_the_definitions() {
        var history = History()
        for outcome in SessionOutcome.allCases { history.add(outcome, on: "2026-06-10") }
        #expect(history.tallies == [DayTally(program: "firefox", day: day("2026-06-10"), attempts: 4, pauses: 3, exits: 1,
                                             openings: 2)])
    }

    @Test func a_session_counts_on_the_day_it_ended_or_without_an_end_on_the_day_it_started() {
        let history = History()
        let berlin = history.timeZone
        let records = [
            SessionRecord(id: "a", program: "p", startedAt: history.instant("2026-06-10 23:50"),
                          endedAt: history.instant("2026-06-11 00:10"), outcome: .exit),
            SessionRecord(id: "b", program: "p", startedAt: history.instant("2026-06-10 23:55"), outcome: .abandoned),
            SessionRecord(id: "c", program: "a", startedAt: history.instant("2026-06-11 08:00"),
                          endedAt: history.instant("2026-06-11 08:01"), outcome: .proceed),
        ]
        #expect(DayTally.tallies(from: records, in: LocalZone(berlin)) == [
            DayTally(program: "p", day: day("2026-06-10"), attempts: 1, pauses: 1),
            DayTally(program: "a", day: day("2026-06-11"), attempts: 1, pauses: 1, openings: 1),
            DayTally(program: "p", day: day("2026-06-11"), attempts: 1, pauses: 1, exits: 1),
        ])
    }

    @Test(arguments: [("2026-03-25", "2026-03-29"), ("2026-10-21", "2026-10-25")])
    func two_weeks_with_a_dst_change_still_have_fourteen_days(firstDay: String, change: String) {
        // Berlin changes its clocks at 02:00 on the change day: 00:30 is on one
        // side and 23:30 on the other, and both belong to that day.
        var history = History()
        var cursor = day(firstDay)
        let last = LocalDay(number: day(firstDay).number + 14)
        while cursor <= last {
            history.add(.exit, on: cursor.description, at: "00:30")
            history.add(.proceed, on: cursor.description, at: "23:30")
            cursor = cursor.next
        }
        let tallies = history.tallies
        #expect(tallies.map(\.day) == (0...14).map { LocalDay(number: day(firstDay).number + $0) })
        #expect(tallies.allSatisfy { $0.attempts == 2 && $0.exits == 1 && $0.openings == 1 })
        #expect(tallies.contains { $0.day == day(change) })

        let effect = Effect.measure(tallies, today: last.next).overall
        #expect(effect.enoughData)
        #expect(effect.attempts?.first == 28)
        #expect(effect.attempts?.firstPerDay == 2.0)
        #expect(effect.attempts?.days == 14)
        #expect(effect.openings?.firstPerDay == 1.0)
        #expect(effect.dismissal?.days == 16)
    }

    // MARK: Enough data

    @Test func every_figure_waits_for_the_first_two_full_weeks() {
        var history = History()
        history.every("2026-10-01", "2026-10-15", exits: 1, proceeds: 2)
        // The first two full weeks are 10-02 to 10-15; on their last day nothing is measured yet.
        let early = history.measure(today: "2026-10-15").overall
        #expect(!early.enoughData)
        #expect(early.dismissal == nil && early.attempts == nil && early.openings == nil && early.rebound == nil)
        #expect(early.days == 15)
        #expect(EffectCard(early).lines(width: 80) == [
            "The effect, as the field measures it",
            "  not enough data yet (two weeks of use are needed)",
        ])

        let next = history.measure(today: "2026-10-16").overall
        #expect(next.enoughData)
        #expect(next.dismissal == Effect.Dismissal(exits: 15, pauses: 45, days: 16))
        #expect(next.attempts?.first == 42)
        // The recent span (10-02 to 10-15) is the first two weeks themselves: no change to show.
        #expect(next.attempts?.comparable == false)
        #expect(next.attempts?.change == nil)
    }

    @Test func an_empty_history_has_not_enough_data() {
        let effect = Effect.measure([], today: day("2026-10-09"))
        #expect(effect.overall.firstDay == nil)
        #expect(!effect.overall.enoughData)
        #expect(effect.overall.days == 0)
        #expect(effect.programs.isEmpty)
    }

    // MARK: The change since the first two weeks

    /// First day 09-01 (partial); first two weeks 09-02 to 09-15, 56 attempts
    /// and 42 openings; recent two weeks 09-17 to 09-30, 34 attempts and 18
    /// openings; today 10-01, partial, counted only in the dismissal rate.
    var changing: History {
        var history = History()
        history.add(.proceed, on: "2026-09-01")
        history.every("2026-09-02", "2026-09-15", exits: 1, proceeds: 2, passthroughs: 1)
        history.every("2026-09-16", "2026-09-16", exits: 1, proceeds: 1)
        history.every("2026-09-17", "2026-09-30", exits: 1)
        history.every("2026-09-17", "2026-09-22", proceeds: 1)
        history.every("2026-09-23", "2026-09-24", abandoned: 1)
        history.every("2026-09-25", "2026-09-30", proceeds: 1, passthroughs: 1)
        history.add(.exit, 5, on: "2026-10-01")
        return history
    }

    @Test func the_change_compares_the_recent_two_weeks_a_day_with_the_first_two() {
        let effect = changing.measure(today: "2026-10-01").overall
        #expect(effect.attempts == Effect.Comparison(first: 56, recent: 34, comparable: true, weeks: 4))
        #expect(effect.attempts?.firstPerDay == 4.0)
        #expect(abs(effect.attempts!.recentPerDay - 34.0 / 14) < 1e-12)
        #expect(abs(effect.attempts!.change! - (34.0 / 14 - 4) / 4) < 1e-12)
        #expect(EffectCard.signedPercent(effect.attempts!.change!) == "−39 %")
        #expect(effect.openings == Effect.Comparison(first: 42, recent: 18, comparable: true, weeks: 4))
        #expect(EffectCard.signedPercent(effect.openings!.change!) == "−57 %")
        // Pauses on every day up to today: 09-01, 1 proceed; 09-02..15, 14 exits and 28 proceeds;
        // 09-16, 1 and 1; 09-17..30, 14 exits, 12 proceeds, 2 abandoned; today, 5 exits.
        #expect(effect.dismissal == Effect.Dismissal(exits: 34, pauses: 78, days: 31))
    }

    @Test func the_change_waits_until_the_spans_no_longer_overlap() {
        var history = History()
        history.every("2026-09-01", "2026-10-05", proceeds: 2)
        // First two weeks 09-02..09-15; 09-29's recent span is 09-15..09-28, overlapping by a day.
        #expect(history.measure(today: "2026-09-29").overall.attempts?.change == nil)
        #expect(history.measure(today: "2026-09-29").overall.comparableFrom == day("2026-09-30"))
        #expect(history.measure(today: "2026-09-30").overall.attempts?.change == 0)
    }

    @Test func a_first_two_weeks_without_openings_have_no_openings_change() {
        var history = History()
        history.every("2026-09-01", "2026-09-15", exits: 2)
        history.every("2026-09-16", "2026-10-15", exits: 1, proceeds: 1)
        let effect = history.measure(today: "2026-10-16").overall
        #expect(effect.attempts?.change == 0)
        #expect(effect.openings?.first == 0)
        #expect(effect.openings?.change == nil)
    }

    // MARK: Rebound

    @Test func three_days_without_a_session_are_a_gap_and_a_higher_rate_after_is_flagged() {
        var history = History()
        history.every("2026-09-01", "2026-09-20", proceeds: 2)
        // 09-21, 09-22, 09-23: nothing at all.
        history.every("2026-09-24", "2026-09-28", exits: 1, proceeds: 3)
        let rebound = history.measure(today: "2026-09-28").overall.rebound
        // After: 09-24..09-27 (today is not counted), 16 attempts in 4 days; before: 09-14..09-20, 14 in 7.
        #expect(rebound == Effect.Rebound(gapStart: day("2026-09-21"), gapDays: 3, attemptsBefore: 14, attemptsAfter: 16,
                                          daysBefore: 7, daysAfter: 4))
        #expect(rebound?.perDayAfter == 4.0)
        #expect(rebound?.perDayBefore == 2.0)
        #expect(rebound?.flagged == true)
    }

    @Test func two_days_without_a_session_are_no_gap() {
        var history = History()
        history.every("2026-09-01", "2026-09-05", proceeds: 1)
        // 09-06..09-08: an earlier gap of three days.
        history.every("2026-09-09", "2026-09-20", proceeds: 1)
        // 09-21, 09-22: two days only.
        history.every("2026-09-23", "2026-09-28", proceeds: 1)
        let rebound = history.measure(today: "2026-09-28").overall.rebound
        #expect(rebound?.gapStart == day("2026-09-06"))
        #expect(rebound?.gapDays == 3)
        // Before it: 09-02..09-05, the full days after the first day of use.
        #expect(rebound?.daysBefore == 4)
        #expect(rebound?.daysAfter == 7)
        #expect(rebound?.flagged == false)

        var shorter = History()
        shorter.every("2026-09-01", "2026-09-20", proceeds: 1)
        shorter.every("2026-09-23", "2026-09-28", proceeds: 5)
        #expect(shorter.measure(today: "2026-09-28").overall.rebound == nil)
    }

    @Test func a_gap_is_a_pause_of_every_program() {
        var history = History()
        history.every("2026-09-01", "2026-09-20", proceeds: 1)
        history.every("2026-09-24", "2026-09-28", proceeds: 3)
        history.add(.exit, on: "2026-09-22", program: "discord")
        let report = history.measure(today: "2026-09-29")
        #expect(report.overall.rebound == nil)
        #expect(report["firefox"]?.rebound == nil)
    }

    @Test func a_gap_ending_yesterday_has_no_days_after_yet() {
        var history = History()
        history.every("2026-09-01", "2026-09-20", proceeds: 1)
        history.add(.proceed, on: "2026-09-25")
        let rebound = history.measure(today: "2026-09-25").overall.rebound
        #expect(rebound?.gapDays == 4)
        #expect(rebound?.daysAfter == 0)
        #expect(rebound?.flagged == false)
    }

    // MARK: Per program

    @Test func each_program_is_measured_on_its_own_and_all_together() {
        var history = changing
        // Discord from 09-10 on: its first two weeks still overlap its recent ones.
        history.every("2026-09-10", "2026-09-30", exits: 1, proceeds: 2, program: "discord")
        let report = history.measure(today: "2026-10-01")
        #expect(report.programs.map(\.program) == ["firefox", "discord"])
        let firefox = report["firefox"]!
        #expect(firefox == changing.measure(today: "2026-10-01").overall)
        let discord = report["discord"]!
        #expect(discord.firstDay == day("2026-09-10"))
        #expect(discord.enoughData)
        #expect(discord.attempts == Effect.Comparison(first: 42, recent: 42, comparable: false, weeks: 2))
        #expect(report.overall.totals.attempts == firefox.totals.attempts + discord.totals.attempts)
        // Overall, the programs that count in both spans, each against its own first: Firefox alone so far.
        #expect(report.overall.attempts == firefox.attempts)
        #expect(report.overall.dismissal == Effect.Dismissal(exits: 55, pauses: 141, days: 31))
    }

    @Test func programs_are_ordered_by_attempts_most_first() {
        var history = History()
        history.every("2026-09-01", "2026-09-10", proceeds: 1, program: "b")
        history.every("2026-09-01", "2026-09-10", proceeds: 2, program: "c")
        history.every("2026-09-01", "2026-09-10", proceeds: 1, program: "a")
        #expect(history.measure(today: "2026-09-11").programs.map(\.program) == ["c", "a", "b"])
    }

    // MARK: JSON

    @Test func the_json_rounds_rates_and_figures_a_day() throws {
        var history = changing
        history.every("2026-09-28", "2026-09-30", proceeds: 1, program: "discord")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(history.measure(today: "2026-10-01").json().utf8))
            as? [String: Any])
        let overall = try #require(json["overall"] as? [String: Any])
        #expect(overall["enough_data"] as? Bool == true)
        #expect(overall["first_day"] as? String == "2026-09-01")
        #expect(overall["days"] as? Int == 31)
        #expect(overall["span_days"] as? Int == 14)
        #expect(overall["dismissal_rate"] as? Double == 0.42)  // 34 ÷ 81
        #expect(overall["attempts_per_day_first_weeks"] as? Double == 4)
        // Discord has no first two weeks yet: the overall change is Firefox's.
        #expect(overall["attempts_per_day_recent_weeks"] as? Double == 2.43)  // 34 ÷ 14
        #expect(overall["attempts_change"] as? Double == -0.393)
        #expect(overall["openings_per_day_first_weeks"] as? Double == 3)
        #expect(overall["openings_per_day_recent_weeks"] as? Double == 1.29)  // 18 ÷ 14
        #expect(overall["openings_change"] as? Double == -0.571)
        #expect(overall["first_weeks_from"] as? String == "2026-09-02")
        #expect(overall["first_weeks_through"] as? String == "2026-09-15")
        #expect(overall["weeks"] as? Int == 4)
        #expect(overall["recent_weeks_in_use"] as? Bool == true)
        #expect(overall["attempts_enough_use"] as? Bool == true)
        #expect(overall["openings_enough_use"] as? Bool == true)
        #expect(overall["leaks_recent_weeks"] as? Int == 0)
        #expect(overall["rebound"] is NSNull)

        let programs = try #require(json["programs"] as? [[String: Any]])
        #expect(programs.map { $0["program"] as? String } == ["firefox", "discord"])
        #expect(programs[0]["attempts_change"] as? Double == -0.393)
        #expect(programs[0]["attempts_per_day_recent_weeks"] as? Double == 2.43)
        #expect(programs[1]["enough_data"] as? Bool == false)
        for key in ["dismissal_rate", "attempts_change", "openings_per_day_first_weeks", "rebound"] {
            #expect(programs[1][key] is NSNull, "\(key)")
        }
    }

    @Test func the_json_of_a_rebound() throws {
        var history = History()
        history.every("2026-09-01", "2026-09-20", proceeds: 2)
        history.every("2026-09-24", "2026-09-28", exits: 1, proceeds: 3)
        let data = try JSONEncoder().encode(history.measure(today: "2026-09-28").overall)
        let rebound = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["rebound"] as? [String: Any])
        #expect(rebound["gap_start"] as? String == "2026-09-21")
        #expect(rebound["gap_days"] as? Int == 3)
        #expect(rebound["attempts_per_day_before"] as? Double == 2)
        #expect(rebound["attempts_per_day_after"] as? Double == 4)
        #expect(rebound["days_before"] as? Int == 7)
        #expect(rebound["days_after"] as? Int == 4)
        #expect(rebound["flagged"] as? Bool == true)
    }

    // MARK: The card

    /// `changing` with a break of three days before the recent week.
    var withBreak: History {
        var history = changing
        let zone = history.timeZone
        history.records.removeAll { record in
            ["2026-09-20", "2026-09-21", "2026-09-22"].contains(LocalDay(record.endedAt!, in: zone).description)
        }
        return history
    }

    @Test func the_card_at_80_columns() {
        // 31 exits of 72 pauses; 28 attempts and 15 openings in 09-17..09-30 against 56 and 42;
        // after the break, 19 attempts in 09-23..09-29, 20 in 09-13..09-19 before it.
        let lines = EffectCard(withBreak.measure(today: "2026-10-01").overall).lines(width: 80)
        #expect(lines == [
            "The effect, as the field measures it",
            "  dismissed         43 % of pauses (one sec's study: 36 %) · 31 days",
            "  attempts a day    4.0 → 2.0 (−50 %) after 4 weeks",
            "                    one sec: −37 % after six weeks",
            "  openings a day    3.0 → 1.1 (−64 %) after 4 weeks",
            "                    one sec: −57 % after six weeks",
            "  after a break     3 days without MIGA from 2026-09-20",
            "                    attempts a day: 2.7 in the 7 days after, 2.9 in the 7 days",
            "                    before — lower",
        ])
    }

    @Test func the_card_at_50_columns() {
        let lines = EffectCard(withBreak.measure(today: "2026-10-01").overall).lines(width: 50)
        #expect(lines == [
            "The effect, as the field measures it",
            "  dismissed",
            "    43 % of pauses (one sec's study: 36 %)",
            "    31 days",
            "  attempts a day",
            "    4.0 → 2.0 (−50 %) after 4 weeks",
            "    one sec: −37 % after six weeks",
            "  openings a day",
            "    3.0 → 1.1 (−64 %) after 4 weeks",
            "    one sec: −57 % after six weeks",
            "  after a break",
            "    3 days without MIGA from 2026-09-20",
            "    attempts a day: 2.7 in the 7 days after, 2.9",
            "    in the 7 days before — lower",
        ])
    }

    @Test func the_card_shows_launches_around_the_pause_beside_the_attempts() {
        // Attempts fall by half while launches around the pause rise: both show.
        var tallies = changing.tallies
        for offset in 0..<3 { tallies.append(DayTally(program: "firefox", day: LocalDay(number: day("2026-09-24").number + offset), leaks: 2)) }
        let effect = Effect.measure(tallies, today: day("2026-10-01")).overall
        #expect(effect.attempts?.recentLeaks == 6)
        #expect(effect.attempts?.firstLeaks == 0)
        #expect(EffectCard(effect).lines(width: 80).contains("                    6 launches around the pause in the last 14 days (0 in your"))
    }

    @Test func the_card_before_the_spans_can_be_compared_and_without_a_break() {
        var history = History()
        history.every("2026-09-01", "2026-09-17", exits: 1, proceeds: 2)
        #expect(EffectCard(history.measure(today: "2026-09-18").overall).lines(width: 100) == [
            "The effect, as the field measures it",
            "  dismissed         33 % of pauses (one sec's study: 36 %) · 18 days",
            "  attempts a day    3.0 in your first two weeks · compared from 2026-09-30",
            "  openings a day    2.0 in your first two weeks · compared from 2026-09-30",
            "  after a break     no break of 3 days or more",
        ])
    }

    /// The overall card and each program's, as `miga stats` and `--program` show them.
    func effectCards(_ report: EffectReport) -> [EffectCard] {
        [EffectCard(report.overall)] + report.programs.map { EffectCard($0.effect, title: "The effect on \($0.program)") }
    }

    @Test func the_card_never_overflows_and_stays_calm() {
        let cards = [withBreak.measure(today: "2026-10-01"), History().measure(today: "2026-10-01"),
                     changing.measure(today: "2026-09-05")]
        for width in 1...120 {
            for report in cards {
                for line in effectCards(report).flatMap({ $0.lines(width: width) }) {
                    #expect(CellWidth.of(line) <= width, "\(width): \(line)")
                }
            }
        }
        let text = effectCards(withBreak.measure(today: "2026-10-01")).flatMap { $0.lines(width: 80) }.joined(separator: "\n")
        #expect(!text.contains("\u{1B}"))
        for word in ["fail", "bad", "worse", "(-", " -"] {
            #expect(!text.lowercased().contains(word), "\(word)")
        }
    }

    @Test func percentages_carry_their_sign() {
        #expect(EffectCard.signedPercent(-0.3928) == "−39 %")
        #expect(EffectCard.signedPercent(0.124) == "+12 %")
        #expect(EffectCard.signedPercent(-0.004) == "0 %")
    }
}
