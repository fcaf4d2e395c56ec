import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore

/// `miga stats` and `stats --year` in small and large windows: nothing wider
/// than the window, and a year that names all twelve months.
@Suite struct StatsScreenFitTests {
    static let widths = [40, 60, 80, 200]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let today = LocalDay(year: 2027, month: 1, day: 15)

    func report(streak: Streak = Streak(current: 0, best: 7), programs: Int = 14, sessions: Int = 41,
                leaks: Bool = true) -> StatsReport {
        var report = StatsReport(
            filter: StatsFilter(), today: Self.today,
            totals: Totals(sessions: sessions, exits: sessions / 3, proceeds: sessions / 2, passThroughs: 3, pausedSeconds: 4_470),
            streak: streak,
            days: (0..<30).map { DayCount(day: LocalDay(number: Self.today.number - 29 + $0), exits: $0 % 4, proceeds: $0 % 3) },
            programs: (0..<programs).map { index in
                ProgramCount(program: "a-rather-long-program-name-\(index + 1)",
                             totals: Totals(sessions: 20 - index, exits: 5, proceeds: 10, pausedSeconds: 600))
            },
            thisWeek: Totals(sessions: 9, exits: 4, pausedSeconds: 800), lastWeek: Totals(sessions: 8, exits: 2, pausedSeconds: 900))
        if leaks {
            report.leaks = (0..<3).map { RecordedLeak(program: "firefox", seenAt: Date(timeIntervalSince1970: 1_800_000_000),
                                                      route: [.login("steam -silent"), .launcher("/bin/bash"),
                                                              .path("/usr/lib/xdg-desktop-portal/a/rather/long/path/to/the/program/itself")][$0]) }
        }
        return report
    }

    @Test(arguments: widths)
    func every_line_of_the_stats_fits_the_window(width: Int) {
        let reports = [report(), report(streak: Streak(current: 3, best: 7)), report(programs: 1, sessions: 0),
                       report(programs: 0, sessions: 0, leaks: false)]
        for report in reports {
            let lines = StatsScreen.lines(report, width: width)
            let wide = lines.filter { $0.width > width }.map(\.text)
            #expect(wide.isEmpty, "wider than \(width): \(wide)")
        }
    }

    @Test(arguments: widths)
    func the_year_fits_the_window(width: Int) {
        let lines = StatsScreen.year([:], today: Self.today, width: width)
        let wide = lines.filter { $0.width > width }.map(\.text)
        #expect(wide.isEmpty, "wider than \(width): \(wide)")
    }

    /// The month row of a year ending on `today`.
    func monthRow(today: LocalDay, width: Int) -> String {
        StatsScreen.year([:], today: today, width: width)[1].text
    }

    @Test func the_year_labels_december_today() {
        let row = monthRow(today: LocalDay(year: 2026, month: 11, day: 23), width: 80)
        #expect(row.contains("Dec"), "\(row)")
    }

    @Test(arguments: [59, 80, 200])
    func the_year_labels_all_twelve_months_whatever_the_day(width: Int) {
        for offset in 0..<371 {
            let today = LocalDay(number: Self.today.number + offset)
            let row = monthRow(today: today, width: width)
            let names = row.split(separator: " ").map(String.init)
            #expect(Set(names) == Set(Self.months) && names.count == 12, "\(today): \(row)")
            #expect(StatsScreen.year([:], today: today, width: width).allSatisfy { $0.width <= width })
        }
    }

    /// In a narrow window the year folds into stacked parts: still every
    /// week of it, and all twelve months named.
    @Test(arguments: [30, 40, 50, 58])
    func a_narrow_year_folds_and_still_names_every_month(width: Int) {
        for offset in stride(from: 0, to: 371, by: 5) {
            let today = LocalDay(number: Self.today.number + offset)
            let lines = StatsScreen.year([:], today: today, width: width)
            #expect(lines.allSatisfy { $0.width <= width }, "wider than \(width)")
            let names = Set(lines.flatMap { $0.text.split(separator: " ").map(String.init) }.filter { Self.months.contains($0) })
            #expect(names == Set(Self.months), "\(today) at \(width): \(Self.months.filter { !names.contains($0) }) missing")
            let weeks = lines.filter { $0.text.hasPrefix(StatsScreen.margin + "Mon") }
                .map { $0.text.dropFirst(StatsScreen.margin.count + 4).count }.reduce(0, +)
            #expect(weeks == 53, "\(weeks) weeks at \(width)")
        }
    }

    /// Under a C locale the year's shades are visible ASCII marks, lightest
    /// to darkest, never blanks, and so is its legend.
    @Test func the_year_in_ascii_shades_every_day_visibly() {
        var exits: [LocalDay: Int] = [:]
        for (offset, count) in [1, 2, 3, 5].enumerated() { exits[LocalDay(number: Self.today.number - 7 * offset)] = count }
        let palette = Palette(mode: .none, fullScreen: false, unicode: false)
        let text = palette.render(StatsScreen.year(exits, today: Self.today, width: 80))
        let legend = text.split(separator: "\n").last.map(String.init) ?? ""
        let marks = legend.replacingOccurrences(of: "less", with: "").replacingOccurrences(of: "more", with: "")
            .split(separator: " ").map(String.init)
        #expect(marks == [".", ":", "+", "*", "#"], "\(legend)")
        let grid = text.split(separator: "\n").dropFirst(2).dropLast().joined(separator: "\n")
        for mark in marks.dropFirst() { #expect(grid.contains(mark), "a day of \(mark) is not drawn:\n\(grid)") }
    }

    @Test func each_label_sits_at_or_just_after_the_first_week_of_its_month() {
        let today = LocalDay(year: 2026, month: 11, day: 23)
        let lines = StatsScreen.year([:], today: today, width: 80)
        let row = Array(lines[1].text)
        // The grid starts after the margin and the weekday names.
        let start = StatsScreen.margin.count + 4
        let firstMonday = today.number - ((today.number % 7) + 10) % 7 - 52 * 7
        for (index, name) in Self.months.enumerated() {
            guard let label = (0..<(row.count - 2)).first(where: { String(row[$0..<($0 + 3)]) == name }) else {
                Issue.record("no \(name)")
                continue
            }
            let week = label - start
            let (_, month, _) = LocalDay(number: firstMonday + week * 7).components
            let (_, before, _) = LocalDay(number: firstMonday + (week - 1) * 7).components
            #expect(month == index + 1 && (before != month || week == 0), "\(name) at week \(week)")
        }
    }
}
