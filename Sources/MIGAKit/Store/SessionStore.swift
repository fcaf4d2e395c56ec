#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GRDB

/// The event store: one SQLite file (WAL mode) holding a row per gateway run,
/// from which every number MIGA shows is derived.
///
/// Rows are written when a pause opens and completed when it ends, each write
/// one IMMEDIATE transaction, so many gateways ending at once queue for the
/// write lock (with a generous busy timeout) instead of failing.
public final class SessionStore: Sendable {
    private let queue: DatabaseQueue
    public let path: String

    /// Opens (creating if needed) the store at `path`: folders 0700, file 0600.
    public init(path: String) throws {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        try makeDirectories(folder)
        // Create the file ourselves so it is private from the first byte; SQLite
        // gives the -wal and -shm files the same permissions.
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 { throw FileSystemError(path: path, code: errno) }
        close(fd)

        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.label = "miga"
        configuration.prepareDatabase { db in
            // WAL with synchronous=NORMAL is durable against crashes of the process
            // and keeps each commit free of an fsync.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try Schema.migrate(queue)
    }

    // MARK: Gateway sessions

    /// Settles rows left `open` by killed gateways, draws the first quote and
    /// writes the new `open` row, all in one transaction.
    public func openSession(id: String, program: String, startedAt: Date, owner: ProcessIdentity,
                            pool: [String], using generator: inout some RandomNumberGenerator) throws -> String? {
        try immediate { db in
            try Self.settleAbandoned(db)
            let quote = try Self.draw(db, from: pool, using: &generator)
            try db.execute(sql: """
                INSERT INTO sessions (id, program, started_at, outcome, quotes, owner)
                VALUES (?, ?, ?, 'open', ?, ?)
                """, arguments: [id, program, startedAt.milliseconds, Self.json(quote.map { [$0] } ?? []), owner.description])
            return quote
        }
    }

    /// The next quote of the shuffle bag, which is remembered across runs.
    public func drawQuote(from pool: [String], using generator: inout some RandomNumberGenerator) throws -> String? {
        try immediate { db in try Self.draw(db, from: pool, using: &generator) }
    }

    /// Brings an open row up to date, so that a killed gateway loses little.
    public func recordProgress(sessionID: String, _ progress: PauseProgress) throws {
        try immediate { db in
            try db.execute(sql: """
                UPDATE sessions SET paused_seconds = ?, deepen_count = ?, quotes = ?
                WHERE id = ? AND outcome = 'open'
                """, arguments: [progress.pausedSeconds, progress.deepenCount, Self.json(progress.quotes), sessionID])
        }
    }

    /// Writes how a pause ended.
    public func completeSession(sessionID: String, outcome: SessionOutcome, endedAt: Date, _ progress: PauseProgress) throws {
        try immediate { db in
            try db.execute(sql: """
                UPDATE sessions
                SET outcome = ?, ended_at = ?, paused_seconds = ?, deepen_count = ?, quotes = ?, owner = NULL
                WHERE id = ?
                """, arguments: [outcome.rawValue, endedAt.milliseconds, progress.pausedSeconds,
                                 progress.deepenCount, Self.json(progress.quotes), sessionID])
        }
    }

    /// Records a launch that went straight through without a pause (and, like
    /// every run, settles what killed gateways left open).
    public func recordPassThrough(id: String, program: String, at date: Date) throws {
        try immediate { db in
            try Self.settleAbandoned(db)
            try db.execute(sql: """
                INSERT INTO sessions (id, program, started_at, ended_at, outcome)
                VALUES (?, ?, ?, ?, 'passthrough')
                """, arguments: [id, program, date.milliseconds, date.milliseconds])
        }
    }

    /// Marks every `open` row whose gateway is no longer running as `abandoned`.
    @discardableResult
    public func settleAbandoned() throws -> Int {
        try immediate { db in try Self.settleAbandoned(db) }
    }

    // MARK: Reading

    /// Every row, oldest first.
    public func sessions() throws -> [SessionRecord] {
        try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, program, started_at, ended_at, outcome, paused_seconds, deepen_count, quotes
                FROM sessions ORDER BY started_at, id
                """).map { row in
                SessionRecord(
                    id: row["id"], program: row["program"],
                    startedAt: Date(milliseconds: row["started_at"]),
                    endedAt: (row["ended_at"] as Int64?).map(Date.init(milliseconds:)),
                    outcome: SessionOutcome(rawValue: row["outcome"]) ?? .abandoned,
                    pausedSeconds: row["paused_seconds"], deepenCount: row["deepen_count"],
                    quotes: Self.ids(fromJSON: row["quotes"]))
            }
        }
    }

    /// When each conscious exit happened, oldest first: the input of streaks.
    public func exitInstants() throws -> [Date] {
        try queue.read { db in
            try Int64.fetchAll(db, sql: """
                SELECT ended_at FROM sessions WHERE outcome = 'exit' AND ended_at IS NOT NULL ORDER BY ended_at
                """).map(Date.init(milliseconds:))
        }
    }

    // MARK: Internals

    private func immediate<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    @discardableResult
    private static func settleAbandoned(_ db: Database) throws -> Int {
        var settled = 0
        for row in try Row.fetchAll(db, sql: "SELECT id, owner FROM sessions WHERE outcome = 'open'") {
            let owner = (row["owner"] as String?).flatMap(ProcessIdentity.init)
            if owner?.isRunning == true { continue }
            try db.execute(sql: "UPDATE sessions SET outcome = 'abandoned', owner = NULL WHERE id = ?",
                           arguments: [row["id"] as String])
            settled += 1
        }
        return settled
    }

    private static func draw(_ db: Database, from pool: [String],
                             using generator: inout some RandomNumberGenerator) throws -> String? {
        var bag = ShuffleBag()
        if let json = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'quote_bag'"),
           let saved = try? JSONDecoder().decode(ShuffleBag.self, from: Data(json.utf8)) {
            bag = saved
        }
        let quote = bag.draw(from: pool, using: &generator)
        let encoded = String(decoding: try JSONEncoder().encode(bag), as: UTF8.self)
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('quote_bag', ?)", arguments: [encoded])
        return quote
    }

    private static func json(_ ids: [String]) -> String {
        (try? String(decoding: JSONEncoder().encode(ids), as: UTF8.self)) ?? "[]"
    }

    private static func ids(fromJSON text: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }
}

extension Date {
    /// Milliseconds since 1970 UTC, as instants are stored.
    var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
