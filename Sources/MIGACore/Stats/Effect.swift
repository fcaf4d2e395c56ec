import FoundationEssentials

/// The effect of the pause on one program or on all of them, measured the
/// way one sec's field study measured its own (PNAS 2023): the share of
/// pauses dismissed, and the attempts and openings a day since the first
/// two weeks of use. Definitions in docs/STATS.md ("The effect of the pause").
public struct Effect: Equatable, Sendable {
    /// What one sec's study found: 36 % of opening attempts dismissed,
    /// attempts −37 % and openings −57 % after six weeks.
    public static let fieldStudyDismissal = 0.36
    public static let fieldStudyAttemptsChange = -0.37
    public static let fieldStudyOpeningsChange = -0.57
    /// The days of each span compared: the first two full weeks after the
    /// first day of use, and the two weeks ending yesterday. Two weeks, not
    /// one, so that a rhythm of every other day reads the same in both
    /// (a week after a day of use holds one day fewer of them than a week
    /// at random): see docs/STATS.md and EffectSimulationTests.
    public static let spanDays = 2 * LocalDay.daysInWeek
    /// The fewest of what is compared (attempts, or openings) that one of the
    /// two spans must hold for a change to be shown: one every other day.
    /// Asked of the larger of the two, so that the figures shown are not
    /// picked for a busy start (which would fake a drop) nor for a busy end.
    /// Simulated (EffectSimulationTests), 14 would hide more people and
    /// make a real fall of a third read as a half for those who use little.
    public static let leastCount = 7
    /// The fewest consecutive days without any session that make a gap.
    public static let shortestGap = 3

    /// Counts over every day counted (up to and including today).
    public struct Counts: Equatable, Sendable {
        public var attempts = 0
        public var pauses = 0
        public var exits = 0
        public var openings = 0
        /// Launches that went around the pause: beside the attempts, never among them.
        public var leaks = 0

        public init(attempts: Int = 0, pauses: Int = 0, exits: Int = 0, openings: Int = 0, leaks: Int = 0) {
            self.attempts = attempts
            self.pauses = pauses
            self.exits = exits
            self.openings = openings
            self.leaks = leaks
        }

        init(_ tally: DayTally) {
            self.init(attempts: tally.attempts, pauses: tally.pauses, exits: tally.exits, openings: tally.openings, leaks: tally.leaks)
        }

        package mutating func add(_ other: Counts) {
            attempts += other.attempts
            pauses += other.pauses
            exits += other.exits
            openings += other.openings
            leaks += other.leaks
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

    /// A count in the first two full weeks against the same count in the
    /// last two, each a day. Overall, the sums over the programs that count
    /// in both spans, each against its own first two weeks: the change is
    /// the change of those sums, so each program's own change weighs by its
    /// count (of attempts, or of openings) in its first two weeks.
    public struct Comparison: Equatable, Sendable {
        public let first: Int
        public let recent: Int
        /// False while the recent span still overlaps the first.
        public let comparable: Bool
        /// Whole weeks from the first span's first day to today: how long the change took.
        public var weeks = 0
        /// False when the recent span held no attempt and no launch around the
        /// pause (MIGA not run, the program not used): nothing to compare.
        public var inUse = true
        /// Launches around the pause in each span, shown beside the attempts:
        /// a fall in attempts that is a rise in these is no fall in use.
        public var firstLeaks = 0
        public var recentLeaks = 0
        public var days: Int { Effect.spanDays }
        public var firstPerDay: Double { Double(first) / Double(days) }
        public var recentPerDay: Double { Double(recent) / Double(days) }
        /// One of the spans holds `leastCount` or more: enough for a change to mean something.
        public var enoughUse: Bool { max(first, recent) >= Effect.leastCount }
        /// (recent per day − first per day) ÷ first per day, as a fraction
        /// (−0.37 for −37 %); nil until the spans are apart, with too little
        /// use in both, when the first had none to compare with, or when the
        /// recent span was not in use.
        public var change: Double? {
            guard comparable, inUse, enoughUse, first > 0 else { return nil }
            return Double(recent - first) / Double(first)
        }

        public init(first: Int, recent: Int, comparable: Bool, weeks: Int = 0, inUse: Bool = true,
                    leaks: (first: Int, recent: Int) = (0, 0)) {
            self.first = first
            self.recent = recent
            self.comparable = comparable
            self.weeks = weeks
            self.inUse = inUse
            (firstLeaks, recentLeaks) = leaks
        }

        /// The same, not to be compared yet.
        func notYetComparable() -> Comparison {
            Comparison(first: first, recent: recent, comparable: false, weeks: weeks, inUse: inUse,
                       leaks: (firstLeaks, recentLeaks))
        }

        /// The overall comparison from each program's own: the sums over the
        /// programs that count in both spans (comparable, in use lately,
        /// attempts in their first span), so a program protected or
        /// unprotected in between changes nothing. Nil when no program counts.
        static func combined(_ comparisons: [(attempts: Comparison, openings: Comparison)])
            -> (attempts: Comparison, openings: Comparison)? {
            let counted = comparisons.filter { $0.attempts.comparable && $0.attempts.inUse && $0.attempts.first > 0 }
            guard !counted.isEmpty else { return nil }
            let weeks = counted.map { $0.attempts.weeks }.max() ?? 0
            func sum(_ parts: [Comparison]) -> Comparison {
                Comparison(first: parts.reduce(0) { $0 + $1.first }, recent: parts.reduce(0) { $0 + $1.recent },
                           comparable: true, weeks: weeks,
                           leaks: (parts.reduce(0) { $0 + $1.firstLeaks }, parts.reduce(0) { $0 + $1.recentLeaks }))
            }
            return (sum(counted.map { $0.attempts }), sum(counted.map { $0.openings }))
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
        /// Full days counted before the gap: up to 7, from the day after the first day of use on.
        public let daysBefore: Int
        /// Days counted after the gap: up to 7, up to yesterday; 0 when it ended yesterday.
        public let daysAfter: Int
        public var perDayBefore: Double { Double(attemptsBefore) / Double(max(1, daysBefore)) }
        public var perDayAfter: Double { Double(attemptsAfter) / Double(max(1, daysAfter)) }
        /// More attempts a day after the gap than before it, by more than
        /// chance would give: `PoissonTest.higher` at `reboundLevel`.
        public var flagged: Bool {
            daysAfter > 0 && daysBefore > 0
                && PoissonTest.higher(attemptsAfter, in: daysAfter, than: attemptsBefore, in: daysBefore, level: Effect.reboundLevel)
        }
    }

    /// The days counted on each side of a gap, at most.
    public static let reboundDays = LocalDay.daysInWeek
    /// The level of the rebound's test: a rise flagged by chance once in twenty quiet breaks.
    public static let reboundLevel = 0.05

    /// The local day of the earliest counted session; nil without any.
    public let firstDay: LocalDay?
    public let today: LocalDay
    public let totals: Counts
    /// The first two full weeks: the 14 calendar days after the first day
    /// of use (which is partial), days without a session counting as none.
    /// Nil until they are over.
    public let firstWeeks: ClosedRange<LocalDay>?
    /// True once the first two full weeks are over; every figure below is nil before.
    public var enoughData: Bool { firstWeeks != nil }
    /// Nil without enough data or without a pause.
    public let dismissal: Dismissal?
    public let attempts: Comparison?
    public let openings: Comparison?
    /// Nil without enough data or without a gap while in use.
    public let rebound: Rebound?

    /// Days from the first day of use to today, both included; 0 without a session.
    public var days: Int { firstDay.map { max(0, today.number - $0.number + 1) } ?? 0 }

    /// The first day the recent span no longer overlaps the first two weeks.
    public var comparableFrom: LocalDay? { firstWeeks.map { LocalDay(number: $0.upperBound.number + Self.spanDays + 1) } }

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
        var programs: [ProgramEffect] = []
        for program in try source.programs(through: today) {
            programs.append(ProgramEffect(program: program, effect: try Effect(source, program: program, today: today, gap: gap)))
        }
        programs.sort { ($1.effect.totals.attempts, $0.program) < ($0.effect.totals.attempts, $1.program) }
        let own = try Effect(source, program: nil, today: today, gap: gap)
        let combined = Comparison.combined(programs.compactMap { program in
            program.effect.attempts.flatMap { attempts in program.effect.openings.map { (attempts, $0) } }
        })
        return EffectReport(overall: own.comparing(combined), programs: programs)
    }

    init<Source: EffectCounting>(_ source: Source, program: String?, today: LocalDay,
                                 gap: (start: LocalDay, days: Int)?) throws(Source.Failure) {
        self.today = today
        totals = try source.totals(program, through: today)
        firstDay = try source.firstDay(program, through: today)
        // Calendar days, as the recent span is counted: a span chosen by its
        // sessions (the first days with use) would hold more use than a span
        // of the same length at random, and fake a drop.
        guard let first = firstDay?.number, today.number > first + Self.spanDays else {
            (firstWeeks, dismissal, attempts, openings, rebound) = (nil, nil, nil, nil, nil)
            return
        }
        let span = (first + 1)...(first + Self.spanDays)
        firstWeeks = LocalDay(number: span.lowerBound)...LocalDay(number: span.upperBound)
        let firstCounts = try source.counts(program, days: span)
        let recent = (today.number - Self.spanDays)...(today.number - 1)
        let recentCounts = try source.counts(program, days: recent)
        let apart = recent.lowerBound > span.upperBound
        let weeks = (today.number - span.lowerBound) / LocalDay.daysInWeek
        let inUse = recentCounts.attempts > 0 || recentCounts.leaks > 0
        dismissal = totals.pauses > 0
            ? Dismissal(exits: totals.exits, pauses: totals.pauses, days: today.number - first + 1) : nil
        attempts = Comparison(first: firstCounts.attempts, recent: recentCounts.attempts, comparable: apart,
                              weeks: weeks, inUse: inUse, leaks: (firstCounts.leaks, recentCounts.leaks))
        openings = Comparison(first: firstCounts.openings, recent: recentCounts.openings, comparable: apart,
                              weeks: weeks, inUse: inUse)
        rebound = try Self.rebound(source, program: program, firstDay: first, today: today, gap: gap)
    }

    private init(_ other: Effect, attempts: Comparison?, openings: Comparison?) {
        (firstDay, today, totals, firstWeeks) = (other.firstDay, other.today, other.totals, other.firstWeeks)
        (dismissal, rebound) = (other.dismissal, other.rebound)
        (self.attempts, self.openings) = (attempts, openings)
    }

    /// The overall effect with its changes from the programs' own (`Comparison.combined`).
    /// Without a program that counts, the overall spans still show; no change
    /// does: the programs used lately have no first two weeks apart from it yet.
    func comparing(_ combined: (attempts: Comparison, openings: Comparison)?) -> Effect {
        if let combined, enoughData { return Effect(self, attempts: combined.attempts, openings: combined.openings) }
        return attempts?.change == nil ? self
            : Effect(self, attempts: attempts?.notYetComparable(), openings: openings?.notYetComparable())
    }

    /// The rebound after `gap`: the full days before it (never the first day
    /// of use, which is partial) against the days after it, up to yesterday.
    static func rebound<Source: EffectCounting>(_ source: Source, program: String?, firstDay first: Int, today: LocalDay,
                                                gap: (start: LocalDay, days: Int)?) throws(Source.Failure) -> Rebound? {
        // A program first used after the gap, or on the day before it, has no full day before it.
        guard let gap, gap.start.number - 1 > first else { return nil }
        let lastBefore = gap.start.number - 1
        let before = max(first + 1, lastBefore - Self.reboundDays + 1)...lastBefore
        let firstAfter = gap.start.number + gap.days
        let lastAfter = min(firstAfter + Self.reboundDays - 1, today.number - 1)
        let daysAfter = max(0, lastAfter - firstAfter + 1)
        let attemptsAfter = daysAfter > 0 ? try source.counts(program, days: firstAfter...lastAfter).attempts : 0
        return Rebound(gapStart: gap.start, gapDays: gap.days, attemptsBefore: try source.counts(program, days: before).attempts,
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

