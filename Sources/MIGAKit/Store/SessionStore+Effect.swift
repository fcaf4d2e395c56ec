import Foundation
import GRDB

extension SessionStore {
    /// Each program's counts per local day, for the effect of the pause and
    /// the weekly look back: grouped in SQL over the covering index, one
    /// query per stretch of the zone's history with one UTC offset, so days
    /// stay right across DST changes (as `DayTally.tallies` counts records).
    public func dayTallies(in timeZone: TimeZone) throws -> [DayTally] {
        let range = try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT MIN(ended_at), MAX(ended_at) FROM sessions WHERE outcome != 'open'")
        }
        guard let row = range, let first = row[0] as Int64?, let last = row[1] as Int64? else { return [] }
        var tallies: [String: DayTally] = [:]
        for period in OffsetPeriods(timeZone: timeZone, from: Date(milliseconds: first), through: Date(milliseconds: last)) {
            let offset = Int64(period.offset) * 1000
            try queue.read { db in
                for row in try Row.fetchAll(db, sql: """
                    SELECT program, (ended_at + \(offset)) / 86400000 AS day, COUNT(*),
                           COUNT(*) FILTER (WHERE outcome != 'passthrough'),
                           COUNT(*) FILTER (WHERE outcome = 'exit'),
                           COUNT(*) FILTER (WHERE outcome IN ('proceed', 'passthrough'))
                    FROM sessions WHERE outcome != 'open' AND ended_at >= ? AND ended_at < ?
                    GROUP BY program, day
                    """, arguments: [period.start.milliseconds, period.end.milliseconds]) {
                    let program: String = row[0]
                    let day = LocalDay(number: row[1])
                    var tally = tallies["\(day.number) \(program)"] ?? DayTally(program: program, day: day)
                    tally.attempts += row[2]
                    tally.pauses += row[3]
                    tally.exits += row[4]
                    tally.openings += row[5]
                    tallies["\(day.number) \(program)"] = tally
                }
            }
        }
        return tallies.values.sorted { ($0.day, $0.program) < ($1.day, $1.program) }
    }

    /// Each kind's record per program, and overall (program nil): the kinds
    /// table of `miga stats`. Pauses from before there were kinds were breathing pauses.
    public func kindRecords(program: String? = nil) throws -> [PauseKind: KindRecord] {
        try queue.read { db in try Self.kindRecords(db, program: program) }
    }

    /// Each kind's pauses that ended, and the exits among them, of `program`
    /// (all programs when nil). Pauses from before there were kinds were breathing pauses.
    static func kindRecords(_ db: Database, program: String?) throws -> [PauseKind: KindRecord] {
        var records: [PauseKind: KindRecord] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT COALESCE(kind, 'breathe'), COUNT(*), COUNT(*) FILTER (WHERE outcome = 'exit') FROM sessions
            WHERE outcome IN ('exit', 'proceed', 'abandoned') \(program == nil ? "" : "AND program = ?") GROUP BY 1
            """, arguments: StatementArguments(program.map { [$0] } ?? [])) {
            guard let kind = PauseKind(rawValue: row[0]) else { continue }
            records[kind] = KindRecord(shown: row[1], exits: row[2])
        }
        return records
    }
}
