import Foundation

/// The effect of the pause on one program or on all of them, measured the
/// way one sec's field study measured its own (PNAS 2023): the share of
/// pauses dismissed, and the attempts and openings a day since the first
/// week of use. Definitions in docs/STATS.md ("The effect of the pause").
public struct Effect: Equatable, Sendable {
    /// What one sec's study found: 36 % of opening attempts dismissed,
    /// attempts −37 % and openings −57 % after six weeks.
    public static let fieldStudyDismissal = 0.36
    public static let fieldStudyAttemptsChange = -0.37
    public static let fieldStudyOpeningsChange = -0.57
    /// Days in a week, each week's figure divided by it.
    public static let weekDays = 7
    /// The fewest consecutive days without any session that make a gap.
    public static let shortestGap = 3

    /// Counts over every day counted (up to and including today).
    public struct Counts: Equatable, Sendable {
        public var attempts = 0
        public var pauses = 0
        public var exits = 0
        public var openings = 0

        public init(attempts: Int = 0, pauses: Int = 0, exits: Int = 0, openings: Int = 0) {
            self.attempts = attempts
            self.pauses = pauses
            self.exits = exits
            self.openings = openings
        }

        init(_ tally: DayTally) {
            self.init(attempts: tally.attempts, pauses: tally.pauses, exits: tally.exits, openings: tally.openings)
        }

        package mutating func add(_ other: Counts) {
            attempts += other.attempts
            pauses += other.pauses
            exits += other.exits
            openings += other.openings
        }
    }

    /// Conscious exits ÷ pauses, from the first day of use to today.
    public struct Dismissal: Equatable, Sendable {
        public let exits: Int
        public let pauses: Int
        /// Days from the first day of use to today, both included.
        public let days: Int
        public var rate: Double { Double(exits) / Double(pauses) }
    }

    /// A count in the first full week against the same count in the recent week.
    public struct WeekComparison: Equatable, Sendable {
        public let firstWeek: Int
        public let recentWeek: Int
        /// False while the recent week still overlaps the first full week.
        public let comparable: Bool
        public var days: Int { Effect.weekDays }
        public var firstWeekPerDay: Double { Double(firstWeek) / Double(days) }
        public var recentWeekPerDay: Double { Double(recentWeek) / Double(days) }
        /// (recent per day − first per day) ÷ first per day, as a fraction
        /// (−0.37 for −37 %); nil until the weeks are apart, or when the first
        /// week had none to compare with.
        public var change: Double? {
            guard comparable, firstWeek > 0 else { return nil }
            return Double(recentWeek - firstWeek) / Double(firstWeek)
        }
    }

    /// Attempts a day after the latest gap of three days or more without any
    /// session, against the days before it.
    public struct Rebound: Equatable, Sendable {
        /// The first day without a session.
        public let gapStart: LocalDay
        public let gapDays: Int
        public let attemptsBefore: Int
        public let attemptsAfter: Int
        /// Days counted before the gap: up to 7, from the first day of use on.
        public let daysBefore: Int
        /// Days counted after the gap: up to 7, up to yesterday; 0 when it ended yesterday.
        public let daysAfter: Int
        public var perDayBefore: Double { Double(attemptsBefore) / Double(max(1, daysBefore)) }
        public var perDayAfter: Double { Double(attemptsAfter) / Double(max(1, daysAfter)) }
        /// More attempts a day after the gap than before it.
        public var flagged: Bool { attemptsAfter * max(1, daysBefore) > attemptsBefore * max(1, daysAfter) }
    }

    /// The local day of the earliest counted session; nil without any.
    public let firstDay: LocalDay?
    public let today: LocalDay
    public let totals: Counts
    /// True once today is past the first full week (the 7 days after the
    /// first day of use); every figure below is nil before.
    public let enoughData: Bool
    /// Nil without enough data or without a pause.
    public let dismissal: Dismissal?
    public let attempts: WeekComparison?
    public let openings: WeekComparison?
    /// Nil without enough data or without a gap while in use.
    public let rebound: Rebound?

    /// Days from the first day of use to today, both included; 0 without a session.
    public var days: Int { firstDay.map { max(0, today.number - $0.number + 1) } ?? 0 }

    /// The first day the recent week no longer overlaps the first full week.
    public var comparableFrom: LocalDay? { firstDay.map { LocalDay(number: $0.number + 2 * Self.weekDays + 1) } }

    /// The effect overall and per program, as of `today` (a partial day:
    /// counted in the dismissal rate, never in a week), from day tallies.
    public static func measure(_ tallies: [DayTally], today: LocalDay) -> EffectReport {
        measure(TallyCounts(tallies), today: today)
    }

    /// The same from any source of counts: each figure asks only for the
    /// days it needs, so the store answers from its indexes (a week's
    /// sessions, a few minimums) instead of tallying every day it holds.
    public static func measure<Source: EffectCounting>(_ source: Source, today: LocalDay) throws(Source.Failure) -> EffectReport {
        // A gap is MIGA not running any gateway at all, so it is found over every program.
        let gap = try source.latestGap(through: today)
        let overall = try Effect(source, program: nil, today: today, gap: gap)
        var programs: [ProgramEffect] = []
        for program in try source.programs(through: today) {
            programs.append(ProgramEffect(program: program, effect: try Effect(source, program: program, today: today, gap: gap)))
        }
        programs.sort { ($1.effect.totals.attempts, $0.program) < ($0.effect.totals.attempts, $1.program) }
        return EffectReport(overall: overall, programs: programs)
    }

    init<Source: EffectCounting>(_ source: Source, program: String?, today: LocalDay,
                                 gap: (start: LocalDay, days: Int)?) throws(Source.Failure) {
        self.today = today
        totals = try source.totals(program, through: today)
        firstDay = try source.firstDay(program, through: today)
        guard let first = firstDay?.number, today.number > first + Self.weekDays else {
            (enoughData, dismissal, attempts, openings, rebound) = (false, nil, nil, nil, nil)
            return
        }
        let firstWeek = try source.counts(program, days: (first + 1)...(first + Self.weekDays))
        let recentWeek = try source.counts(program, days: (today.number - Self.weekDays)...(today.number - 1))
        let apart = today.number - Self.weekDays > first + Self.weekDays
        enoughData = true
        dismissal = totals.pauses > 0
            ? Dismissal(exits: totals.exits, pauses: totals.pauses, days: today.number - first + 1) : nil
        attempts = WeekComparison(firstWeek: firstWeek.attempts, recentWeek: recentWeek.attempts, comparable: apart)
        openings = WeekComparison(firstWeek: firstWeek.openings, recentWeek: recentWeek.openings, comparable: apart)
        // A program first used after the gap has no days before it.
        guard let gap, gap.start.number - 1 >= first else {
            rebound = nil
            return
        }
        let lastBefore = gap.start.number - 1
        let before = max(first, lastBefore - Self.weekDays + 1)...lastBefore
        let firstAfter = gap.start.number + gap.days
        let lastAfter = min(firstAfter + Self.weekDays - 1, today.number - 1)
        let daysAfter = max(0, lastAfter - firstAfter + 1)
        let attemptsAfter = daysAfter > 0 ? try source.counts(program, days: firstAfter...lastAfter).attempts : 0
        rebound = Rebound(gapStart: gap.start, gapDays: gap.days, attemptsBefore: try source.counts(program, days: before).attempts,
                          attemptsAfter: attemptsAfter, daysBefore: before.count, daysAfter: daysAfter)
    }

    /// The latest run of `shortestGap` or more days without a session between two days with one.
    static func latestGap(in days: Set<LocalDay>) -> (start: LocalDay, days: Int)? {
        let sorted = days.map(\.number).sorted()
        for (earlier, later) in zip(sorted, sorted.dropFirst()).reversed() where later - earlier - 1 >= shortestGap {
            return (LocalDay(number: earlier + 1), later - earlier - 1)
        }
        return nil
    }
}

/// One program's effect.
public struct ProgramEffect: Equatable, Sendable {
    public let program: String
    public let effect: Effect
}

/// The effect over all programs together, and per program, most attempts first.
public struct EffectReport: Equatable, Sendable, Encodable {
    public let overall: Effect
    public let programs: [ProgramEffect]

    package init(overall: Effect, programs: [ProgramEffect]) {
        self.overall = overall
        self.programs = programs
    }

    /// The effect on `program`, if it has any counted session.
    public subscript(program: String) -> Effect? { programs.first { $0.program == program }?.effect }

    /// The report for `miga stats --json`, keys sorted.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = (try? encoder.encode(self)) ?? Data()
        return escapingControls(inJSON: String(decoding: data, as: UTF8.self)) + "\n"
    }
}

// MARK: JSON

extension Effect: Encodable {
    package enum CodingKeys: String, CodingKey {
        case program, enoughData = "enough_data", firstDay = "first_day", days, weekDays = "week_days"
        case attempts, pauses, consciousExits = "conscious_exits", openings
        case dismissalRate = "dismissal_rate"
        case attemptsFirst = "attempts_per_day_first_week", attemptsRecent = "attempts_per_day_recent_week"
        case attemptsChange = "attempts_change"
        case openingsFirst = "openings_per_day_first_week", openingsRecent = "openings_per_day_recent_week"
        case openingsChange = "openings_change"
        case rebound
    }

    enum ReboundKeys: String, CodingKey {
        case gapStart = "gap_start", gapDays = "gap_days", before = "attempts_per_day_before"
        case after = "attempts_per_day_after", daysBefore = "days_before", daysAfter = "days_after", flagged
    }

    /// Rates as fractions to 3 decimals, figures a day to 2, null when not available.
    public func encode(to encoder: Encoder) throws {
        try encode(to: encoder, program: nil)
    }

    package func encode(to encoder: Encoder, program: String?) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(program, forKey: .program)
        try container.encode(enoughData, forKey: .enoughData)
        try container.encode(firstDay?.description, forKey: .firstDay)
        try container.encode(days, forKey: .days)
        try container.encode(Self.weekDays, forKey: .weekDays)
        try container.encode(totals.attempts, forKey: .attempts)
        try container.encode(totals.pauses, forKey: .pauses)
        try container.encode(totals.exits, forKey: .consciousExits)
        try container.encode(totals.openings, forKey: .openings)
        try container.encode(dismissal.map { Self.rounded($0.rate, to: 3) }, forKey: .dismissalRate)
        try container.encode(attempts.map { Self.rounded($0.firstWeekPerDay, to: 2) }, forKey: .attemptsFirst)
        try container.encode(attempts.map { Self.rounded($0.recentWeekPerDay, to: 2) }, forKey: .attemptsRecent)
        try container.encode(attempts?.change.map { Self.rounded($0, to: 3) }, forKey: .attemptsChange)
        try container.encode(openings.map { Self.rounded($0.firstWeekPerDay, to: 2) }, forKey: .openingsFirst)
        try container.encode(openings.map { Self.rounded($0.recentWeekPerDay, to: 2) }, forKey: .openingsRecent)
        try container.encode(openings?.change.map { Self.rounded($0, to: 3) }, forKey: .openingsChange)
        if let rebound {
            var nested = container.nestedContainer(keyedBy: ReboundKeys.self, forKey: .rebound)
            try nested.encode(rebound.gapStart.description, forKey: .gapStart)
            try nested.encode(rebound.gapDays, forKey: .gapDays)
            try nested.encode(Self.rounded(rebound.perDayBefore, to: 2), forKey: .before)
            try nested.encode(Self.rounded(rebound.perDayAfter, to: 2), forKey: .after)
            try nested.encode(rebound.daysBefore, forKey: .daysBefore)
            try nested.encode(rebound.daysAfter, forKey: .daysAfter)
            try nested.encode(rebound.flagged, forKey: .flagged)
        } else {
            try container.encodeNil(forKey: .rebound)
        }
    }

    package static func rounded(_ value: Double, to decimals: Int) -> Double {
        let scale = pow(10, Double(decimals))
        return (value * scale).rounded() / scale
    }
}

extension ProgramEffect: Encodable {
    public func encode(to encoder: Encoder) throws {
        try effect.encode(to: encoder, program: program)
    }
}
