import FoundationEssentials
import MIGACore

extension SessionStore {
    /// How long after a conscious exit a launch of the same program, through
    /// the pause or around it, makes the exit no success for the learner.
    public static let exitHeldFor: TimeInterval = 15 * 60

    /// The program's kinds as its history records them, for the learner:
    /// each kind's successes by day, weighed by age as of `now` (a pause's
    /// weight halves every `halfLifeDays`), the latest kind shown, and
    /// whether a favourite is still sought among `seekingAmong` (nil: the
    /// program's kinds are not chosen by what works, and nothing is sought).
    /// `timeZone`: where a day ends, for a switch-off "the same day".
    public func kindJournal(program: String, seekingAmong kinds: [PauseKind]? = nil, now: Date,
                            halfLifeDays: Double = KindEvidence.defaultHalfLifeDays,
                            timeZone: LocalZone = .system) throws -> KindJournal {
        try queue.read { db in
            let dayOffset = timeZone.secondsFromGMT(for: now)
            // Older than twenty half-lives a pause weighs less than a millionth: not read at all.
            let oldest = halfLifeDays.isFinite ? now.addingTimeInterval(-20 * halfLifeDays * 86_400).milliseconds : Int64.min
            let days = try Self.learnedDays(db, program: program, since: oldest, dayOffset: dayOffset)
            return KindJournal(evidence: KindEvidence.discounted(days, now: now, halfLifeDays: halfLifeDays),
                               last: try Self.lastKind(db, program: program),
                               seekingFavourite: try kinds.map { try Self.seeksFavourite(db, program: program, among: $0,
                                                                                         dayOffset: dayOffset) } ?? false)
        }
    }

    /// Whether a favourite is still sought among `kinds` (`KindFavourite.isSought`).
    /// Past `KindFavourite.soughtFor` pauses a kind in use nothing is sought,
    /// whatever is named: that is counted first, without asking of each pause
    /// whether its exit held, so a launch never reads a long history before
    /// its first frame; short of it, the pauses are counted as the stats count them.
    static func seeksFavourite(_ db: Connection, program: String, among kinds: [PauseKind], dayOffset: Int) throws -> Bool {
        let inUse = Set(kinds)
        let most = KindFavourite.soughtFor * inUse.count
        let counted = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (SELECT 1 \(learned(of: inUse)) LIMIT ?)",
                                       arguments: [program, program, most]) ?? 0
        guard counted < most else { return false }
        return KindFavourite.isSought(after: try learnedPauses(db, program: program, dayOffset: dayOffset, of: inUse), among: kinds)
    }

    /// The program's pauses since the learner began there (its latest
    /// `resetLearning`), in the order they ended, each with its kind and
    /// whether it was a success (`heldExit`): what the favourite is counted
    /// from (`KindFavourite`). `timeZone`: where a day ends, as of `now`.
    public func learnedPauses(program: String, now: Date, timeZone: LocalZone = .system) throws -> [LearnedPause] {
        try queue.read { db in try Self.learnedPauses(db, program: program, dayOffset: timeZone.secondsFromGMT(for: now)) }
    }

    /// The same inside a read. `dayOffset`: seconds east of UTC, as `heldExit`
    /// takes it. `kinds`: only pauses of these (nil: every kind).
    static func learnedPauses(_ db: Connection, program: String, dayOffset: Int,
                              of kinds: Set<PauseKind>? = nil) throws -> [LearnedPause] {
        try Row.fetchAll(db, sql: """
            SELECT COALESCE(s.kind, 'breathe'), \(heldExit(dayOffset: dayOffset)) \(learned(of: kinds))
            ORDER BY s.ended_at, s.id
            """, arguments: [program, program]).compactMap { row in
            PauseKind(rawValue: row[0]).map { LearnedPause(kind: $0, succeeded: row[1]) }
        }
    }

    /// The program's pauses since the learner began there, of `kinds` (nil:
    /// every kind), as a FROM and WHERE taking the program twice.
    private static func learned(of kinds: Set<PauseKind>?) -> String {
        // Kinds are the enum's own words: written into the statement, never from outside.
        let ofKinds = kinds.map { " AND COALESCE(s.kind, 'breathe') IN (\($0.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")))" } ?? ""
        return """
            FROM sessions s INDEXED BY sessions_by_program_outcome_and_end
            WHERE s.program = ? AND s.outcome IN ('exit', 'proceed', 'abandoned')
              AND s.ended_at >= COALESCE((SELECT MAX(at) FROM changes WHERE action = 'reset-learning' AND subject = ?), 0)\(ofKinds)
            """
    }

    /// Each program's exits that held (`heldExit`) per kind, over all time and
    /// every device, those before a `resetLearning` too: the kinds table's
    /// count of what the learner counts as a success. Each exit costs a look
    /// down three indexes, so the stats ask only where kinds are compared.
    /// `timeZone`: where a day ends, for a switch-off "the same day", as of `now`.
    public func heldExitsByProgram(now: Date, timeZone: LocalZone = .system) throws -> [String: [PauseKind: Int]] {
        try queue.read { db in
            var held: [String: [PauseKind: Int]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT s.program, COALESCE(s.kind, 'breathe'), COUNT(*)
                FROM sessions s INDEXED BY sessions_by_program_kind_and_outcome
                WHERE \(Self.heldExit(dayOffset: timeZone.secondsFromGMT(for: now)))
                GROUP BY s.program, s.kind
                """) {
                // NULL and 'breathe' are both breathing pauses: two groups, one count.
                guard let kind = PauseKind(rawValue: row[1]) else { continue }
                held[row[0], default: [:]][kind, default: 0] += row[2] as Int
            }
            return held
        }
    }

    /// Makes the learner start afresh for `program`: its pauses ended before
    /// `now` no longer count in choosing the kind, nor in the favourite (the
    /// person's own numbers keep them). Kept in the changes, where it is the record of the reset.
    public func resetLearning(program: String, at now: Date) throws {
        try immediate { db in
            try db.execute(sql: "INSERT INTO changes (id, at, action, subject, outcome) VALUES (?, ?, 'reset-learning', ?, 'done')",
                           arguments: [newUUID(), now.milliseconds, program])
        }
    }

    /// Records that the person took `kind` out of `program`'s kinds on the
    /// pause ("not this kind"), in the changes as "decline-kind".
    public func declineKind(_ kind: PauseKind, program: String, at now: Date) throws {
        try immediate { db in
            try db.execute(sql: "INSERT INTO changes (id, at, action, subject, outcome) VALUES (?, ?, 'decline-kind', ?, 'done')",
                           arguments: [newUUID(), now.milliseconds, "\(program) \(kind.rawValue)"])
        }
    }

    /// The kinds taken out of `program`'s on the pause, oldest first.
    public func declinedKinds(program: String) throws -> [PauseKind] {
        try queue.read { db in
            try String.fetchAll(db, sql: "SELECT subject FROM changes WHERE action = 'decline-kind' ORDER BY at", arguments: [])
                .compactMap { subject in
                    let words = subject.split(separator: " ")
                    return words.count == 2 && words[0] == program ? PauseKind(rawValue: String(words[1])) : nil
                }
        }
    }

    /// When the learner last started afresh for `program`, if it has.
    public func learningReset(program: String) throws -> Date? {
        try queue.read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(at) FROM changes WHERE action = 'reset-learning' AND subject = ?",
                               arguments: [program]).map { Date(milliseconds: $0) }
        }
    }

    /// Each kind's pauses by UTC day, and the successes among them: conscious
    /// exits that held (`heldExit`). Only pauses ended at or after `oldest`
    /// (milliseconds) and after the program's latest `resetLearning` count.
    /// The person's own counts are not these: an exit stays an exit.
    static func learnedDays(_ db: Connection, program: String, since oldest: Int64, dayOffset: Int) throws -> [LearnedDay] {
        try Row.fetchAll(db, sql: """
            SELECT COALESCE(kind, 'breathe'), ended_at / 86400000 AS day, COUNT(*),
                   COUNT(*) FILTER (WHERE \(heldExit(dayOffset: dayOffset)))
            FROM sessions s INDEXED BY sessions_by_program_kind_and_outcome
            WHERE s.program = ? AND s.outcome IN ('exit', 'proceed', 'abandoned') AND s.ended_at >= ?
              AND s.ended_at >= COALESCE((SELECT MAX(at) FROM changes WHERE action = 'reset-learning' AND subject = ?), 0)
            GROUP BY s.kind, day
            """, arguments: [program, oldest, program]).compactMap { row in
            // NULL and 'breathe' are both breathing pauses: two groups of the same kind, added up by the weighing.
            guard let kind = PauseKind(rawValue: row[0]) else { return nil }
            return LearnedDay(kind: kind, day: row[1], shown: row[2], successes: row[3])
        }
    }

    /// The learner's success, as SQL on a pause `s` of the sessions: a
    /// conscious exit not followed by a launch of the program within
    /// `exitHeldFor` (through the pause or a leak around it), nor by a
    /// switch-off of its protection before the end of that local day
    /// (`dayOffset`: seconds east of UTC). The one definition the learner,
    /// the favourite and the kinds table count by.
    static func heldExit(dayOffset: Int) -> String {
        let held = Int64(exitHeldFor * 1000)
        let offset = Int64(dayOffset) * 1000
        return """
            s.outcome = 'exit'
                AND NOT EXISTS (SELECT 1 FROM sessions later INDEXED BY sessions_by_program_and_start
                                WHERE later.program = s.program AND later.started_at > s.ended_at
                                  AND later.started_at <= s.ended_at + \(held) AND later.id != s.id)
                AND NOT EXISTS (SELECT 1 FROM leaks WHERE leaks.program = s.program
                                AND leaks.seen_at >= s.ended_at AND leaks.seen_at <= s.ended_at + \(held))
                AND NOT EXISTS (SELECT 1 FROM changes WHERE changes.action = 'unprotect' AND changes.outcome = 'done'
                                AND instr(' ' || changes.subject || ' ', ' ' || s.program || ' ') > 0
                                AND changes.at >= s.ended_at
                                AND changes.at < ((s.ended_at + \(offset)) / 86400000 + 1) * 86400000 - \(offset))
            """
    }
}
