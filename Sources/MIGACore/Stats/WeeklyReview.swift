import FoundationEssentials

/// The weekly look back, as the text of a notification: the week's attempts
/// and conscious exits, the change in openings since the first two weeks, and at
/// most one gentle suggestion where the pause seems to help less lately.
public struct WeeklyReview: Equatable, Sendable {
    public static let title = "Your week with MIGA"
    /// The fewest pauses on each side of a fading comparison.
    public static let fadingPauses = 5
    /// The fall in exit rate, in percentage points, that counts as fading.
    public static let fadingPoints = 10

    public let summary: String
    public let body: String

    public init(summary: String = WeeklyReview.title, body: String) {
        self.summary = summary
        self.body = body
    }

    /// The review of the 7 local days before `end` (the look back passes the
    /// Monday that ended the week), or nil when they held no attempt.
    /// `kinds`: the kinds of pause a program is set to show (`Config.kinds(for:)`).
    public static func compose(tallies: [DayTally], weekEndingBefore end: LocalDay,
                               kinds: (String) -> [PauseKind] = { _ in PauseKind.defaults }) -> WeeklyReview? {
        let week = (end.number - LocalDay.daysInWeek)...(end.number - 1)
        let thisWeek = tallies.filter { week.contains($0.day.number) }
        let attempts = thisWeek.reduce(0) { $0 + $1.attempts }
        guard attempts > 0 else { return nil }
        let exits = thisWeek.reduce(0) { $0 + $1.exits }
        var line = "\(counted(attempts, "attempt")), \(counted(exits, "conscious exit"))"
        // As of the week's end: its recent span ends with the week looked back on.
        if let change = Effect.measure(tallies, today: end).overall.openings?.change {
            let points = wholeNumber(change * 100)
            line += points == 0 ? ", openings in the last two weeks level with your first two"
                : ", openings in the last two weeks \(points < 0 ? "down" : "up") \(abs(points)) % from your first two"
        }
        var lines = [line]
        // A typed pause is what there is to suggest: for the program that fell most of those without one.
        if let fading = fading(tallies, week: week, among: { !kinds($0).contains(.type) }) {
            lines.append(suggestion(for: fading, kinds: kinds(fading.program)))
        }
        return WeeklyReview(body: lines.joined(separator: "\n"))
    }

    /// A program whose pauses end in an exit less often lately.
    struct Fading {
        let program: String
        let before: (exits: Int, pauses: Int)
        let lately: (exits: Int, pauses: Int)
        var rateBefore: Double { Double(before.exits) / Double(before.pauses) }
        var rateLately: Double { Double(lately.exits) / Double(lately.pauses) }
    }

    /// The program whose exit rate fell most, of those `among` admits where it
    /// fell by at least `fadingPoints` between all the days before `week` and
    /// `week`, with `fadingPauses` pauses or more on each side.
    static func fading(_ tallies: [DayTally], week: ClosedRange<Int>, among: (String) -> Bool = { _ in true }) -> Fading? {
        var sides: [String: (before: (exits: Int, pauses: Int), lately: (exits: Int, pauses: Int))] = [:]
        for tally in tallies where tally.day.number <= week.upperBound && among(tally.program) {
            var side = sides[tally.program] ?? ((0, 0), (0, 0))
            if week.contains(tally.day.number) {
                side.lately = (side.lately.exits + tally.exits, side.lately.pauses + tally.pauses)
            } else {
                side.before = (side.before.exits + tally.exits, side.before.pauses + tally.pauses)
            }
            sides[tally.program] = side
        }
        return sides.compactMap { program, side -> Fading? in
            let (before, lately) = side
            guard before.pauses >= fadingPauses, lately.pauses >= fadingPauses else { return nil }
            // In whole numbers, so that 45 % to 35 % is exactly ten points.
            let fall = 100 * (before.exits * lately.pauses - lately.exits * before.pauses)
            guard fall >= fadingPoints * before.pauses * lately.pauses else { return nil }
            return Fading(program: program, before: before, lately: lately)
        }
        .sorted { ($1.rateBefore - $1.rateLately, $0.program) < ($0.rateBefore - $0.rateLately, $1.program) }
        .first
    }

    /// The suggestion of a typed pause beside the kinds the program shows.
    static func suggestion(for fading: Fading, kinds: [PauseKind]) -> String {
        let suggested = (kinds.isEmpty ? PauseKind.defaults : kinds).map(\.rawValue) + [PauseKind.type.rawValue]
        let rates = "\(wholeNumber(fading.rateLately * 100)) % from \(wholeNumber(fading.rateBefore * 100)) %"
        // A site by its name (a host is written in lower case), and protected as one.
        let site = Protected(historyName: fading.program)?.site
        let name = site?.name ?? printable(fading.program)
        let shown = site == nil ? name.prefix(1).uppercased() + name.dropFirst() : name
        let protect = site == nil ? "miga protect \(shellWord(name))" : "miga protect --site \(shellWord(name))"
        return "\(shown)'s pauses end in an exit less often lately (\(rates)). "
            + "A typed pause may help: \(protect) --kinds \(suggested.joined(separator: ","))"
    }

    /// `program` as one word for the shell: as it is when it is plain, else in single quotes.
    static func shellWord(_ program: String) -> String {
        let plain = !program.isEmpty && program.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "._+-@:/".unicodeScalars.contains($0))
        }
        return plain ? program : "'" + program.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
