import Foundation
import Testing
import MIGACore
import MIGATestSupport

/// Time zones from the C library, each answer checked against Foundation's
/// own (ICU's rules, a reckoning apart).
@Suite struct LocalZoneTests {
    static let zones = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe",
                        "America/St_Johns", "Pacific/Chatham", "Africa/Casablanca"]

    @Test(arguments: zones)
    func the_offset_is_the_one_foundation_gives_every_six_hours_of_two_years(identifier: String) throws {
        let zone = try #require(LocalZone(identifier: identifier))
        let reference = try #require(TimeZone(identifier: identifier))
        let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        let differing = stride(from: 0.0, to: 730 * 86_400, by: 6 * 3600).map { start.addingTimeInterval($0) }.filter {
            zone.secondsFromGMT(for: $0) != reference.secondsFromGMT(for: $0)
        }
        #expect(differing.isEmpty, "\(identifier): \(differing.prefix(3))")
    }

    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago"])
    func the_next_change_of_clocks_is_the_one_foundation_gives(identifier: String) throws {
        let zone = try #require(LocalZone(identifier: identifier))
        let reference = try #require(TimeZone(identifier: identifier))
        var moment = Date(timeIntervalSince1970: 1_767_225_600)
        let end = moment.addingTimeInterval(3 * 365 * 86_400)
        var changes = 0
        while let expected = reference.nextDaylightSavingTimeTransition(after: moment), expected < end {
            #expect(zone.nextOffsetChange(after: moment, through: end) == expected, "\(identifier) after \(moment)")
            moment = expected
            changes += 1
        }
        #expect(changes >= 5)
        #expect(zone.nextOffsetChange(after: moment, through: end) == nil)
    }

    @Test func a_zone_without_changes_has_none_to_find() throws {
        let kolkata = try #require(LocalZone(identifier: "Asia/Kolkata"))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(kolkata.nextOffsetChange(after: now, through: now.addingTimeInterval(400 * 86_400)) == nil)
    }

    @Test(arguments: ["", "/etc/passwd", "../../etc/passwd", "Europe/../../etc/passwd", "Europe//Berlin",
                      "Europe/Berlin\n", "Europe/Nowhere", "Europe/Berlin\u{1B}]52;c;x\u{07}"])
    func a_name_that_is_no_zone_of_the_database_is_none(identifier: String) {
        #expect(LocalZone(identifier: identifier) == nil)
    }

    @Test func the_wall_clock_names_its_day_and_minute() throws {
        let berlin = try #require(LocalZone(identifier: "Europe/Berlin"))
        // 2026-03-29 01:59:59 UTC: 03:59:59 in Berlin, the day the clocks went forward.
        let moment = Date(timeIntervalSince1970: 1_774_749_599)
        #expect(berlin.minuteText(at: moment) == "2026-03-29 03:59")
        #expect(LocalZone.utc.minuteText(at: moment) == "2026-03-29 01:59")
        #expect(berlin.wallClock(at: moment).day.weekday == 1, "a Sunday")
        #expect(berlin.identifier == "Europe/Berlin" && LocalZone.utc.identifier == "UTC")
    }
}
