import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGATestSupport

@Suite struct StatsReportTests {
    let folder = TemporaryDirectory()
    let store: SessionStore
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let now = Date(timeIntervalSince1970: 1_800_000_000) // 2027-01-15 08:00 UTC, 09:00 in Berlin

    init() throws {
        store = try SessionStore(path: folder.path + "/miga.sqlite")
    }

    func add(_ outcome: SessionOutcome, hoursAgo: Double, program: String = "firefox", paused: Double = 60, device: String = "") throws {
        let ended = now - hoursAgo * 3600
        try store.insertMissing([SessionRecord(id: newUUID(), program: program, startedAt: ended - paused, endedAt: ended,
                                               outcome: outcome, pausedSeconds: paused, device: device)])
    }

    @Test func an_empty_history_has_no_score_and_no_streak() throws {
        let report = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(berlin))
        #expect(report.totals == Totals())
        #expect(report.totals.intentionalityScore == nil)
        #expect(report.streak == Streak(current: 0, best: 0))
        #expect(report.days.count == 30)
        #expect(report.days.allSatisfy { $0.exits == 0 && $0.proceeds == 0 })
        #expect(report.days.last?.day == LocalDay(year: 2027, month: 1, day: 15))
    }

    @Test func totals_follow_the_definitions() throws {
        try add(.exit, hoursAgo: 1, paused: 90)
        try add(.proceed, hoursAgo: 2, paused: 90)
        try add(.proceed, hoursAgo: 3, paused: 90)
        try add(.abandoned, hoursAgo: 4, paused: 30)
        try add(.passthrough, hoursAgo: 5, paused: 0)
        var generator = SeededGenerator(seed: 1)
        _ = try store.openSession(id: "still-open", program: "firefox", startedAt: now, owner: .current(), pool: ["a"], using: &generator)
        let totals = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(berlin)).totals
        #expect(totals == Totals(sessions: 4, exits: 1, proceeds: 2, abandoned: 1, passThroughs: 1, pausedSeconds: 300))
        #expect(totals.intentionalityScore == 25)
        #expect(totals.hoursReclaimed == 300.0 / 3600)
    }

    @Test(arguments: [(1, 3, 33), (2, 3, 67), (1, 8, 13), (0, 5, 0), (5, 5, 100)])
    func the_score_is_rounded_to_a_whole_percent(exits: Int, sessions: Int, score: Int) {
        #expect(Totals(sessions: sessions, exits: exits).intentionalityScore == score)
    }

    @Test func the_chart_counts_each_local_day_and_today_is_last() throws {
        // 09:00 in Berlin: 8 hours ago was 01:00 today; 10 hours ago was 23:00 yesterday.
        try add(.exit, hoursAgo: 8)
        try add(.exit, hoursAgo: 10)
        try add(.proceed, hoursAgo: 10)
        try add(.proceed, hoursAgo: 24 * 29 + 1)  // the first day of the chart
        try add(.exit, hoursAgo: 24 * 31)          // before it
        let days = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(berlin)).days
        #expect(days.last == DayCount(day: LocalDay(year: 2027, month: 1, day: 15), exits: 1, proceeds: 0))
        #expect(days[28] == DayCount(day: LocalDay(year: 2027, month: 1, day: 14), exits: 1, proceeds: 1))
        #expect(days[0].day == LocalDay(year: 2026, month: 12, day: 17))
        #expect(days[0].proceeds == 1)
        #expect(days.reduce(0) { $0 + $1.exits } == 2)
    }

    @Test func a_fall_back_day_holds_twenty_five_hours_of_sessions() throws {
        let newYork = TimeZone(identifier: "America/New_York")!
        // 2026-11-01 in New York runs from 04:00 UTC to 05:00 UTC the next day.
        let dayStart = Date(timeIntervalSince1970: 1_793_505_600) // 2026-11-01 04:00 UTC
        for (index, offset) in [0.0, 3600, 24.5 * 3600].enumerated() {
            try store.insertMissing([SessionRecord(id: "dst-\(index)", program: "p", startedAt: dayStart + offset,
                                                   endedAt: dayStart + offset, outcome: .exit)])
        }
        let report = try StatsReport.compute(from: store, filter: StatsFilter(days: 3), now: dayStart + 40 * 3600, timeZone: LocalZone(newYork))
        #expect(report.days.map(\.day.description) == ["2026-10-31", "2026-11-01", "2026-11-02"])
        #expect(report.days.map(\.exits) == [0, 3, 0])
    }

    @Test func filters_narrow_every_number() throws {
        try add(.exit, hoursAgo: 1, program: "firefox")
        try add(.proceed, hoursAgo: 2, program: "steam")
        try add(.exit, hoursAgo: 24 * 10, program: "firefox")
        try add(.exit, hoursAgo: 3, program: "firefox", device: "laptop")
        let firefox = try StatsReport.compute(from: store, filter: StatsFilter(program: "firefox"), now: now, timeZone: LocalZone(berlin))
        #expect(firefox.totals.sessions == 3)
        #expect(firefox.programs.map(\.program) == ["firefox"])
        let lastWeek = try StatsReport.compute(from: store, filter: StatsFilter(days: 7), now: now, timeZone: LocalZone(berlin))
        #expect(lastWeek.totals.sessions == 3)
        #expect(lastWeek.days.count == 7)
        let here = try StatsReport.compute(from: store, filter: StatsFilter(device: ""), now: now, timeZone: LocalZone(berlin))
        #expect(here.totals.sessions == 3)
        let laptop = try StatsReport.compute(from: store, filter: StatsFilter(device: "laptop"), now: now, timeZone: LocalZone(berlin))
        #expect(laptop.totals.sessions == 1)
    }

    @Test func the_week_trend_compares_the_last_seven_days_with_the_seven_before() throws {
        try add(.exit, hoursAgo: 1)
        try add(.exit, hoursAgo: 24 * 3)
        try add(.exit, hoursAgo: 24 * 9)
        try add(.proceed, hoursAgo: 24 * 20)
        let report = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(berlin))
        #expect(report.thisWeek.exits == 2)
        #expect(report.lastWeek.exits == 1)
        #expect(report.programs.first?.totals.sessions == 4)
    }

    @Test func under_days_of_less_than_a_week_the_trend_covers_those_days() throws {
        try add(.exit, hoursAgo: 1)
        try add(.exit, hoursAgo: 24 * 3 + 1)
        try add(.exit, hoursAgo: 24 * 5)
        try add(.exit, hoursAgo: 24 * 9)
        let report = try StatsReport.compute(from: store, filter: StatsFilter(days: 3), now: now, timeZone: LocalZone(berlin))
        #expect(report.totals.exits == 1)
        #expect(report.weekDays == 3)
        #expect(report.thisWeek.exits == 1, "no figure covers more than the 3 days asked for")
        #expect(report.lastWeek.exits == 2, "the 3 days before")
        let screen = StatsScreen.lines(report, width: 80).map(\.text).joined(separator: "\n")
        #expect(screen.contains("these 3 days 1") && !screen.contains("this week"), "\(screen)")
    }

    @Test func the_json_effect_and_the_card_give_the_same_overall_change_and_launches_around_the_pause() throws {
        // Firefox twice a day for 36 days, Discord from 30 days ago: neither changed, so nothing did overall.
        for day in 1...36 {
            try add(.exit, hoursAgo: Double(24 * day), program: "firefox")
            try add(.proceed, hoursAgo: Double(24 * day) + 1, program: "firefox")
            if day <= 30 { for hour in 2...3 { try add(.proceed, hoursAgo: Double(24 * day + hour), program: "discord") } }
        }
        let leaks = (1...3).map { Leak(program: "firefox", process: ProcessIdentity(bootID: "b", pid: Int32($0), startTicks: 1), route: .unknown) }
        #expect(try store.recordLeaks(leaks, at: now - 2 * 86_400) == 3)
        let report = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(berlin))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json(now: now, timeZone: LocalZone(berlin)).utf8)) as? [String: Any])
        let overall = try #require((json["effect"] as? [String: Any])?["overall"] as? [String: Any])
        #expect(overall["attempts_change"] as? Double == 0, "\(overall)")
        #expect(overall["attempts_per_day_first_weeks"] as? Double == 4 && overall["attempts_per_day_recent_weeks"] as? Double == 4)
        #expect(overall["weeks"] as? Int == 5)
        #expect(overall["leaks_recent_weeks"] as? Int == 3 && overall["leaks_first_weeks"] as? Int == 0, "\(overall)")
        let card = StatsScreen.lines(report, width: 120).map(\.text).joined(separator: "\n")
        #expect(card.contains("4.0 → 4.0 (0 %) after 5 weeks"), "\(card)")
        #expect(card.contains("3 launches around the pause in the last 14 days (0 in your first two weeks)"), "\(card)")
    }

    @Test func under_program_the_json_effect_is_that_programs_as_the_card_shows() throws {
        // Three weeks: discord twice a day, steam once; enough for every figure.
        for day in 1...21 {
            try add(.exit, hoursAgo: Double(24 * day), program: "discord")
            try add(.proceed, hoursAgo: Double(24 * day) + 1, program: "discord")
            try add(.proceed, hoursAgo: Double(24 * day) + 2, program: "steam")
        }
        let report = try StatsReport.compute(from: store, filter: StatsFilter(program: "steam"), now: now, timeZone: LocalZone(berlin))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json(now: now, timeZone: LocalZone(berlin)).utf8)) as? [String: Any])
        let effect = try #require(json["effect"] as? [String: Any])
        let overall = try #require(effect["overall"] as? [String: Any])
        #expect(overall["attempts"] as? Int == 21 && overall["conscious_exits"] as? Int == 0, "\(overall)")
        #expect((effect["programs"] as? [[String: Any]])?.compactMap { $0["program"] as? String } == ["steam"])
        let card = StatsScreen.lines(report, width: 80).map(\.text).joined(separator: "\n")
        #expect(card.contains("The effect on steam") && card.contains("0 % of pauses"), "\(card)")
        // A program without a session: not enough data, in both.
        let none = try StatsReport.compute(from: store, filter: StatsFilter(program: "slack"), now: now, timeZone: LocalZone(berlin))
        let noneJSON = try #require(try JSONSerialization.jsonObject(with: Data(none.json(now: now, timeZone: LocalZone(berlin)).utf8)) as? [String: Any])
        let noneEffect = try #require(noneJSON["effect"] as? [String: Any])
        #expect((noneEffect["overall"] as? [String: Any])?["enough_data"] as? Bool == false)
        #expect((noneEffect["programs"] as? [Any])?.isEmpty == true)
    }

    @Test func a_single_session_is_a_whole_history() throws {
        try add(.exit, hoursAgo: 0.5, paused: 45)
        let report = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(berlin))
        #expect(report.totals == Totals(sessions: 1, exits: 1, pausedSeconds: 45))
        #expect(report.totals.intentionalityScore == 100)
        #expect(report.streak == Streak(current: 1, best: 1))
        #expect(report.days.last?.exits == 1)
        #expect(report.thisWeek.exits == 1 && report.lastWeek.exits == 0)
    }

    /// Berlin in winter, and each zone whose clocks spring forward at
    /// midnight, a few weeks after it did (its change inside the 45 days).
    @Test(arguments: [("Europe/Berlin", 1_800_000_000.0), ("UTC", 1_800_000_000),
                      ("America/Santiago", 1_790_500_000), ("America/Havana", 1_774_500_000),
                      ("Africa/Cairo", 1_778_800_000), ("Asia/Beirut", 1_776_300_000)])
    func random_histories_match_a_simple_reference(zone: String, seconds: Double) throws {
        let timeZone = try #require(TimeZone(identifier: zone)), now = Date(timeIntervalSince1970: seconds)
        var generator = SeededGenerator(seed: 404)
        let outcomes: [SessionOutcome] = [.exit, .proceed, .abandoned, .passthrough]
        for round in 0..<25 {
            let roundFolder = TemporaryDirectory()
            let store = try SessionStore(path: roundFolder.path + "/miga.sqlite")
            let records = (0..<Int.random(in: 0...80, using: &generator)).map { index -> SessionRecord in
                let ended = now - Double.random(in: 0...(45 * 86_400), using: &generator)
                let outcome = outcomes.randomElement(using: &generator)!
                return SessionRecord(id: "r\(round)-\(index)", program: ["a", "b", "c"].randomElement(using: &generator)!,
                                     startedAt: ended, endedAt: ended, outcome: outcome,
                                     pausedSeconds: outcome == .passthrough ? 0 : Double.random(in: 5...200, using: &generator).rounded())
            }
            try store.insertMissing(records)
            let report = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(timeZone))

            // Reference: plain loops over the records.
            let sessions = records.filter { $0.outcome != .passthrough }
            let exits = records.filter { $0.outcome == .exit }
            #expect(report.totals.sessions == sessions.count)
            #expect(report.totals.exits == exits.count)
            #expect(report.totals.exits <= report.totals.sessions)
            #expect(report.totals.passThroughs == records.count - sessions.count)
            #expect(abs(report.totals.pausedSeconds - records.reduce(0) { $0 + $1.pausedSeconds }) < 0.001)
            let today = LocalDay(now, in: timeZone)
            for day in report.days {
                let onDay = records.filter { LocalDay($0.endedAt!, in: timeZone) == day.day }
                #expect(day.exits == onDay.filter { $0.outcome == .exit }.count, "round \(round), \(day.day)")
                #expect(day.proceeds == onDay.filter { $0.outcome == .proceed }.count)
            }
            #expect(report.streak == Streak(exitDays: exits.map { LocalDay($0.endedAt!, in: timeZone) }, today: today))
        }
    }
}

@Suite struct StatsScreenTests {
    let report = StatsReport(
        filter: StatsFilter(), today: LocalDay(year: 2027, month: 1, day: 15),
        totals: Totals(sessions: 41, exits: 12, proceeds: 27, abandoned: 2, passThroughs: 3, pausedSeconds: 4_470),
        streak: Streak(current: 3, best: 7),
        days: (0..<30).map { index in
            DayCount(day: LocalDay(number: LocalDay(year: 2027, month: 1, day: 15).number - 29 + index),
                     exits: [0, 1, 0, 2, 1, 0, 3][index % 7], proceeds: [1, 2, 0, 1, 3, 2, 0][index % 7])
        },
        programs: [ProgramCount(program: "firefox", totals: Totals(sessions: 25, exits: 7, proceeds: 17, pausedSeconds: 2_700)),
                   ProgramCount(program: "telegram-desktop", totals: Totals(sessions: 16, exits: 5, proceeds: 10, pausedSeconds: 1_770))],
        thisWeek: Totals(sessions: 9, exits: 4, pausedSeconds: 800), lastWeek: Totals(sessions: 8, exits: 2, pausedSeconds: 900))

    @Test(arguments: [80, 120])
    func snapshot_plain(width: Int) throws {
        let lines = StatsScreen.lines(report, width: width)
        #expect(lines.allSatisfy { $0.width <= width })
        try assertSnapshot(Palette(mode: .none, fullScreen: false).render(lines), named: "stats-\(width)-plain")
    }

    @Test(arguments: [80, 120])
    func snapshot_colour(width: Int) throws {
        try assertSnapshot(Palette(mode: .trueColor, fullScreen: false).render(StatsScreen.lines(report, width: width)),
                           named: "stats-\(width)-colour")
    }

    @Test func the_numbers_are_on_the_screen() {
        let text = Palette(mode: .none, fullScreen: false).render(StatsScreen.lines(report, width: 80))
        for expected in ["Conscious exits", "12", "Hours reclaimed", "1.2 h", "Intentionality", "29 %", "in the 18–30 % aim",
                         "one sec users: 36 %", "3-day streak", "best 7 days", "this week 4 ↑", "firefox", "telegram-desktop", "today"] {
            #expect(text.contains(expected), "\(expected) is missing")
        }
    }

    @Test func plain_output_has_no_escape_sequences() {
        let text = Palette(mode: .none, fullScreen: false).render(StatsScreen.lines(report, width: 80))
        #expect(!text.contains("\u{1B}"))
    }

    @Test func a_first_run_gets_a_welcome_not_zeros() {
        let empty = StatsReport(filter: StatsFilter(), today: report.today, totals: Totals(), streak: Streak(current: 0, best: 0),
                                days: [], programs: [], thisWeek: Totals(), lastWeek: Totals())
        let text = Palette(mode: .none, fullScreen: false).render(StatsScreen.lines(empty, width: 80))
        #expect(text.contains("No pauses yet."))
        #expect(text.contains("miga protect firefox"))
        #expect(!text.contains("0 %"))
    }

    @Test func narrow_terminals_stack_the_cards_and_charts() {
        let lines = StatsScreen.lines(report, width: 50)
        #expect(lines.allSatisfy { $0.width <= 50 })
    }

    @Test func the_year_fits_eighty_columns() throws {
        var exits: [LocalDay: Int] = [:]
        for offset in stride(from: 0, to: 360, by: 3) { exits[LocalDay(number: report.today.number - offset)] = offset % 6 }
        let lines = StatsScreen.year(exits, today: report.today, width: 80)
        #expect(lines.allSatisfy { $0.width <= 80 })
        try assertSnapshot(Palette(mode: .none, fullScreen: false).render(lines), named: "stats-year-80")
    }

    @Test func the_json_has_a_stable_schema() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let text = report.json(now: now, timeZone: .utc)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["schema", "generated_at", "time_zone", "today", "filter", "sessions", "conscious_exits",
                                     "proceeds", "abandoned", "pass_throughs", "paused_seconds", "hours_reclaimed",
                                     "intentionality_score", "streak", "week", "days", "programs", "coverage", "leaks", "kinds", "effect"])
        #expect(object["schema"] as? Int == 1)
        #expect(object["intentionality_score"] as? Int == 29)
        #expect(object["hours_reclaimed"] as? Double == 1.242)
        #expect((object["streak"] as? [String: Int]) == ["current": 3, "best": 7])
        #expect((object["days"] as? [Any])?.count == 30)
        let empty = StatsReport(filter: StatsFilter(), today: report.today, totals: Totals(), streak: Streak(current: 0, best: 0),
                                days: [], programs: [], thisWeek: Totals(), lastWeek: Totals())
        let emptyObject = try #require(try JSONSerialization.jsonObject(with: Data(empty.json(now: now, timeZone: .utc).utf8)) as? [String: Any])
        #expect(emptyObject["intentionality_score"] is NSNull)
    }
}
