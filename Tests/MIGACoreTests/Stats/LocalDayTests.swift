import Testing
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
}
