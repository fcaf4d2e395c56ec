import FoundationEssentials

/// When a program is protected: `hours = "Mon-Fri 09:00-17:00; Sat,Sun 10:00-12:00"`.
/// Outside these hours it opens without a pause.
///
/// Rules are separated by `;`. Each names its days (`Mon-Fri`, `Sat,Sun`,
/// `Fri-Mon`; none means every day) and one or more time ranges in 24-hour
/// local time. A range whose end is not after its start runs past midnight
/// into the next day (`Fri 22:00-02:00` is Friday night into Saturday), and
/// `24:00` is the end of a day. Times are read off the wall clock of the
/// given zone, so a DST change moves nothing: 09:00 is 09:00 either side.
public struct FocusHours: Equatable, Sendable, CustomStringConvertible {
    struct Rule: Equatable, Sendable {
        /// Weekdays, 1 = Sunday … 7 = Saturday (as `LocalDay.weekday` counts).
        var days: Set<Int>
        /// Minutes since midnight: start inclusive, end exclusive.
        var ranges: [(start: Int, end: Int)]

        static func == (a: Rule, b: Rule) -> Bool {
            a.days == b.days && a.ranges.map { [$0.start, $0.end] } == b.ranges.map { [$0.start, $0.end] }
        }
    }

    let rules: [Rule]
    /// The text as written, for `miga list` and the config.
    public let description: String

    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let fullDayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// Parses `text`, or fails saying what is wrong and where.
    public init(_ text: String) throws(MigaError) {
        var rules: [Rule] = []
        for part in text.split(separator: ";", omittingEmptySubsequences: false) {
            let words = part.split(whereSeparator: \.isWhitespace).map(String.init)
            if words.isEmpty {
                if text.trimmingWhitespace().isEmpty { throw MigaError(usage: "no hours given, like \"Mon-Fri 09:00-17:00\"") }
                continue
            }
            var days = Set(1...7)
            var timeWords = words[...]
            if let first = words.first, first.first?.isLetter == true {
                days = try Self.days(first)
                timeWords = words.dropFirst()
            }
            guard !timeWords.isEmpty else {
                throw MigaError(usage: "\"\(part.trimmingWhitespace())\" names days but no times, like 09:00-17:00")
            }
            rules.append(Rule(days: days, ranges: try timeWords.map(Self.range)))
        }
        // Only separators ("; ;") would mean never protected, silently.
        if rules.isEmpty { throw MigaError(usage: "no hours given, like \"Mon-Fri 09:00-17:00\"") }
        self.rules = rules
        description = text.trimmingWhitespace()
    }

    /// Whether `date` falls inside these hours, on the wall clock of `timeZone`.
    public func contains(_ date: Date, in timeZone: LocalZone) -> Bool {
        let clock = timeZone.wallClock(at: date)
        let weekday = clock.day.weekday
        let now = clock.secondOfDay / 60
        let yesterday = weekday == 1 ? 7 : weekday - 1
        return rules.contains { rule in
            rule.ranges.contains { range in
                if range.start < range.end {
                    return rule.days.contains(weekday) && range.start <= now && now < range.end
                }
                // Past midnight: the evening on a listed day, the small hours on the day after.
                return (rule.days.contains(weekday) && now >= range.start)
                    || (rule.days.contains(yesterday) && now < range.end)
            }
        }
    }

    /// `Mon`, `Mon-Fri`, `Sat,Sun`, `Mon-Wed,Fri`: full names work too.
    static func days(_ word: String) throws(MigaError) -> Set<Int> {
        var days = Set<Int>()
        for item in word.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count <= 2 else { throw MigaError(usage: "\"\(item)\" is not a day or a range of days, like Mon-Fri") }
            let numbers = try ends.map { end throws(MigaError) -> Int in
                let name = end.lowercased()
                guard let index = dayNames.firstIndex(of: name) ?? fullDayNames.firstIndex(of: name) else {
                    throw MigaError(usage: end.isEmpty ? "\"\(word)\" has a day missing, like Mon-Fri or Sat,Sun"
                                                      : "\"\(end)\" is not a day; use Mon, Tue, Wed, Thu, Fri, Sat or Sun")
                }
                return index + 1
            }
            // A range may wrap around the week: Fri-Mon is Friday to Monday.
            var day = numbers[0]
            days.insert(day)
            while day != numbers[numbers.count - 1] {
                day = day % 7 + 1
                days.insert(day)
            }
        }
        return days
    }

    /// `09:00-17:00`, `22:00-02:00` (past midnight), `00:00-24:00` (all day).
    static func range(_ word: String) throws(MigaError) -> (start: Int, end: Int) {
        let ends = word.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2 else { throw MigaError(usage: "\"\(word)\" is not a time range, like 09:00-17:00") }
        let start = try minutes(String(ends[0]), in: word)
        let end = try minutes(String(ends[1]), in: word)
        guard start != end else { throw MigaError(usage: "\"\(word)\" is an empty range") }
        guard start < 24 * 60 else { throw MigaError(usage: "\"\(word)\" starts at 24:00; use 00:00") }
        return (start, end)
    }

    static func minutes(_ text: String, in word: String) throws(MigaError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, (1...2).contains(parts[0].count),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0...59).contains(minute), (0...23).contains(hour) || (hour == 24 && minute == 0) else {
            throw MigaError(usage: "\"\(text)\" in \"\(word)\" is not a time of day; use 24-hour HH:MM, like 09:00 or 17:30")
        }
        return hour * 60 + minute
    }
}

