import FoundationEssentials
import MIGACore

/// What the store decides when a program is reached for, with a terminal at hand.
public enum LaunchVerdict: Equatable, Sendable {
    /// Inside the allowance that a Proceed began (ended) at `since`: open at
    /// once. An `allowed` pass-through is recorded, never a session.
    case allowed(since: Date)
    /// Pause: the `open` row is written, with the first quote drawn and
    /// what the screen should know about the impulse.
    case pause(quote: String?, history: LaunchHistory)
}

extension SessionStore {
    /// Decides between an allowed opening and a pause, and records either, in
    /// one IMMEDIATE transaction: two launches at the same moment are decided
    /// one after the other, each seeing what the first wrote.
    ///
    /// - Parameters:
    ///   - allowance: the program's allowance in seconds; nil when it has none.
    ///   - dayStart: local midnight today, from which "3rd time today" counts.
    ///   - kind: the kind of pause the learner chose, kept on the row.
    public func beginLaunch(id: String, program: String, at now: Date, owner: ProcessIdentity, pool: [String],
                            allowance: TimeInterval?, dayStart: Date, kind: PauseKind = .breathe,
                            using generator: inout some RandomNumberGenerator) throws -> LaunchVerdict {
        try immediate { db in
            try Self.settleAbandoned(db)
            if let allowance, let since = try Self.allow(db, id: id, program: program, at: now, allowance: allowance) {
                return .allowed(since: since)
            }
            let history = try Self.history(db, program: program, now: now, dayStart: dayStart)
            let quote = try Self.draw(db, from: pool, using: &generator)
            try db.execute(sql: """
                INSERT INTO sessions (id, program, started_at, outcome, quotes, owner, kind)
                VALUES (?, ?, ?, 'open', ?, ?, ?)
                """, arguments: [id, program, now.milliseconds, Self.column(quote.map { [$0] } ?? []), owner.description,
                                 kind.rawValue])
            return .pause(quote: quote, history: history)
        }
    }

    /// Without a terminal: records an `allowed` pass-through and returns when
    /// the allowance began, if one is running; nil (and nothing written) if not.
    public func openWithinAllowance(id: String, program: String, at now: Date, allowance: TimeInterval) throws -> Date? {
        try immediate { db in try Self.allow(db, id: id, program: program, at: now, allowance: allowance) }
    }

    private static func allow(_ db: Connection, id: String, program: String, at now: Date,
                              allowance: TimeInterval) throws -> Date? {
        guard let since = try lastProceed(db, program: program, endedSince: now.addingTimeInterval(-allowance), now: now) else {
            return nil
        }
        try db.execute(sql: """
            INSERT INTO sessions (id, program, started_at, ended_at, outcome, reason)
            VALUES (?, ?, ?, ?, 'passthrough', 'allowed')
            """, arguments: [id, program, now.milliseconds, now.milliseconds])
        return since
    }

    /// When a Proceed of `program` on this machine ended at or after `start`,
    /// the latest such moment: an allowance began, and a pause still on screen
    /// for the same program can give way to it.
    public func allowanceBegan(for program: String, since start: Date, now: Date) throws -> Date? {
        try queue.read { db in try Self.lastProceed(db, program: program, endedSince: start, now: now) }
    }

    private static func lastProceed(_ db: Connection, program: String, endedSince start: Date, now: Date) throws -> Date? {
        try Int64.fetchOne(db, sql: """
            SELECT MAX(ended_at) FROM sessions
            WHERE program = ? AND outcome = 'proceed' AND ended_at >= ? AND ended_at <= ? AND \(happenedHere)
            """, arguments: [program, start.milliseconds, now.addingTimeInterval(clockSkew).milliseconds])
            .map(Date.init(milliseconds:))
    }

    /// The rows that may shape this machine's protection (the allowance, the
    /// escalation ladder): sessions its own gateways recorded. One synced from
    /// another device, or imported from any export (which anyone can write),
    /// counts in the figures only; so does one dated ahead of this clock
    /// (beyond `clockSkew`) until its time has come.
    static let happenedHere = "device = '' AND origin = ''"
    /// How far ahead of this clock a session of this machine's may be dated and still count.
    static let clockSkew: TimeInterval = 5

    /// The kind of the program's latest pause (open ones included), if it had one.
    static func lastKind(_ db: Connection, program: String) throws -> PauseKind? {
        try String.fetchOne(db, sql: """
            SELECT kind FROM sessions WHERE program = ? AND outcome != 'passthrough' ORDER BY started_at DESC LIMIT 1
            """, arguments: [program]).flatMap(PauseKind.init)
    }

    /// Attempts are pauses (whatever their end) and openings inside an
    /// allowance; pass-throughs without a terminal or outside focus hours are
    /// not. Only this machine's: "2nd time today" speaks of what happened here,
    /// never of what was synced or imported (those count in the figures).
    static func history(_ db: Connection, program: String, now: Date, dayStart: Date) throws -> LaunchHistory {
        let attempt = "program = ? AND (outcome != 'passthrough' OR reason = 'allowed') AND \(happenedHere)"
        let earlierToday = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions WHERE \(attempt) AND started_at >= ?",
                                            arguments: [program, dayStart.milliseconds]) ?? 0
        // Newest first down the (program, started_at) index, stopping at the first
        // attempt: MAX() with these conditions would read every row of the program.
        let last = try Int64.fetchOne(db, sql: "SELECT started_at FROM sessions WHERE \(attempt) ORDER BY started_at DESC LIMIT 1",
                                      arguments: [program])
        let latest = now.addingTimeInterval(clockSkew).milliseconds
        let lastExit = try Int64.fetchOne(db, sql: """
            SELECT MAX(ended_at) FROM sessions WHERE program = ? AND outcome = 'exit' AND ended_at <= ? AND \(happenedHere)
            """, arguments: [program, latest])
        // The ladder's rungs: this machine's pauses in the last hour, counted from its last Exit to Focus.
        let ladderStart = max(now.addingTimeInterval(-Escalation.window).milliseconds, (lastExit ?? 0) + 1)
        let recentPauses = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM sessions
            WHERE program = ? AND outcome != 'passthrough' AND started_at >= ? AND started_at <= ? AND \(happenedHere)
            """, arguments: [program, ladderStart, latest]) ?? 0
        return LaunchHistory(earlierToday: earlierToday, lastAttempt: last.map(Date.init(milliseconds:)),
                             recentPauses: recentPauses)
    }
}
