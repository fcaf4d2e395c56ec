import FoundationEssentials
import MIGACore

/// What `beginLaunch` did with the verdict it reached.
public enum LaunchBegun: Equatable, Sendable {
    /// The verdict was no pause, and is carried out: for `.allowed`, the
    /// `allowed` pass-through is recorded (never a session).
    case decided(GateVerdict)
    /// The verdict was a pause: the `open` row is written, with the first
    /// quote drawn and what the screen should know about the impulse.
    case pause(quote: String?, history: LaunchHistory)
}

extension SessionStore {
    /// Decides a launch or a visit that has a front end to pause in, and
    /// records what it decided, in one IMMEDIATE transaction: the store's
    /// answer is read into `facts`, `GateVerdict` decides, and an allowed
    /// opening or the pause's `open` row is written before the lock is let
    /// go, so two launches at the same moment are decided one after the
    /// other, each seeing what the first wrote.
    ///
    /// - Parameters:
    ///   - program: whose history answers (`facts` name no program).
    ///   - dayStart: local midnight today, from which "3rd time today" counts.
    ///   - kind: the kind of pause the learner chose, kept on the row.
    public func beginLaunch(_ facts: GateFacts, id: String, program: String, owner: ProcessIdentity, pool: [String],
                            dayStart: Date, kind: PauseKind = .breathe,
                            using generator: inout some RandomNumberGenerator) throws -> LaunchBegun {
        try immediate { db in
            try Self.settleAbandoned(db)
            var facts = facts
            let verdict = try Self.decide(db, &facts, id: id, program: program)
            guard verdict == .pause else { return .decided(verdict) }
            let now = facts.now
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

    /// Decides a launch without a front end to pause in, in one IMMEDIATE
    /// transaction: the store's answer read into `facts`, the verdict
    /// reached, and an `allowed` pass-through recorded if an allowance runs
    /// (nothing written otherwise; the caller carries out any other verdict).
    public func decide(_ facts: inout GateFacts, id: String, program: String) throws -> GateVerdict {
        let (verdict, answered) = try immediate { db in
            var facts = facts
            return (try Self.decide(db, &facts, id: id, program: program), facts)
        }
        facts = answered
        return verdict
    }

    /// The verdict on `facts`, the store's answer read into them first if
    /// the verdict asks for it; an allowed opening is recorded here, inside
    /// the caller's transaction.
    private static func decide(_ db: Connection, _ facts: inout GateFacts, id: String, program: String) throws -> GateVerdict {
        var verdict = GateVerdict(facts)
        if verdict == .askStore {
            facts = facts.answered(lastProceedEndedAt: try lastProceed(db, program: program, now: facts.now))
            verdict = GateVerdict(facts)
        }
        if case .allowed = verdict {
            try db.execute(sql: """
                INSERT INTO sessions (id, program, started_at, ended_at, outcome, reason)
                VALUES (?, ?, ?, ?, 'passthrough', 'allowed')
                """, arguments: [id, program, facts.now.milliseconds, facts.now.milliseconds])
        }
        return verdict
    }

    /// When a Proceed of `program` on this machine ended at or after `start`,
    /// the latest such moment: an allowance began, and a pause still on screen
    /// for the same program can give way to it.
    public func allowanceBegan(for program: String, since start: Date, now: Date) throws -> Date? {
        try queue.read { db in
            try Self.lastProceed(db, program: program, now: now).flatMap { $0.milliseconds >= start.milliseconds ? $0 : nil }
        }
    }

    /// When the latest Proceed of `program` on this machine ended, if one
    /// did: the store's answer to `GateVerdict`, which decides whether an
    /// allowance still runs.
    private static func lastProceed(_ db: Connection, program: String, now: Date) throws -> Date? {
        // Newest first down the (program, outcome, ended_at) index, stopping at
        // the first of this machine's: MAX() would read every Proceed of the program.
        try Int64.fetchOne(db, sql: """
            SELECT ended_at FROM sessions
            WHERE program = ? AND outcome = 'proceed' AND ended_at <= ? AND \(happenedHere)
            ORDER BY ended_at DESC LIMIT 1
            """, arguments: [program, now.addingTimeInterval(clockSkew).milliseconds])
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
