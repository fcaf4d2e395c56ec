import FoundationEssentials
import MIGACore

/// The queries behind the numbers: aggregates over indexed rows, so that a
/// history of a million sessions still answers in a fraction of a second.
extension SessionStore {
    /// Which rows a query counts.
    package struct Scope {
        package var from: Date?
        package var until: Date?
        package var program: String?
        /// The machine the sessions happened on: '' for this one, else a device id.
        package var device: String?

        package init(from: Date? = nil, until: Date? = nil, program: String? = nil, device: String? = nil) {
            self.from = from
            self.until = until
            self.program = program
            self.device = device
        }

        /// The WHERE clause and its arguments (completed rows only: an `open` row is a pause in progress).
        var condition: (sql: String, arguments: StatementArguments) {
            var clauses = ["outcome != 'open'"]
            var arguments: StatementArguments = []
            if let from {
                clauses.append("ended_at >= ?")
                arguments += [from.milliseconds]
            }
            if let until {
                clauses.append("ended_at < ?")
                arguments += [until.milliseconds]
            }
            if let program {
                clauses.append("program = ?")
                arguments += [program]
            }
            if let device, device.isEmpty {
                clauses.append("device = '' AND origin = ''")
            } else if let device {
                clauses.append("(origin = ? OR (origin = '' AND device = ?))")
                arguments += [device, device]
            }
            return (clauses.joined(separator: " AND "), arguments)
        }
    }

    package func totals(_ scope: Scope) throws -> Totals {
        try totalsByProgram(scope).reduce(into: Totals()) { sum, entry in sum.add(entry.totals) }
    }

    /// Totals per program, most sessions first: one pass over the covering
    /// index (program, outcome, device, paused_seconds), never the rows.
    package func totalsByProgram(_ scope: Scope) throws -> [(program: String, totals: Totals)] {
        let (condition, arguments) = scope.condition
        return try queue.read { db in
            var byProgram: [String: Totals] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT program, outcome, COUNT(*), TOTAL(paused_seconds) FROM sessions WHERE \(condition)
                GROUP BY program, outcome
                """, arguments: arguments) {
                let count: Int = row[2]
                var totals = Totals(pausedSeconds: row[3])
                switch SessionOutcome(rawValue: row[1]) {
                case .exit: (totals.sessions, totals.exits) = (count, count)
                case .proceed: (totals.sessions, totals.proceeds) = (count, count)
                case .abandoned: (totals.sessions, totals.abandoned) = (count, count)
                case .passthrough: totals.passThroughs = count
                case .open, nil: continue
                }
                byProgram[row[0], default: Totals()].add(totals)
            }
            return byProgram.map { ($0.key, $0.value) }
                .sorted { ($0.totals.sessions, $1.program) > ($1.totals.sessions, $0.program) }
        }
    }


    /// Exits and proceeds in each of the given periods (local days), in one pass.
    package func exitsAndProceeds(in periods: [(start: Date, end: Date)], _ scope: Scope) throws -> [(exits: Int, proceeds: Int)] {
        guard !periods.isEmpty else { return [] }
        var scope = scope
        scope.from = periods.map(\.start).min()
        scope.until = periods.map(\.end).max()
        let (condition, arguments) = scope.condition
        let values = periods.indices.map { _ in "(?, ?, ?)" }.joined(separator: ", ")
        var all: StatementArguments = []
        for (index, period) in periods.enumerated() { all += [index, period.start.milliseconds, period.end.milliseconds] }
        all += arguments
        return try queue.read { db in
            var counts = Array(repeating: (exits: 0, proceeds: 0), count: periods.count)
            for row in try Row.fetchAll(db, sql: """
                WITH periods(number, start, finish) AS (VALUES \(values))
                SELECT periods.number,
                       COUNT(*) FILTER (WHERE outcome = 'exit'),
                       COUNT(*) FILTER (WHERE outcome = 'proceed')
                FROM periods JOIN sessions ON ended_at >= periods.start AND ended_at < periods.finish
                WHERE \(condition)
                GROUP BY periods.number
                """, arguments: all) {
                counts[row[0]] = (row[1], row[2])
            }
            return counts
        }
    }

    /// The local days with at least one conscious exit. Each stretch of the
    /// zone's history with one UTC offset is a query of its own, so the
    /// grouping by day happens in SQL and stays right across DST changes.
    package func exitDays(in timeZone: LocalZone, _ scope: Scope) throws -> Set<LocalDay> {
        var scope = scope
        let (condition, arguments) = scope.condition
        let range = try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT MIN(ended_at), MAX(ended_at) FROM sessions WHERE outcome = 'exit' AND \(condition)",
                             arguments: arguments)
        }
        guard let row = range, let first = row[0] as Int64?, let last = row[1] as Int64? else { return [] }
        var days: Set<LocalDay> = []
        for period in OffsetPeriods(timeZone: timeZone, from: Date(milliseconds: first), through: Date(milliseconds: last)) {
            scope.from = period.start
            scope.until = period.end
            let (condition, arguments) = scope.condition
            let offset = Int64(period.offset) * 1000
            try queue.read { db in
                for number in try Int.fetchAll(db, sql: """
                    SELECT DISTINCT (ended_at + \(offset)) / 86400000 FROM sessions
                    WHERE outcome = 'exit' AND \(condition)
                    """, arguments: arguments) {
                    days.insert(LocalDay(number: number))
                }
            }
        }
        return days
    }
}

/// The stretches of a time zone's history with one UTC offset each, from its
/// transitions (daylight saving time), covering an interval.
struct OffsetPeriods: Sequence {
    let timeZone: LocalZone
    let from: Date
    let through: Date

    func makeIterator() -> AnyIterator<(start: Date, end: Date, offset: Int)> {
        var cursor: Date? = from
        return AnyIterator {
            guard let start = cursor, start <= through else { return nil }
            let next = timeZone.nextOffsetChange(after: start, through: through)
            let end = next.map { Swift.min($0, through.addingTimeInterval(0.001)) } ?? through.addingTimeInterval(0.001)
            cursor = next.flatMap { $0 <= through ? $0 : nil }
            return (start, end, timeZone.secondsFromGMT(for: start))
        }
    }
}
