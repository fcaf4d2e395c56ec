import FoundationEssentials
import MIGACore

extension SessionStore {
    /// Each program's counts per local day, for the effect of the pause and
    /// the weekly look back, the launches around the pause among them:
    /// grouped in SQL over the covering indexes, one query per stretch of the
    /// zone's history with one UTC offset, so days stay right across DST
    /// changes (as `DayTally.tallies` counts records).
    public func dayTallies(in timeZone: LocalZone) throws -> [DayTally] {
        let range = try queue.read { db in
            try Row.fetchOne(db, sql: """
                SELECT MIN(first), MAX(last) FROM (
                    SELECT MIN(ended_at) AS first, MAX(ended_at) AS last FROM sessions WHERE outcome != 'open'
                    UNION ALL SELECT MIN(seen_at), MAX(seen_at) FROM leaks)
                """)
        }
        guard let row = range, let first = row[0] as Int64?, let last = row[1] as Int64? else { return [] }
        var tallies: [String: DayTally] = [:]
        func add(_ row: Row, _ fill: (inout DayTally) -> Void) {
            let program: String = row[0]
            let day = LocalDay(number: row[1])
            var tally = tallies["\(day.number) \(program)"] ?? DayTally(program: program, day: day)
            fill(&tally)
            tallies["\(day.number) \(program)"] = tally
        }
        for period in OffsetPeriods(timeZone: timeZone, from: Date(milliseconds: first), through: Date(milliseconds: last)) {
            let offset = Int64(period.offset) * 1000
            let bounds: StatementArguments = [period.start.milliseconds, period.end.milliseconds]
            try queue.read { db in
                for row in try Row.fetchAll(db, sql: """
                    SELECT program, (ended_at + \(offset)) / 86400000 AS day, COUNT(*),
                           COUNT(*) FILTER (WHERE outcome != 'passthrough'),
                           COUNT(*) FILTER (WHERE outcome = 'exit'),
                           COUNT(*) FILTER (WHERE outcome IN ('proceed', 'passthrough'))
                    FROM sessions WHERE outcome != 'open' AND ended_at >= ? AND ended_at < ?
                    GROUP BY program, day
                    """, arguments: bounds) {
                    add(row) { tally in
                        tally.attempts += row[2]
                        tally.pauses += row[3]
                        tally.exits += row[4]
                        tally.openings += row[5]
                    }
                }
                for row in try Row.fetchAll(db, sql: """
                    SELECT program, (seen_at + \(offset)) / 86400000 AS day, COUNT(*)
                    FROM leaks WHERE seen_at >= ? AND seen_at < ? GROUP BY program, day
                    """, arguments: bounds) {
                    add(row) { $0.leaks += row[2] }
                }
            }
        }
        return tallies.values.sorted { ($0.day, $0.program) < ($1.day, $1.program) }
    }

    /// The effect's counts, answered from the indexes: a week's sessions, a
    /// few minimums, a walk back over days for the latest gap. `allTime`:
    /// each program's totals over all time and every device, when the caller
    /// has them (the stats read them anyway); else they are read here.
    public func effectCounts(in timeZone: LocalZone, allTime: [String: Totals]? = nil) throws -> StoreEffectCounts {
        let totals = try allTime ?? Dictionary(uniqueKeysWithValues: totalsByProgram(Scope()).map { ($0.program, $0.totals) })
        return StoreEffectCounts(store: self, timeZone: timeZone, allTime: totals.mapValues(Effect.Counts.init))
    }

    /// The effect as of `today`, every question asked in one read: a
    /// measurement is some seventy small questions, each statement prepared once.
    public func measureEffect(in timeZone: LocalZone, allTime: [String: Totals]? = nil, today: LocalDay) throws -> EffectReport {
        let counts = try effectCounts(in: timeZone, allTime: allTime)
        return try queue.read { db in try Effect.measure(counts.reading(db), today: today) }
    }

    /// Each kind's record of `program`, or of every program together (nil):
    /// the rows of the kinds table in `miga stats`. See `kindRecordsByProgram`.
    public func kindRecords(program: String? = nil, allTime: [String: Totals]? = nil) throws -> [PauseKind: KindRecord] {
        KindRecord.total(of: try kindRecordsByProgram(allTime: allTime), program: program)
    }

    /// Each program's record of each kind, for the stats' kinds table (the
    /// favourite is counted from `learnedPauses`, and the gateway chooses by `kindJournal`).
    /// `allTime`: each program's totals over all time and every device, when
    /// the caller has them. While every pause has been a breathing one (the
    /// default: a look down the index tells), the records are those totals,
    /// and the history is not read again.
    public func kindRecordsByProgram(allTime: [String: Totals]? = nil) throws -> [String: [PauseKind: KindRecord]] {
        try queue.read { db in
            // Any kind but breathe sorts before or after it; NULL (before there were kinds) is neither.
            let otherKinds = try db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM sessions WHERE program = ? AND kind < 'breathe')
                    OR EXISTS (SELECT 1 FROM sessions WHERE program = ? AND kind > 'breathe')
                """)
            if let allTime, try allTime.keys.allSatisfy({ try !(Bool.fetchOne(otherKinds, arguments: [$0, $0]) ?? true) }) {
                return allTime.filter { $0.value.sessions > 0 }
                    .mapValues { [.breathe: KindRecord(shown: $0.sessions, exits: $0.exits)] }
            }
            return try Self.kindRecordsByProgram(db)
        }
    }

    /// Each kind's pauses that ended, and the exits among them, by program,
    /// read from the history: every program's for the stats
    /// (`kindRecordsByProgram(allTime:)`), or only `program`'s, which the
    /// gateway chooses a kind by (`kindJournal`). Pauses from before there
    /// were kinds were breathing pauses.
    static func kindRecordsByProgram(_ db: Connection, program: String? = nil) throws -> [String: [PauseKind: KindRecord]] {
        var records: [String: [PauseKind: KindRecord]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT program, COALESCE(kind, 'breathe'), COUNT(*), COUNT(*) FILTER (WHERE outcome = 'exit')
            FROM sessions INDEXED BY sessions_by_program_kind_and_outcome
            WHERE outcome IN ('exit', 'proceed', 'abandoned')\(program == nil ? "" : " AND program = ?")
            GROUP BY program, kind
            """, arguments: StatementArguments(program.map { [$0] } ?? [])) {
            guard let kind = PauseKind(rawValue: row[1]) else { continue }
            let program: String = row[0]
            // NULL and 'breathe' are both breathing pauses: two groups, one record.
            records[program, default: [:]][kind, default: KindRecord()].add(KindRecord(shown: row[2], exits: row[3]))
        }
        return records
    }
}

/// The effect's counts from the store. Every question is a range of one
/// index, so the cost follows the days asked about, not the history's size.
public struct StoreEffectCounts: EffectCounting {
    let store: SessionStore
    let timeZone: LocalZone
    let allTime: [String: Effect.Counts]
    /// Inside a read already begun (`SessionStore.measureEffect`): its connection; nil, a read per question.
    private var database: Connection?

    init(store: SessionStore, timeZone: LocalZone, allTime: [String: Effect.Counts]) {
        self.store = store
        self.timeZone = timeZone
        self.allTime = allTime
    }

    /// The same counts, asked on `db` inside its read.
    func reading(_ db: Connection) -> StoreEffectCounts {
        var counts = self
        counts.database = db
        return counts
    }

    private func read<T>(_ body: (Connection) throws -> T) throws -> T {
        if let database { return try body(database) }
        return try store.queue.read(body)
    }

    private func start(of day: Int) -> Int64 { LocalDay(number: day).start(in: timeZone).milliseconds }

    public func programs(through today: LocalDay) throws -> [String] {
        try allTime.keys.sorted().filter { try firstDay($0, through: today) != nil }
    }

    public func firstDay(_ program: String?, through today: LocalDay) throws -> LocalDay? {
        // The earliest of each outcome: a minimum the index answers at once.
        let earliest = try read { db in
            let statement = try db.cachedStatement(sql: "SELECT MIN(ended_at) FROM sessions WHERE outcome = ?\(program == nil ? "" : " AND program = ?")")
            return try ["exit", "proceed", "abandoned", "passthrough"].compactMap { outcome in
                try Int64.fetchOne(statement, arguments: StatementArguments([outcome] + (program.map { [$0] } ?? [])))
            }.min()
        }
        return earliest.map { LocalDay(Date(milliseconds: $0), in: timeZone) }.flatMap { $0 <= today ? $0 : nil }
    }

    public func counts(_ program: String?, days: ClosedRange<Int>) throws -> Effect.Counts {
        let (from, before) = (start(of: days.lowerBound), start(of: days.upperBound + 1))
        var counts = try counts(program, from: from, before: before)
        counts.leaks = try leaks(program, from: from, before: before)
        return counts
    }

    /// The launches around the pause first seen in a span, down the index by time.
    private func leaks(_ program: String?, from: Int64?, before: Int64) throws -> Int {
        try read { db in
            let statement = try db.cachedStatement(sql: """
                SELECT COUNT(*) FROM leaks WHERE seen_at >= ? AND seen_at < ?\(program == nil ? "" : " AND program = ?")
                """)
            return try Int.fetchOne(statement, arguments: StatementArguments([from ?? Int64.min, before] + (program.map { [$0] } ?? []))) ?? 0
        }
    }

    private func counts(_ program: String?, from: Int64?, before: Int64?) throws -> Effect.Counts {
        var conditions = ["outcome = ?"]
        var arguments: [any ColumnValue] = []
        if let program { conditions.append("program = ?"); arguments.append(program) }
        if let from { conditions.append("ended_at >= ?"); arguments.append(from) }
        if let before { conditions.append("ended_at < ?"); arguments.append(before) }
        return try read { db in
            // An outcome at a time, each one range of an index: a list after IN would be
            // built into a temporary table at every question, and there are dozens.
            let statement = try db.cachedStatement(sql: "SELECT COUNT(*) FROM sessions WHERE \(conditions.joined(separator: " AND "))")
            func count(_ outcome: SessionOutcome) throws -> Int {
                try Int.fetchOne(statement, arguments: StatementArguments([outcome.rawValue] + arguments)) ?? 0
            }
            let (exits, proceeds, abandoned) = (try count(.exit), try count(.proceed), try count(.abandoned))
            return Effect.Counts(Totals(sessions: exits + proceeds + abandoned, exits: exits, proceeds: proceeds, abandoned: abandoned,
                                        passThroughs: try count(.passthrough)))
        }
    }

    public func totals(_ program: String?, through today: LocalDay) throws -> Effect.Counts {
        // All time, less the few sessions dated after today (a clock ahead on another machine).
        var totals = Effect.Counts()
        for (name, counts) in allTime where program == nil || name == program { totals.add(counts) }
        let later = try counts(program, from: start(of: today.number + 1), before: nil)
        return Effect.Counts(attempts: totals.attempts - later.attempts, pauses: totals.pauses - later.pauses,
                             exits: totals.exits - later.exits, openings: totals.openings - later.openings,
                             leaks: try leaks(program, from: nil, before: start(of: today.number + 1)))
    }

    public func latestGap(through today: LocalDay) throws -> (start: LocalDay, days: Int)? {
        // Back from the latest day with a session, `shortestGap` days at a
        // step: any run of that many days without one holds a day stepped on,
        // so a history without a gap costs a look down the index for every
        // third day it spans, not one for each day.
        let gap = Effect.shortestGap
        return try read { db in
            // Down the index by end, which holds the order asked for: left to itself, the planner
            // takes the one by outcome and sorts in a temporary b-tree at every step. Every
            // outcome but 'open' is counted (the table's CHECK allows no other): a list after
            // IN would be built into a temporary table at every step too.
            let latest = try db.cachedStatement(sql: """
                SELECT ended_at FROM sessions INDEXED BY sessions_by_end
                WHERE ended_at < ? AND outcome != 'open' ORDER BY ended_at DESC LIMIT 1
                """)
            let earliest = try db.cachedStatement(sql: """
                SELECT ended_at FROM sessions INDEXED BY sessions_by_end
                WHERE ended_at >= ? AND outcome != 'open' ORDER BY ended_at LIMIT 1
                """)
            /// The latest day with a session on or before `day`, never after it.
            func latestDay(through day: Int) throws -> Int? {
                try Int64.fetchOne(latest, arguments: [start(of: day + 1)])
                    .map { min(LocalDay(Date(milliseconds: $0), in: timeZone).number, day) }
            }
            // Every run without a session after `later` (a day with one) is shorter than a gap.
            guard var later = try latestDay(through: today.number) else { return nil }
            while true {
                let probe = later - gap
                guard let found = try latestDay(through: probe) else { return nil }
                if found < probe {
                    // The probed day had none: the run around it ends before the next day with a session.
                    let next = try Int64.fetchOne(earliest, arguments: [start(of: probe + 1)])
                        .map { max(LocalDay(Date(milliseconds: $0), in: timeZone).number, probe + 1) } ?? later
                    let days = min(next, later) - found - 1
                    if days >= gap { return (LocalDay(number: found + 1), days) }
                }
                later = found
            }
        }
    }
}
