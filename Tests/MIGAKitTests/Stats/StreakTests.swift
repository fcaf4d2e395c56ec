import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGATestSupport

@Suite struct StreakTests {
    func day(_ text: String) -> LocalDay {
        let parts = text.split(separator: "-").map { Int($0)! }
        return LocalDay(year: parts[0], month: parts[1], day: parts[2])
    }

    func instant(_ text: String, in zone: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: text)!
    }

    @Test func the_current_streak_runs_back_from_today() {
        let streak = Streak(exitDays: ["2027-01-10", "2027-01-11", "2027-01-12"].map(day), today: day("2027-01-12"))
        #expect(streak == Streak(current: 3, best: 3))
    }

    @Test func today_without_an_exit_does_not_break_the_streak_yet() {
        let streak = Streak(exitDays: ["2027-01-10", "2027-01-11"].map(day), today: day("2027-01-12"))
        #expect(streak.current == 2)
    }

    @Test func a_day_without_an_exit_resets_it() {
        let streak = Streak(exitDays: ["2027-01-05", "2027-01-06", "2027-01-07", "2027-01-10"].map(day), today: day("2027-01-12"))
        #expect(streak == Streak(current: 0, best: 3))
    }

    @Test func no_exits_no_streak() {
        #expect(Streak(exitDays: [], today: day("2027-01-12")) == Streak(current: 0, best: 0))
    }

    /// The streak as MIGA computes it: exits in a real store, days grouped in SQL.
    func streak(exits: [String], now: String, zone: String) throws -> Streak {
        let folder = TemporaryDirectory()
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        try store.insertMissing(exits.enumerated().map { index, text in
            SessionRecord(id: "exit-\(index)", program: "p", startedAt: instant(text, in: zone) - 60,
                          endedAt: instant(text, in: zone), outcome: .exit, pausedSeconds: 60)
        })
        return try StatsReport.streak(from: store, now: instant(now, in: zone), timeZone: LocalZone(identifier: zone)!)
    }

    @Test func a_spring_forward_day_is_one_day() throws {
        // New York skips 02:00–03:00 on 2027-03-14: a 23-hour day.
        let streak = try streak(exits: ["2027-03-13 23:30:00", "2027-03-14 23:30:00", "2027-03-15 00:30:00"],
                                now: "2027-03-15 12:00:00", zone: "America/New_York")
        #expect(streak == Streak(current: 3, best: 3))
    }

    @Test func a_fall_back_day_is_one_day() throws {
        // New York repeats 01:00–02:00 on 2026-11-01: a 25-hour day.
        let streak = try streak(exits: ["2026-10-31 00:30:00", "2026-11-01 23:30:00", "2026-11-02 00:10:00"],
                                now: "2026-11-02 08:00:00", zone: "America/New_York")
        #expect(streak == Streak(current: 3, best: 3))
    }

    @Test func exits_on_each_side_of_a_dst_change_fall_on_their_own_days() throws {
        // 01:30 happens twice on 2026-11-01 in New York; 23:59 the day before is still October 31.
        let streak = try streak(exits: ["2026-10-31 23:59:00", "2026-11-01 01:30:00", "2026-11-01 03:00:00"],
                                now: "2026-11-01 12:00:00", zone: "America/New_York")
        #expect(streak == Streak(current: 2, best: 2))
    }

    @Test func one_second_before_midnight_and_midnight_are_different_days() throws {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let late = instant("2027-06-01 23:59:59", in: "Europe/Berlin")
        let midnight = instant("2027-06-02 00:00:00", in: "Europe/Berlin")
        #expect(LocalDay(late, in: zone).description == "2027-06-01")
        #expect(LocalDay(midnight, in: zone).description == "2027-06-02")
        #expect(try streak(exits: ["2027-06-01 23:59:59", "2027-06-02 00:00:00"], now: "2027-06-02 00:00:00",
                           zone: "Europe/Berlin") == Streak(current: 2, best: 2))
    }

    @Test func a_travel_day_counts_in_the_zone_of_the_moment_of_looking() throws {
        // Exits at 20:00 in Los Angeles on two days; seen from Tokyo they fall a day later.
        let exits = ["2027-01-10 20:00:00", "2027-01-11 20:00:00"]
        #expect(try streak(exits: exits, now: "2027-01-11 21:00:00", zone: "America/Los_Angeles") == Streak(current: 2, best: 2))
        let folder = TemporaryDirectory()
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        try store.insertMissing(exits.enumerated().map { index, text in
            SessionRecord(id: "e\(index)", program: "p", startedAt: instant(text, in: "America/Los_Angeles"),
                          endedAt: instant(text, in: "America/Los_Angeles"), outcome: .exit)
        })
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let days = try store.exitDays(in: LocalZone(tokyo), SessionStore.Scope()).map(\.description).sorted()
        #expect(days == ["2027-01-11", "2027-01-12"])
    }

    @Test func days_follow_the_time_zone_the_person_is_in() {
        // The same instant is Monday evening in Los Angeles and Tuesday in Tokyo.
        let moment = instant("2027-01-11 20:00:00", in: "America/Los_Angeles")
        #expect(LocalDay(moment, in: TimeZone(identifier: "America/Los_Angeles")!).description == "2027-01-11")
        #expect(LocalDay(moment, in: TimeZone(identifier: "Asia/Tokyo")!).description == "2027-01-12")
    }

    @Test func local_days_agree_with_the_calendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<500 {
            let date = Date(timeIntervalSince1970: Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &generator)))
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let day = LocalDay(date, in: calendar.timeZone)
            #expect(day == LocalDay(year: parts.year!, month: parts.month!, day: parts.day!))
            #expect(day.components == (parts.year!, parts.month!, parts.day!))
        }
    }

    @Test func random_histories_match_a_simple_reference() {
        var generator = SeededGenerator(seed: 99)
        for _ in 0..<300 {
            let today = 20_000
            let days = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                LocalDay(number: today - Int.random(in: 0...45, using: &generator))
            }
            let set = Set(days.map(\.number))
            // Reference: walk every day from the oldest to today.
            var best = 0, run = 0
            for number in (today - 46)...today {
                run = set.contains(number) ? run + 1 : 0
                best = max(best, run)
            }
            var current = 0
            var cursor = set.contains(today) ? today : today - 1
            while set.contains(cursor) { current += 1; cursor -= 1 }
            #expect(Streak(exitDays: days, today: LocalDay(number: today)) == Streak(current: current, best: best))
        }
    }
}
