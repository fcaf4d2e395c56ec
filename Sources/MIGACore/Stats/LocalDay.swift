import FoundationEssentials

/// A calendar day in the person's own time zone, counted in days since
/// 1970-01-01. Consecutive days differ by one whatever their length, so day
/// arithmetic is calendar arithmetic: a 23-hour spring-forward day is one day.
public struct LocalDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let number: Int

    public init(number: Int) { self.number = number }

    /// The day of a civil date (proleptic Gregorian; Howard Hinnant's days_from_civil).
    public init(year: Int, month: Int, day: Int) {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        number = era * 146_097 + dayOfEra - 719_468
    }

    /// The day written `YYYY-MM-DD`, or nil for anything else, an impossible
    /// date included (2026-02-30, 2026-11-31, 2026-13-01).
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.map(\.count) == [4, 2, 2], parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        let candidate = LocalDay(year: year, month: month, day: day)
        // A date that does not exist comes back as another one.
        guard (1...12).contains(month), candidate.components == (year, month, day) else { return nil }
        self = candidate
    }

    /// The local day on which `instant` falls in `timeZone`.
    public init(_ instant: Date, in timeZone: LocalZone) {
        let seconds = instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant))
        number = wholeNumber((seconds / 86_400).rounded(.down))
    }

    /// The first instant of this day in `timeZone`: local midnight, or, where
    /// the clocks spring forward at midnight (Santiago, Havana, Cairo,
    /// Beirut), the moment they do, when the day begins at 01:00.
    public func start(in timeZone: LocalZone) -> Date {
        let civilMidnight = Double(number) * 86_400
        // Midnight by each offset in force around the date; the earliest that
        // falls on this day is midnight itself, or the spring forward's end.
        let offsets = Set((-1...1).map { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: civilMidnight + Double($0) * 86_400)) })
        let onThisDay = offsets.map { civilMidnight - Double($0) }.sorted().first { LocalDay(Date(timeIntervalSince1970: $0), in: timeZone) == self }
        // A day the zone skipped whole (Apia's 2011-12-30) has no instant: it
        // is empty, and begins where the next one does.
        guard var last = onThisDay else { return next.start(in: timeZone) }
        // A change of clocks shortly before it (not at midnight): the day
        // began earlier, at the first second of its date.
        var before = last - 4 * 3600
        guard LocalDay(Date(timeIntervalSince1970: last - 1), in: timeZone) == self,
              LocalDay(Date(timeIntervalSince1970: before), in: timeZone) < self else { return Date(timeIntervalSince1970: last) }
        while last - before > 1 {
            let middle = ((before + last) / 2).rounded(.down)
            if LocalDay(Date(timeIntervalSince1970: middle), in: timeZone) == self { last = middle } else { before = middle }
        }
        return Date(timeIntervalSince1970: last)
    }

    /// The local day and hour of `instant` in `timeZone` (`LocalZone.system`
    /// for the person's own).
    public static func dayAndHour(of instant: Date, in timeZone: LocalZone) -> (day: LocalDay, hour: Int) {
        let clock = timeZone.wallClock(at: instant)
        return (clock.day, clock.secondOfDay / 3600)
    }

    /// The days of a week.
    public static let daysInWeek = 7

    /// The Monday of this day's week: weeks start on Monday.
    public var monday: LocalDay {
        // 1970-01-01, day 0, was a Thursday: (number + 3) mod 7 is 0 on Mondays.
        LocalDay(number: number - ((number + 3) % 7 + 7) % 7)
    }

    /// The day of the week, 1 = Sunday … 7 = Saturday.
    public var weekday: Int {
        // 1970-01-01, day 0, was a Thursday, the fifth day.
        ((number + 4) % 7 + 7) % 7 + 1
    }

    public var previous: LocalDay { LocalDay(number: number - 1) }
    public var next: LocalDay { LocalDay(number: number + 1) }

    /// Year, month and day (civil_from_days).
    public var components: (year: Int, month: Int, day: Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (y, m, d) = components
        return "\(y)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
    }

    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.number < rhs.number }
}
