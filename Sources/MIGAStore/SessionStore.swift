#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import Synchronization

/// The event store: one SQLite file (WAL mode) holding a row per gateway run,
/// from which every number MIGA shows is derived.
///
/// Rows are written when a pause opens and completed when it ends, each write
/// one IMMEDIATE transaction, so many gateways ending at once queue for the
/// write lock instead of failing: a command waits its turn; a gateway waits
/// only a moment (see `Role`), and the inbox takes what it cannot write.
public final class SessionStore: Sendable {
    let queue: SerialConnection
    public let path: String
    /// Pass-throughs waiting to be folded in (see `Inbox`).
    public let inbox: Inbox
    /// This machine's id in a store opened only to look (see `reading`), which makes none it would keep.
    let lookingDeviceID: String?
    /// What the store was opened for (see `Role`).
    let role: Role
    /// Whether the store was opened to write, all the way: only such a store
    /// keeps its log short as it closes.
    private let isOpenToWrite = Atomic(false)

    /// The history at `paths`, when there is one: nil before the first pause
    /// (a run that only looks at it never creates it) and when it cannot be opened.
    public static func existing(in paths: XDGPaths) -> SessionStore? {
        guard access(paths.storeFile, F_OK) == 0 else { return nil }
        return try? SessionStore(path: paths.storeFile)
    }

    /// Opens (creating if needed) the store at `path`: folders 0700, file 0600.
    /// Pass-throughs waiting in the inbox beside it are folded in, unless
    /// another process is writing: they wait for the next one that opens it.
    public init(path: String, role: Role = .command) throws {
        self.path = path
        inbox = Inbox(besideStoreAt: path)
        lookingDeviceID = nil
        self.role = role
        let folder = folderName(of: path)
        try checkOwn(folder, file: false)
        try makeDirectories(folder)
        try checkOwn(path, file: true)
        // Create the file ourselves so it is private from the first byte; SQLite
        // gives the -wal and -shm files the same permissions. A link planted
        // in its place is not followed.
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 { throw FileSystemError(path: path, code: errno) }
        close(fd)

        // WAL is set once, when the store is created (Schema.migrate): the mode
        // is kept in the file, and asking for it on every open costs an fsync.
        let connection = try Connection(path: path, .readWrite, busyTimeout: role.lockWait)
        // WAL with synchronous=NORMAL is durable against crashes of the process
        // and keeps each commit free of an fsync (a power cut may take the
        // last commits back, never damage the file).
        try connection.execute(sql: "PRAGMA synchronous = NORMAL")
        // The log is kept between runs and checkpointed only as a store
        // closes (see `keepLogShort`): never in the middle of a launch's
        // write, and never taken away, so that no launch begins a log.
        try connection.keepLogOnClose()
        try connection.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        // A log begun afresh is cut to what it holds, so its size is its length.
        try connection.execute(sql: "PRAGMA journal_size_limit = 0")
        queue = SerialConnection(connection)
        try Schema.migrate(queue, lockWait: role.lockWait)
        // A launch waits for no chore: each is tried once, and left for the next process when the store is busy.
        if role == .gateway { connection.waitForLocks(upTo: 0) }
        try Self.leavingForLaterWhenBusy { try foldInbox() }
        try Self.leavingForLaterWhenBusy { try settleAbandonedIfAny() }
        connection.waitForLocks(upTo: role.lockWait)
        isOpenToWrite.store(true, ordering: .relaxed)
    }

    deinit {
        if isOpenToWrite.load(ordering: .relaxed) { keepLogShort() }
    }

    /// A store of `queue` that only looks (see `reading`): nothing folded or settled here.
    init(looking queue: SerialConnection, path: String, deviceID: String) {
        self.queue = queue
        self.path = path
        inbox = Inbox(besideStoreAt: path)
        lookingDeviceID = deviceID
        role = .command
    }

    /// Every reader counts a killed pause the same way, as soon as its gateway
    /// is gone: a look through the index for `open` rows, and a write only
    /// when one of them has no gateway left.
    private func settleAbandonedIfAny() throws {
        guard try hasAbandoned() else { return }
        _ = try immediate { db in try Self.settleAbandoned(db) }
    }

    /// Moves the inbox's events into the sessions table, in one transaction;
    /// `removing` the inbox's files once they are in (a copy that only looks keeps them).
    func foldInbox(removing: Bool = true) throws {
        guard access(inbox.directory, F_OK) == 0 else { return }
        let folded: [String] = try immediate { db in
            // Read under the write lock, so two processes never fold the same files at once.
            // Endings first: a pause that ended while the store was busy is
            // written as it ended, never settled as abandoned.
            let endings = inbox.pendingEndings()
            for (_, ending) in endings {
                // The row the pause began, completed; or, when it never began, the whole session.
                // A pause that gave way to an allowance is a pass-through, and those have no kind.
                let kind = ending.outcome == .passthrough ? nil : ending.kind
                try db.execute(sql: """
                    INSERT INTO sessions (id, program, started_at, ended_at, outcome, paused_seconds, deepen_count, quotes,
                                          intention, reason, kind, typed, alternative)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET
                        outcome = excluded.outcome, ended_at = excluded.ended_at, paused_seconds = excluded.paused_seconds,
                        deepen_count = excluded.deepen_count, quotes = excluded.quotes, owner = NULL,
                        intention = excluded.intention, reason = excluded.reason,
                        kind = CASE WHEN excluded.outcome = 'passthrough' THEN NULL ELSE COALESCE(excluded.kind, sessions.kind) END,
                        typed = excluded.typed, alternative = excluded.alternative
                    WHERE sessions.outcome IN ('open', 'abandoned')
                    """, arguments: [ending.id, ending.program, ending.startedAt, ending.endedAt, ending.outcome.rawValue,
                                     ending.pausedSeconds, ending.deepenCount, Self.column(ending.quotes), ending.intention,
                                     ending.reason?.rawValue, kind?.rawValue, ending.typed, ending.alternative])
            }
            let pending = inbox.pending()
            for (_, event) in pending {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO sessions (id, program, started_at, ended_at, outcome, reason)
                    VALUES (?, ?, ?, ?, 'passthrough', ?)
                    """, arguments: [event.id, event.program, event.milliseconds, event.milliseconds, event.reason?.rawValue])
            }
            // After the endings: the session a stop belongs to may have ended in the inbox too.
            let stops = inbox.pendingEarlyStops()
            for (_, sessionID, stop) in stops {
                try Self.recordEarlyStop(db, sessionID: sessionID, stop)
            }
            try Self.settleAbandoned(db)
            return pending.map(\.file) + endings.map(\.file) + stops.map(\.file)
        }
        // After the commit: a crash before this line leaves events that the
        // next fold inserts again, and OR IGNORE keeps them single.
        if removing { for file in folded { unlink(file) } }
    }

    // MARK: Gateway sessions

    /// The next quote of the shuffle bag, which is remembered across runs.
    public func drawQuote(from pool: [String], using generator: inout some RandomNumberGenerator) throws -> String? {
        try immediate { db in try Self.draw(db, from: pool, using: &generator) }
    }

    /// Brings an open row up to date, so that a killed gateway loses little.
    public func recordProgress(sessionID: String, _ progress: PauseProgress) throws {
        try immediate { db in
            try db.execute(sql: """
                UPDATE sessions SET paused_seconds = ?, deepen_count = ?, quotes = ?, kind = COALESCE(?, kind)
                WHERE id = ? AND outcome = 'open'
                """, arguments: [progress.pausedSeconds, progress.deepenCount, Self.column(progress.quotes),
                                 progress.kind?.rawValue, sessionID])
        }
    }

    /// Writes how a pause ended (and, after Proceed, what it was for). A pause
    /// that gave way to an allowance ends as a pass-through with its `reason`.
    /// False when there was no row to complete (it never began).
    @discardableResult
    public func completeSession(sessionID: String, outcome: SessionOutcome, endedAt: Date, _ progress: PauseProgress,
                                intention: String? = nil, reason: PassReason? = nil) throws -> Bool {
        try immediate { db in
            try db.execute(sql: """
                UPDATE sessions
                SET outcome = ?, ended_at = ?, paused_seconds = ?, deepen_count = ?, quotes = ?, owner = NULL,
                    intention = ?, reason = ?, typed = ?, alternative = ?,
                    kind = CASE WHEN ? = 'passthrough' THEN NULL ELSE COALESCE(?, kind) END
                WHERE id = ?
                """, arguments: [outcome.rawValue, endedAt.milliseconds, progress.pausedSeconds,
                                 progress.deepenCount, Self.column(progress.quotes), intention, reason?.rawValue,
                                 progress.typed, progress.alternative, outcome.rawValue, progress.kind?.rawValue, sessionID])
            return db.changesCount > 0
        }
    }

    /// Keeps with a proceeded session that its program stopped at once.
    /// False when there is no such session (its ending still waits in the inbox).
    @discardableResult
    public func recordEarlyStop(sessionID: String, _ stop: EarlyStop) throws -> Bool {
        try immediate { db in try Self.recordEarlyStop(db, sessionID: sessionID, stop) }
    }

    @discardableResult
    private static func recordEarlyStop(_ db: Connection, sessionID: String, _ stop: EarlyStop) throws -> Bool {
        try db.execute(sql: "UPDATE sessions SET stopped_at_once = ? WHERE id = ? AND outcome = 'proceed'",
                       arguments: [stop.words, sessionID])
        return db.changesCount > 0
    }

    // MARK: Reading

    /// Every row, oldest first.
    public func sessions() throws -> [SessionRecord] {
        try sessions(where: "1")
    }

    /// The rows `condition` (SQL of MIGA's own, never of outside text) holds for, oldest first.
    func sessions(where condition: String) throws -> [SessionRecord] {
        try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, program, started_at, ended_at, outcome, paused_seconds, deepen_count, quotes, device, origin,
                       reason, intention, kind, typed, alternative, stopped_at_once
                FROM sessions WHERE \(condition) ORDER BY started_at, id
                """).map { row in
                SessionRecord(
                    id: row["id"], program: row["program"],
                    startedAt: Date(milliseconds: row["started_at"]),
                    endedAt: (row["ended_at"] as Int64?).map(Date.init(milliseconds:)),
                    outcome: SessionOutcome(rawValue: row["outcome"]) ?? .abandoned,
                    pausedSeconds: row["paused_seconds"], deepenCount: row["deepen_count"],
                    quotes: Self.ids(fromColumn: row["quotes"]), device: row["device"], origin: row["origin"],
                    reason: (row["reason"] as String?).flatMap(PassReason.init), intention: row["intention"],
                    kind: (row["kind"] as String?).flatMap(PauseKind.init), typed: row["typed"], alternative: row["alternative"],
                    stoppedAtOnce: row["stopped_at_once"])
            }
        }
    }

    /// Adds the sessions whose ids are not in the store yet, all in one
    /// transaction (so a failure adds none), with `meta` kept in the same
    /// transaction when given (how far a sync read a file). Returns how many
    /// were new.
    @discardableResult
    public func insertMissing(_ records: [SessionRecord], keeping meta: (key: String, value: String)? = nil) throws -> Int {
        try immediate { db in
            if let meta {
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [meta.key, meta.value])
            }
            var added = 0
            for record in records {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO sessions
                        (id, program, started_at, ended_at, outcome, paused_seconds, deepen_count, quotes, device, origin,
                         reason, intention, kind, typed, alternative, stopped_at_once)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [record.id, record.program, record.startedAt.milliseconds,
                                     record.endedAt?.milliseconds, record.outcome.rawValue, record.pausedSeconds,
                                     record.deepenCount, Self.column(record.quotes), record.device, record.origin,
                                     record.reason?.rawValue, record.intention, record.kind?.rawValue, record.typed,
                                     record.alternative, record.stoppedAtOnce])
                added += db.changesCount
            }
            return added
        }
    }

    /// SQLite's own check of the file: "ok", or what is wrong.
    public func integrityCheck() throws -> String {
        try queue.read(soundIf: { $0 == "ok" }) { db in try String.fetchAll(db, sql: "PRAGMA quick_check").joined(separator: "; ") }
    }

    // MARK: Internals

    /// Marks every `open` row whose gateway is no longer running as `abandoned`,
    /// ended when its pause was last seen (its start plus the time paused it
    /// recorded): every figure counts a session by its end, so one without an
    /// end would be in the totals and in no day or week.
    @discardableResult
    static func settleAbandoned(_ db: Connection) throws -> Int {
        var settled = 0
        for row in try Row.fetchAll(db, sql: "SELECT id, owner FROM sessions WHERE outcome = 'open'") {
            let owner = (row["owner"] as String?).flatMap(ProcessIdentity.init)
            if owner?.isRunning == true { continue }
            try db.execute(sql: """
                UPDATE sessions SET outcome = 'abandoned', owner = NULL,
                    ended_at = started_at + CAST(MIN(paused_seconds, \(SessionRecord.longestPause)) * 1000 AS INTEGER)
                WHERE id = ?
                """, arguments: [row["id"] as String])
            settled += 1
        }
        return settled
    }

    static func draw(_ db: Connection, from pool: [String],
                             using generator: inout some RandomNumberGenerator) throws -> String? {
        var bag = ShuffleBag()
        if let text = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'quote_bag'"),
           let saved = ShuffleBag(encoded: text) {
            bag = saved
        }
        let quote = bag.draw(from: pool, using: &generator)
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('quote_bag', ?)", arguments: [bag.encoded])
        return quote
    }

    /// Quote ids as the `quotes` column keeps them: space-separated, in order
    /// (ids never contain whitespace).
    static func column(_ ids: [String]) -> String {
        ids.joined(separator: " ")
    }

    private static func ids(fromColumn text: String) -> [String] {
        text.split(separator: " ").map(String.init)
    }
}

extension Date {
    /// Milliseconds since 1970 UTC, as instants are stored.
    package var milliseconds: Int64 { Int64(wholeNumber(timeIntervalSince1970 * 1000)) }

    package init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
