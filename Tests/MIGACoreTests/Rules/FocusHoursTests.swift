import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore

@Suite struct FocusHoursTests {
    typealias Rule = FocusHours.Rule

    // Weekdays as Calendar counts them.
    static let sunday = 1, monday = 2, tuesday = 3, wednesday = 4, thursday = 5, friday = 6, saturday = 7

    /// The instant at a wall-clock time in `zone`, computed by the calendar of
    /// that zone (never with a fixed offset, so DST is the zone's own).
    func instant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0,
                 in zone: TimeZone, sourceLocation: SourceLocation = #_sourceLocation) throws -> Date {
        try #require(Self.calendar(zone).date(from: DateComponents(year: year, month: month, day: day,
                                                                     hour: hour, minute: minute)),
                     sourceLocation: sourceLocation)
    }

    static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    static let utc = TimeZone(identifier: "UTC")!

    func zone(_ identifier: String) throws -> TimeZone {
        try #require(TimeZone(identifier: identifier))
    }

    // MARK: Parsing

    @Test func weekdays_and_one_range_are_read_as_calendar_weekdays_and_minutes() throws {
        let hours = try FocusHours("Mon-Fri 09:00-17:00")
        #expect(hours.rules == [Rule(days: [2, 3, 4, 5, 6], ranges: [(540, 1020)])])
        #expect(hours.description == "Mon-Fri 09:00-17:00")
    }

    @Test func a_rule_may_have_several_ranges() throws {
        let hours = try FocusHours("Mon-Fri 09:00-12:00 13:00-17:30")
        #expect(hours.rules == [Rule(days: [2, 3, 4, 5, 6], ranges: [(540, 720), (780, 1050)])])
    }

    @Test func rules_are_separated_by_semicolons() throws {
        let hours = try FocusHours("Mon-Fri 09:00-17:00; Sat,Sun 10:00-12:00")
        #expect(hours.rules == [Rule(days: [2, 3, 4, 5, 6], ranges: [(540, 1020)]),
                                Rule(days: [1, 7], ranges: [(600, 720)])])
    }

    @Test func a_rule_without_days_is_every_day() throws {
        let hours = try FocusHours("09:00-17:00")
        #expect(hours.rules == [Rule(days: Set(1...7), ranges: [(540, 1020)])])
    }

    @Test func a_day_range_may_wrap_around_the_week() throws {
        #expect(try FocusHours("Fri-Mon 10:00-11:00").rules[0].days == [6, 7, 1, 2])
        #expect(try FocusHours("Sat-Sun 10:00-11:00").rules[0].days == [7, 1])
        // A range from a day back to itself is that one day, not the whole week.
        #expect(try FocusHours("Wed-Wed 10:00-11:00").rules[0].days == [4])
    }

    @Test func days_may_mix_lists_and_ranges() throws {
        #expect(try FocusHours("Mon-Wed,Fri 10:00-11:00").rules[0].days == [2, 3, 4, 6])
    }

    @Test func full_day_names_in_any_case_are_understood() throws {
        #expect(try FocusHours("Monday-Wednesday 10:00-11:00").rules[0].days == [2, 3, 4])
        #expect(try FocusHours("SATURDAY,sunday 10:00-11:00").rules[0].days == [7, 1])
        #expect(try FocusHours("mon-FRI 10:00-11:00").rules[0].days == [2, 3, 4, 5, 6])
    }

    @Test func twenty_four_hundred_ends_the_day() throws {
        #expect(try FocusHours("Sat 00:00-24:00").rules == [Rule(days: [7], ranges: [(0, 1440)])])
        #expect(try FocusHours("20:00-24:00").rules[0].ranges.map { [$0.start, $0.end] } == [[1200, 1440]])
    }

    @Test func a_range_whose_end_is_before_its_start_is_kept_as_written_to_run_past_midnight() throws {
        #expect(try FocusHours("Fri 22:00-02:00").rules == [Rule(days: [6], ranges: [(1320, 120)])])
    }

    @Test func single_digit_hours_and_extra_spaces_are_accepted() throws {
        let hours = try FocusHours("  Mon   9:00-17:00 ;  Tue 7:30-8:00  ")
        #expect(hours.rules == [Rule(days: [2], ranges: [(540, 1020)]), Rule(days: [3], ranges: [(450, 480)])])
        // The text is kept for `miga list`, without the outer spaces.
        #expect(hours.description == "Mon   9:00-17:00 ;  Tue 7:30-8:00")
    }

    @Test func a_trailing_semicolon_is_harmless() throws {
        #expect(try FocusHours("Mon 09:00-10:00;").rules == FocusHours("Mon 09:00-10:00").rules)
    }

    // MARK: Errors

    func errorMessage(_ text: String) -> String? {
        do {
            _ = try FocusHours(text)
            return nil
        } catch {
            return error.message
        }
    }

    @Test(arguments: ["", "   "])
    func no_hours_at_all_are_refused_with_an_example(text: String) throws {
        let message = try #require(errorMessage(text))
        #expect(message == "no hours given, like \"Mon-Fri 09:00-17:00\"")
    }

    @Test func an_unknown_day_is_named_as_written() throws {
        let message = try #require(errorMessage("Mon-Fry 09:00-17:00"))
        #expect(message == "\"Fry\" is not a day; use Mon, Tue, Wed, Thu, Fri, Sat or Sun")
    }

    @Test(arguments: ["Mon- 09:00-17:00", "Mon,,Fri 09:00-17:00"])
    func a_missing_day_names_the_word_it_is_missing_from(text: String) throws {
        let message = try #require(errorMessage(text))
        let word = String(text.split(separator: " ")[0])
        #expect(message == "\"\(word)\" has a day missing, like Mon-Fri or Sat,Sun")
    }

    @Test func a_day_range_with_two_dashes_is_named() throws {
        let message = try #require(errorMessage("mon-wed-fri 09:00-17:00"))
        #expect(message.contains("\"mon-wed-fri\" is not a day or a range of days"))
    }

    @Test func days_without_times_are_named() throws {
        let message = try #require(errorMessage("Mon-Fri 09:00-17:00; Sat,Sun"))
        #expect(message == "\"Sat,Sun\" names days but no times, like 09:00-17:00")
    }

    @Test func a_time_without_an_end_is_named() throws {
        let message = try #require(errorMessage("Mon 09:00"))
        #expect(message == "\"09:00\" is not a time range, like 09:00-17:00")
    }

    @Test(arguments: [("9-17", "9"), ("09:00-25:00", "25:00"), ("09:60-10:00", "09:60"), ("9am-5pm", "9am"),
                      ("09:0-10:00", "09:0"), ("24:30-01:00", "24:30"), ("009:00-10:00", "009:00")])
    func a_word_that_is_not_a_time_of_day_is_named_with_its_range(range: String, bad: String) throws {
        let message = try #require(errorMessage("Mon \(range)"))
        #expect(message == "\"\(bad)\" in \"\(range)\" is not a time of day; use 24-hour HH:MM, like 09:00 or 17:30")
    }

    @Test func an_empty_range_is_named() throws {
        let message = try #require(errorMessage("Mon 09:00-09:00"))
        #expect(message == "\"09:00-09:00\" is an empty range")
    }

    @Test func a_range_starting_at_twenty_four_hundred_is_named() throws {
        let message = try #require(errorMessage("Mon 24:00-02:00"))
        #expect(message == "\"24:00-02:00\" starts at 24:00; use 00:00")
    }

    @Test func the_error_describes_itself_by_its_message() {
        #expect(MigaError(usage: "x is wrong").description == "x is wrong")
    }

    @Test func only_semicolons_are_refused_like_empty_hours() {
        // `hours = ";"` has no rule at all, so it would never protect; like an
        // empty text it should be refused rather than silently mean "never".
        #expect(throws: MigaError(usage: "no hours given, like \"Mon-Fri 09:00-17:00\"")) { try FocusHours(";") }
        #expect(throws: MigaError(usage: "no hours given, like \"Mon-Fri 09:00-17:00\"")) { try FocusHours(" ; ; ") }
    }

    // MARK: Contains

    @Test func a_weekday_range_includes_its_start_and_excludes_its_end() throws {
        let hours = try FocusHours("Mon-Fri 09:00-17:00")
        // 2026-01-05 is a Monday.
        #expect(Self.calendar(Self.utc).component(.weekday, from: try instant(2026, 1, 5, 12, in: Self.utc)) == Self.monday)
        #expect(!hours.contains(try instant(2026, 1, 5, 8, 59, in: Self.utc), in: Self.utc))
        #expect(hours.contains(try instant(2026, 1, 5, 9, 0, in: Self.utc), in: Self.utc))
        #expect(hours.contains(try instant(2026, 1, 7, 16, 59, in: Self.utc), in: Self.utc))
        #expect(!hours.contains(try instant(2026, 1, 9, 17, 0, in: Self.utc), in: Self.utc))
    }

    @Test func weekends_are_outside_weekday_hours() throws {
        let hours = try FocusHours("Mon-Fri 09:00-17:00")
        #expect(Self.calendar(Self.utc).component(.weekday, from: try instant(2026, 1, 10, 12, in: Self.utc)) == Self.saturday)
        #expect(!hours.contains(try instant(2026, 1, 10, 12, in: Self.utc), in: Self.utc))
        #expect(!hours.contains(try instant(2026, 1, 11, 12, in: Self.utc), in: Self.utc))
        #expect(hours.contains(try instant(2026, 1, 9, 12, in: Self.utc), in: Self.utc))
    }

    @Test func several_rules_and_ranges_each_count() throws {
        let hours = try FocusHours("Mon-Fri 09:00-12:00 13:00-17:00; Sat,Sun 10:00-12:00")
        #expect(hours.contains(try instant(2026, 1, 5, 11, 59, in: Self.utc), in: Self.utc))
        #expect(!hours.contains(try instant(2026, 1, 5, 12, 30, in: Self.utc), in: Self.utc)) // lunch
        #expect(hours.contains(try instant(2026, 1, 5, 13, 0, in: Self.utc), in: Self.utc))
        #expect(!hours.contains(try instant(2026, 1, 10, 9, 0, in: Self.utc), in: Self.utc))
        #expect(hours.contains(try instant(2026, 1, 10, 10, 30, in: Self.utc), in: Self.utc))
        #expect(hours.contains(try instant(2026, 1, 11, 11, 0, in: Self.utc), in: Self.utc))
        #expect(!hours.contains(try instant(2026, 1, 11, 14, 0, in: Self.utc), in: Self.utc))
    }

    @Test func a_whole_day_to_twenty_four_hundred_includes_the_last_minute() throws {
        let hours = try FocusHours("Sat 00:00-24:00")
        #expect(hours.contains(try instant(2026, 1, 10, 0, 0, in: Self.utc), in: Self.utc))
        #expect(hours.contains(try instant(2026, 1, 10, 23, 59, in: Self.utc), in: Self.utc))
        #expect(!hours.contains(try instant(2026, 1, 11, 0, 0, in: Self.utc), in: Self.utc))
        #expect(!hours.contains(try instant(2026, 1, 9, 23, 59, in: Self.utc), in: Self.utc))
    }

    @Test func a_range_past_midnight_runs_into_the_next_day_only() throws {
        let hours = try FocusHours("Fri 22:00-02:00")
        // 2026-01-09 is a Friday, 2026-01-10 the Saturday after it.
        #expect(Self.calendar(Self.utc).component(.weekday, from: try instant(2026, 1, 9, 12, in: Self.utc)) == Self.friday)
        #expect(!hours.contains(try instant(2026, 1, 9, 21, 59, in: Self.utc), in: Self.utc))
        #expect(hours.contains(try instant(2026, 1, 9, 22, 0, in: Self.utc), in: Self.utc))
        #expect(hours.contains(try instant(2026, 1, 9, 23, 59, in: Self.utc), in: Self.utc))
        #expect(hours.contains(try instant(2026, 1, 10, 1, 0, in: Self.utc), in: Self.utc))
        #expect(!hours.contains(try instant(2026, 1, 10, 2, 0, in: Self.utc), in: Self.utc))
        // The small hours of Friday belong to Thursday night, which is not listed.
        #expect(!hours.contains(try instant(2026, 1, 9, 1, 0, in: Self.utc), in: Self.utc))
        // Saturday evening is not Friday evening.
        #expect(!hours.contains(try instant(2026, 1, 10, 23, 0, in: Self.utc), in: Self.utc))
    }

    @Test func a_saturday_night_range_runs_into_sunday_across_the_week_boundary() throws {
        // Sunday is weekday 1, so "yesterday" must wrap to Saturday (7).
        let hours = try FocusHours("Sat 22:00-02:00")
        #expect(Self.calendar(Self.utc).component(.weekday, from: try instant(2026, 1, 11, 1, in: Self.utc)) == Self.sunday)
        #expect(hours.contains(try instant(2026, 1, 11, 1, 0, in: Self.utc), in: Self.utc))
        #expect(!hours.contains(try instant(2026, 1, 12, 1, 0, in: Self.utc), in: Self.utc))
    }

    @Test func a_wrapped_day_range_covers_the_weekend_between() throws {
        let hours = try FocusHours("Fri-Mon 10:00-11:00")
        for day in 9...12 { // Friday to Monday
            #expect(hours.contains(try instant(2026, 1, day, 10, 30, in: Self.utc), in: Self.utc), "day \(day)")
        }
        for day in 6...8 { // Tuesday to Thursday
            #expect(!hours.contains(try instant(2026, 1, day, 10, 30, in: Self.utc), in: Self.utc), "day \(day)")
        }
    }

    @Test(arguments: [(2026, 3, 28), (2026, 3, 29), (2026, 3, 30), (2026, 10, 24), (2026, 10, 25), (2026, 10, 26)])
    func nine_oclock_in_berlin_is_inside_either_side_of_a_dst_change(year: Int, month: Int, day: Int) throws {
        let berlin = try zone("Europe/Berlin")
        let hours = try FocusHours("09:00-17:00")
        #expect(hours.contains(try instant(year, month, day, 9, 0, in: berlin), in: berlin))
        #expect(hours.contains(try instant(year, month, day, 16, 59, in: berlin), in: berlin))
        #expect(!hours.contains(try instant(year, month, day, 8, 59, in: berlin), in: berlin))
        #expect(!hours.contains(try instant(year, month, day, 17, 0, in: berlin), in: berlin))
    }

    @Test func the_dst_days_in_berlin_really_are_an_hour_short_and_long() throws {
        // Guards the test above: had the zone no DST, it would prove nothing.
        let berlin = try zone("Europe/Berlin")
        let spring = try instant(2026, 3, 29, 9, in: berlin).timeIntervalSince(try instant(2026, 3, 28, 9, in: berlin))
        let autumn = try instant(2026, 10, 25, 9, in: berlin).timeIntervalSince(try instant(2026, 10, 24, 9, in: berlin))
        #expect(spring == 23 * 3600)
        #expect(autumn == 25 * 3600)
    }

    @Test func both_half_past_twos_of_the_autumn_change_are_inside_two_to_three() throws {
        let berlin = try zone("Europe/Berlin")
        let calendar = Self.calendar(berlin)
        let midnight = try instant(2026, 10, 25, 0, in: berlin)
        // 2½ and 3½ hours after midnight: 02:30 summer time, then 02:30 winter time.
        let first = midnight + 2.5 * 3600, second = midnight + 3.5 * 3600
        #expect(calendar.dateComponents([.hour, .minute], from: first) == DateComponents(hour: 2, minute: 30))
        #expect(calendar.dateComponents([.hour, .minute], from: second) == DateComponents(hour: 2, minute: 30))
        let hours = try FocusHours("Sun 02:00-03:00")
        #expect(hours.contains(first, in: berlin))
        #expect(hours.contains(second, in: berlin))
        #expect(!hours.contains(midnight + 4.5 * 3600, in: berlin)) // 03:30 winter time
    }

    @Test func the_same_instant_is_read_on_the_wall_clock_of_the_zone_given() throws {
        let tokyo = try zone("Asia/Tokyo")
        let workday = try FocusHours("09:00-17:00")
        // Friday 12:00 in UTC is Friday 21:00 in Tokyo.
        let noon = try instant(2026, 1, 9, 12, in: Self.utc)
        #expect(workday.contains(noon, in: Self.utc))
        #expect(!workday.contains(noon, in: tokyo))
        // Friday 20:00 in UTC is already Saturday 05:00 in Tokyo.
        let fridays = try FocusHours("Fri 00:00-24:00")
        let evening = try instant(2026, 1, 9, 20, in: Self.utc)
        #expect(fridays.contains(evening, in: Self.utc))
        #expect(!fridays.contains(evening, in: tokyo))
        #expect(Self.calendar(tokyo).component(.weekday, from: evening) == Self.saturday)
    }
}
