import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore

@Suite struct LocalDayTests {
    @Test(arguments: ["2026-11-31", "2026-02-30", "2026-02-29", "2026-13-01", "2026-00-10", "2026-11-00", "2026-1-05",
                      "26-11-05", "2026-11-05x", "2026/11/05", "", "２０２６-11-05", "+2026-11-05"])
    func a_date_that_does_not_exist_or_is_not_written_so_is_refused(text: String) {
        #expect(LocalDay(parsing: text) == nil)
    }

    @Test func real_dates_read_as_themselves() {
        #expect(LocalDay(parsing: "2028-02-29")?.description == "2028-02-29")
        #expect(LocalDay(parsing: "2026-11-30") == LocalDay(year: 2026, month: 11, day: 30))
        #expect(LocalDay(parsing: "1970-01-01")?.number == 0)
    }

    @Test func each_day_of_a_week_has_its_monday_before_1970_too() {
        for monday in [LocalDay(year: 2026, month: 11, day: 23), LocalDay(year: 1969, month: 12, day: 29), LocalDay(year: 1900, month: 1, day: 1)] {
            for offset in 0..<7 { #expect(LocalDay(number: monday.number + offset).monday == monday) }
        }
    }

    /// Zones whose clocks spring forward at midnight: on that day 00:00 never
    /// happens, and the day begins at 01:00.
    static let midnightSpringForward: [(zone: String, day: LocalDay)] = [
        ("America/Santiago", LocalDay(year: 2026, month: 9, day: 6)),
        ("America/Havana", LocalDay(year: 2026, month: 3, day: 8)),
        ("Africa/Cairo", LocalDay(year: 2026, month: 4, day: 24)),
        ("Asia/Beirut", LocalDay(year: 2026, month: 3, day: 29)),
    ]

    @Test(arguments: midnightSpringForward.map(\.zone))
    func a_day_without_a_midnight_begins_at_its_first_instant(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let day = try #require(Self.midnightSpringForward.first { $0.zone == zone }?.day)
        let start = day.start(in: timeZone)
        #expect(LocalDay(start, in: timeZone) == day, "\(zone): \(day) starts at \(start), on \(LocalDay(start, in: timeZone))")
        #expect(LocalDay(start.addingTimeInterval(-1), in: timeZone) == day.previous, "\(zone): a second before \(start)")
        #expect(LocalDay.dayAndHour(of: start, in: timeZone).hour == 1, "\(zone): the first hour is 1 o'clock")
    }

    @Test func a_day_the_zone_skipped_is_empty() throws {
        // Samoa crossed the date line: 2011-12-29 ended at midnight, and 2011-12-31 began.
        let apia = try #require(TimeZone(identifier: "Pacific/Apia"))
        let skipped = LocalDay(year: 2011, month: 12, day: 30)
        #expect(skipped.start(in: apia) == skipped.next.start(in: apia))
        #expect(LocalDay(skipped.next.start(in: apia).addingTimeInterval(-1), in: apia) == skipped.previous)
    }

    /// Every day of two years, in zones with and without DST, whole and half
    /// hours, east and west: each begins at the first instant on its date.
    @Test(arguments: ["UTC", "Europe/Berlin", "Pacific/Chatham", "Asia/Kolkata", "America/Santiago", "America/Havana",
                      "Africa/Cairo", "Asia/Beirut", "Australia/Lord_Howe", "America/St_Johns"])
    func every_day_begins_at_the_first_instant_on_its_date(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let first = LocalDay(year: 2026, month: 1, day: 1)
        for number in first.number..<(first.number + 730) {
            let day = LocalDay(number: number)
            let start = day.start(in: timeZone)
            guard LocalDay(start, in: timeZone) == day, LocalDay(start.addingTimeInterval(-1), in: timeZone) == day.previous else {
                Issue.record("\(zone): \(day) starts at \(start)")
                return
            }
        }
    }
}
