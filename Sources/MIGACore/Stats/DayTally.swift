import FoundationEssentials

/// One program's counts on one local day: the unit from which the effect of
/// the pause is measured (`Effect`, `WeeklyReview`).
public struct DayTally: Equatable, Sendable {
    public var program: String
    /// The local day the sessions ended on.
    public var day: LocalDay
    /// Completed sessions: exit, proceed, abandoned or pass-through.
    public var attempts: Int
    /// Sessions that showed the pause: exit, proceed or abandoned.
    public var pauses: Int
    /// Conscious exits.
    public var exits: Int
    /// Times the program opened: proceed or pass-through.
    public var openings: Int
    /// Launches that went around the pause, by the day they were first seen.
    public var leaks = 0

    public init(program: String, day: LocalDay, attempts: Int = 0, pauses: Int = 0, exits: Int = 0, openings: Int = 0,
                leaks: Int = 0) {
        self.program = program
        self.day = day
        self.attempts = attempts
        self.pauses = pauses
        self.exits = exits
        self.openings = openings
        self.leaks = leaks
    }

    /// The records counted per program and local day, sorted by day then
    /// program. A session counts on the day it ended (its start when it has
    /// no end); open rows are not counted, as they have not ended.
    ///   - leaks: the launches around the pause, each program's and when first seen.
    public static func tallies(from records: [SessionRecord], leaks: [(program: String, seenAt: Date)] = [],
                               in timeZone: LocalZone) -> [DayTally] {
        struct Key: Hashable {
            let program: String
            let day: LocalDay
        }
        var tallies: [Key: DayTally] = [:]
        for record in records where record.outcome != .open {
            let day = LocalDay(record.endedAt ?? record.startedAt, in: timeZone)
            let key = Key(program: record.program, day: day)
            tallies[key, default: DayTally(program: record.program, day: day)].count(record.outcome)
        }
        for leak in leaks {
            let day = LocalDay(leak.seenAt, in: timeZone)
            tallies[Key(program: leak.program, day: day), default: DayTally(program: leak.program, day: day)].leaks += 1
        }
        return tallies.values.sorted { ($0.day, $0.program) < ($1.day, $1.program) }
    }

    mutating func count(_ outcome: SessionOutcome) {
        switch outcome {
        case .open: return
        case .exit: exits += 1; pauses += 1
        case .proceed: openings += 1; pauses += 1
        case .abandoned: pauses += 1
        case .passthrough: openings += 1
        }
        attempts += 1
    }
}
