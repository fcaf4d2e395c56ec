import FoundationEssentials
import MIGACore
import MIGAStore
import MIGAConfig

/// One local day of the chart.
public struct DayCount: Equatable, Sendable {
    public let day: LocalDay
    public let exits: Int
    public let proceeds: Int
}

/// One program's line of the table.
public struct ProgramCount: Equatable, Sendable {
    public let program: String
    public let totals: Totals
}

/// Which part of the history the numbers cover.
public struct StatsFilter: Equatable, Sendable {
    /// Only the last N local days (cards and table); the chart shows N days.
    public var days: Int?
    public var program: String?
    /// One device of those that sync a history, by its full id (this
    /// machine's too); nil means all of them. See `SessionStore.device(named:)`.
    public var device: String?

    public init(days: Int? = nil, program: String? = nil, device: String? = nil) {
        self.days = days
        self.program = program
        self.device = device
    }
}

/// Everything `miga stats` shows.
public struct StatsReport: Equatable, Sendable {
    public let filter: StatsFilter
    public let today: LocalDay
    public let totals: Totals
    public let streak: Streak
    /// The chart: oldest day first, ending today.
    public let days: [DayCount]
    public let programs: [ProgramCount]
    /// The last 7 local days, and the 7 before them: the trend arrows. With
    /// `--days` under 7, the last N days and the N before, so that no figure
    /// on the screen covers more than the filter asks.
    public let thisWeek: Totals
    public let lastWeek: Totals
    /// How many days `thisWeek` covers.
    public var weekDays: Int { min(LocalDay.daysInWeek, filter.days ?? LocalDay.daysInWeek) }
    /// Those days in words: "this week", "today", "these 3 days".
    public var weekWords: String {
        switch weekDays {
        case LocalDay.daysInWeek: "this week"
        case 1: "today"
        case let days: "these \(days) days"
        }
    }
    /// Launches of this machine's protected programs that went around the pause in those days.
    public var leaks: [RecordedLeak] = []
    /// The effect of the pause as the field measures it, per program and
    /// overall, over the whole history (neither --days nor --device narrows it).
    public var effect: EffectReport?
    /// Each kind of pause: shown, exits, the rate with its interval, and what MIGA favours per program.
    public var kinds: KindTable?

    /// The effect as `miga stats` shows it, on screen and in --json: under
    /// --program that program's alone (its `overall` is the program's, "not
    /// enough data" when it has no session), else every program's and all together.
    public var effectShown: EffectReport? {
        guard let effect, let program = filter.program else { return effect }
        let own = effect.programs.filter { $0.program == program }
        return EffectReport(overall: own.first?.effect ?? Effect.measure([], today: today).overall, programs: own)
    }

    /// The leaks counted by route, most first: `[("at login", 2), ("from /snap/bin/firefox", 1)]`.
    public var leakRoutes: [(route: String, count: Int)] {
        var counts: [String: Int] = [:]
        for leak in leaks { counts[leak.route.shortName, default: 0] += 1 }
        return counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { ($0.key, $0.value) }
    }

    /// The seed's hoped-for share of conscious exits.
    public static let hopedForBand = 18...30
    /// The share that one sec's users reached in its field study (PNAS 2023).
    public static let fieldStudyShare = 36
    public static let chartDays = 30

    /// Computes the report from `store` as of `now`, counting days in `timeZone`.
    /// - Parameters:
    ///   - config: the kinds of pause in use, everyone's and each program's.
    ///   - unrecordedLeaks: launches around the pause seen now and recorded by
    ///     no run yet, counted with the recorded ones (see `Upkeep`).
    ///   - hasLinesToType, hasAlternatives: whether a typed pause has a line to
    ///     type, and whether there is an alternative to offer (see `Config.kindsInUse`).
    public static func compute(from store: SessionStore, filter: StatsFilter = StatsFilter(), now: Date,
                               timeZone: LocalZone, config: Config = Config(), unrecordedLeaks: [RecordedLeak] = [],
                               hasLinesToType: () -> Bool = { true },
                               hasAlternatives: () -> Bool = { false }) throws -> StatsReport {
        let today = LocalDay(now, in: timeZone)
        // Local midnights, by local days: a 23- or 25-hour day is one day.
        func midnight(daysAgo: Int) -> Date { LocalDay(number: today.number - daysAgo).start(in: timeZone) }
        let tomorrow = today.next.start(in: timeZone)

        let device = try filter.device.map { $0 == (try store.deviceID()) ? "" : $0 }
        var scope = SessionStore.Scope(program: filter.program, device: device)
        if let days = filter.days { scope.from = midnight(daysAgo: days - 1) }
        let programs = try store.totalsByProgram(scope).map { ProgramCount(program: $0.program, totals: $0.totals) }
        let totals = programs.reduce(into: Totals()) { sum, program in sum.add(program.totals) }

        let chartLength = max(1, filter.days ?? chartDays)
        let periods = (0..<chartLength).reversed().map { daysAgo in
            (start: midnight(daysAgo: daysAgo), end: daysAgo == 0 ? tomorrow : midnight(daysAgo: daysAgo - 1))
        }
        var unbounded = scope
        unbounded.from = nil
        let counts = try store.exitsAndProceeds(in: periods, unbounded)
        let days = counts.enumerated().map { index, count in
            DayCount(day: LocalDay(number: today.number - (chartLength - 1 - index)), exits: count.exits, proceeds: count.proceeds)
        }

        var week = unbounded
        let span = min(LocalDay.daysInWeek, filter.days ?? LocalDay.daysInWeek)  // weekDays, before there is a report
        week.from = midnight(daysAgo: span - 1)
        week.until = tomorrow
        let thisWeek = try store.totals(week)
        week.from = midnight(daysAgo: 2 * span - 1)
        week.until = midnight(daysAgo: span - 1)
        let lastWeek = try store.totals(week)

        let streak = Streak(exitDays: try store.exitDays(in: timeZone, unbounded), today: today)
        var report = StatsReport(filter: filter, today: today, totals: totals, streak: streak, days: days, programs: programs,
                                 thisWeek: thisWeek, lastWeek: lastWeek)
        // Leaks are seen on this machine only.
        if device == nil || device == "" {
            report.leaks = try store.leaks(since: midnight(daysAgo: span - 1), program: filter.program)
                + unrecordedLeaks.filter { filter.program == nil || $0.program == filter.program }
        }
        // The effect and the kinds are of all time and every device: the totals
        // above are those when nothing narrows them.
        let narrowed = filter.days != nil || device != nil || filter.program != nil
        let allTime = Dictionary(uniqueKeysWithValues: try (narrowed ? store.totalsByProgram(SessionStore.Scope()) : programs.map { ($0.program, $0.totals) })
            .map { ($0.program, $0.totals) })
        report.effect = try store.measureEffect(in: timeZone, allTime: allTime, today: today)
        report.kinds = try kindTable(store, filter: filter, allTime: allTime, config: config, now: now, timeZone: timeZone,
                                     hasLinesToType: hasLinesToType, hasAlternatives: hasAlternatives)
        return report
    }

    /// The kinds table: the kinds in use (everyone's and every protected
    /// program's, or the one program's) and what MIGA favours, per program,
    /// where it chooses: from that program's own pauses, its successes counted
    /// as the learner counts them (`KindFavourite`).
    static func kindTable(_ store: SessionStore, filter: StatsFilter, allTime: [String: Totals], config: Config,
                          now: Date, timeZone: LocalZone,
                          hasLinesToType: () -> Bool, hasAlternatives: () -> Bool) throws -> KindTable {
        let byProgram = try store.kindRecordsByProgram(allTime: allTime)
        var (alternatives, lines): (Bool?, Bool?)
        let hasAny = {
            if alternatives == nil { alternatives = hasAlternatives() }
            return alternatives!
        }
        let hasLines = {
            if lines == nil { lines = hasLinesToType() }
            return lines!
        }
        var kinds = filter.program == nil ? config.pauseKinds : []
        var favourites: [KindTable.Favourite] = []
        var leftOut: [String] = []
        // The protected sites' kinds too, beside the programs'.
        let protected = config.programs.keys.sorted() + config.protectedSites.map(\.historyName)
        for program in filter.program.map({ [$0] }) ?? protected {
            let settings = config.settings(for: program)
            let inUse = config.kindsInUse(for: settings, hasLinesToType: hasLines, hasAlternatives: hasAny)
            kinds += inUse.kinds
            leftOut += inUse.leftOut.map { KindSupply.leftOutLine($0, name: settings.displayName) }
            // Every pause since the learner began there, its successes counted as the learner counts them.
            let pauses = inUse.learns ? try store.learnedPauses(program: program, now: now, timeZone: timeZone) : []
            if let kind = KindTable.favourite(after: pauses, among: inUse) {
                favourites.append(KindTable.Favourite(program: program, name: settings.displayName, kind: kind))
            }
        }
        let records = KindRecord.total(of: byProgram, program: filter.program)
        let table = KindTable(records: records, held: nil, kinds: kinds, favourites: favourites, program: filter.program, leftOut: leftOut)
        // The exits that held cost a look per exit: counted where the table compares kinds, not for breathing alone.
        guard table.comparesKinds else { return table }
        let held = try store.heldExitsByProgram(now: now, timeZone: timeZone).filter { filter.program == nil || $0.key == filter.program }
            .values.reduce(into: [PauseKind: Int]()) { sum, kinds in sum.merge(kinds, uniquingKeysWith: +) }
        return KindTable(records: records, held: held, kinds: kinds, favourites: favourites, program: filter.program, leftOut: leftOut)
    }
}

extension StatsReport {
    /// The streak alone, as the celebration and the hub need it; the same code as `miga stats`.
    public static func streak(from store: SessionStore, now: Date, timeZone: LocalZone) throws -> Streak {
        Streak(exitDays: try store.exitDays(in: timeZone, SessionStore.Scope()), today: LocalDay(now, in: timeZone))
    }
}
