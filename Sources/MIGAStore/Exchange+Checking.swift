import FoundationEssentials
import MIGACore

/// The checks a record passes before it is a session: an export is a file
/// anyone can write, and a synced line comes from another machine.
extension Exchange {
    /// Sessions begin no earlier than this (MIGA did not exist before).
    package static let earliest = Date(timeIntervalSince1970: 946_684_800) // 2000-01-01
    /// How far another machine's clock may run ahead.
    package static let clockSkew: TimeInterval = 86_400

    /// The session a record describes, checked, with its `device` and `origin` as written.
    static func session(_ record: Record, place: String, now: Date) throws(MigaError) -> SessionRecord {
        func fail(_ message: String) -> MigaError { MigaError(dataError: "\(place): \(message)") }
        guard !record.id.isEmpty, !record.id.contains(where: \.isWhitespace) else { throw fail("the id must be one word") }
        guard !record.program.isEmpty else { throw fail("the program is missing") }
        // A site's history is kept under its plain name; `site:` and what names no site is no program either.
        guard let protected = Protected(historyName: record.program) else {
            throw fail("\"\(printable(String(record.program.prefix(80))))\" names no website MIGA pauses")
        }
        guard let outcome = SessionOutcome(rawValue: record.outcome), outcome != .open else {
            throw fail("the outcome must be exit, proceed, abandoned or passthrough, not \"\(record.outcome)\"")
        }
        let (started, ended) = try instants(record, now: now, fail: fail)
        guard !record.quotes.contains(where: { $0.isEmpty || $0.contains(where: \.isWhitespace) }) else {
            throw fail("quote ids must be single words")
        }
        let (reason, kind) = try reasonAndKind(record, outcome: outcome, fail: fail)
        let (alternative, stoppedAtOnce) = try afterwards(record, outcome: outcome, fail: fail)
        // A finished session is counted by its end; one that came without (an
        // abandoned pause) ended when its pause was last seen.
        let end = ended ?? started.addingTimeInterval(min(record.paused_seconds, SessionRecord.longestPause))
        return SessionRecord(id: record.id, program: protected.historyName, startedAt: started, endedAt: end, outcome: outcome,
                             pausedSeconds: record.paused_seconds, deepenCount: record.deepen_count, quotes: record.quotes,
                             device: record.device, origin: record.origin ?? "", reason: reason,
                             intention: record.intention.flatMap { $0.isEmpty ? nil : $0 }, kind: kind, typed: record.typed,
                             alternative: alternative, stoppedAtOnce: stoppedAtOnce)
    }

    /// When the session started and ended, checked with the time it paused
    /// and the times it deepened.
    static func instants(_ record: Record, now: Date, fail: (String) -> MigaError) throws(MigaError) -> (started: Date, ended: Date?) {
        guard let started = date(record.started_at) else { throw fail("started_at is not an ISO 8601 instant: \(record.started_at)") }
        var ended: Date?
        if let text = record.ended_at {
            guard let instant = date(text) else { throw fail("ended_at is not an ISO 8601 instant: \(text)") }
            ended = instant
        }
        guard record.paused_seconds.isFinite, record.paused_seconds >= 0 else { throw fail("paused_seconds must be zero or more") }
        guard record.deepen_count >= 0, record.deepen_count <= 100_000 else { throw fail("deepen_count must be from 0 to 100000") }
        // What is possible: an instant since 2000 and not in the future (a
        // day of clock skew aside), an end not before its start, and no more
        // time paused than the session lasted. A line from another machine
        // dated in the year 9999 would otherwise keep an allowance open for ever.
        let latest = now.addingTimeInterval(Self.clockSkew)
        guard started >= Self.earliest, started <= latest else {
            throw fail("started_at \(record.started_at) is not a time a session can have started (before 2000, or in the future)")
        }
        if let ended, !(ended >= started && ended <= latest) {
            throw fail("ended_at \(record.ended_at ?? "") is before started_at or in the future")
        }
        let lasted = (ended ?? latest).timeIntervalSince(started)
        guard record.paused_seconds <= min(lasted + Self.clockSkew, SessionRecord.longestPause) else {
            throw fail("paused_seconds \(record.paused_seconds) is longer than the session lasted")
        }
        return (started, ended)
    }

    /// Why a pass-through passed and the kind of a pause: each belongs to its outcome only.
    static func reasonAndKind(_ record: Record, outcome: SessionOutcome,
                              fail: (String) -> MigaError) throws(MigaError) -> (PassReason?, PauseKind?) {
        var reason: PassReason?
        if let text = record.reason {
            guard let known = PassReason(rawValue: text), outcome == .passthrough else {
                throw fail("a reason (\(PassReason.allCases.map(\.rawValue).joined(separator: ", "))) belongs to a passthrough only, not \"\(text)\" on \(outcome.rawValue)")
            }
            reason = known
        }
        var kind: PauseKind?
        if let text = record.kind {
            guard let known = PauseKind(rawValue: text), outcome != .passthrough else {
                throw fail("a kind (\(PauseKind.allCases.map(\.rawValue).joined(separator: ", "))) belongs to a pause only, not \"\(text)\" on \(outcome.rawValue)")
            }
            kind = known
        }
        if record.typed != nil, kind != .type { throw fail("typed belongs to a pause of the kind type only") }
        return (reason, kind)
    }

    /// The alternative an exit chose, and what a proceed's program said when it stopped at once.
    static func afterwards(_ record: Record, outcome: SessionOutcome,
                           fail: (String) -> MigaError) throws(MigaError) -> (alternative: String?, stoppedAtOnce: String?) {
        let alternative = record.alternative.flatMap { $0.isEmpty ? nil : $0 }
        if let alternative {
            guard outcome == .exit else { throw fail("an alternative belongs to an exit only, not to \(outcome.rawValue)") }
            if let problem = Instead.problem(with: alternative) { throw fail("the alternative \(problem)") }
        }
        // From another machine as from this one: one cleaned line, never a control sequence.
        var stoppedAtOnce: String?
        if let text = record.stopped_at_once, !text.isEmpty {
            guard outcome == .proceed else { throw fail("stopped_at_once belongs to a proceed only, not to \(outcome.rawValue)") }
            let line = EarlyStop.cleaned(text)
            stoppedAtOnce = line.isEmpty ? nil : line
        }
        return (alternative, stoppedAtOnce)
    }
}
