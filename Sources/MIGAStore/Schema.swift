#if canImport(Glibc)
import Glibc
#endif
import CSQLite
import MIGACore

/// The store's tables and their versions.
///
/// Versions live in SQLite's `user_version` and each step runs inside one
/// IMMEDIATE transaction that rereads the version after taking the write lock.
/// (Reading what was applied before taking the lock would let two gateways
/// creating the store at the same moment both run step 1.)
enum Schema {
    /// Step N takes the store from version N to N + 1.
    static let steps: [String] = [
        """
        CREATE TABLE sessions (
            id             TEXT PRIMARY KEY NOT NULL,  -- a UUID
            program        TEXT NOT NULL,              -- the command, e.g. firefox
            started_at     INTEGER NOT NULL,           -- milliseconds since 1970 UTC
            ended_at       INTEGER,                    -- same; NULL while open or if unknown
            outcome        TEXT NOT NULL CHECK (outcome IN ('open', 'exit', 'proceed', 'abandoned', 'passthrough')),
            paused_seconds REAL NOT NULL DEFAULT 0,    -- time the pause was on screen
            deepen_count   INTEGER NOT NULL DEFAULT 0,
            quotes         TEXT NOT NULL DEFAULT '',   -- the quote ids shown, in order, space-separated
            owner          TEXT                        -- the gateway process while open
        );
        CREATE INDEX sessions_by_outcome_and_end ON sessions (outcome, ended_at);
        CREATE TABLE meta (
            key   TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        );
        """,
        // Sessions from several machines, merged by `miga sync`: which device
        // each came from ('' for this one, whatever its id). The two indexes
        // cover what the numbers read, so a million sessions are counted
        // without touching a row: totals per program and outcome, and
        // outcomes by end time for the day chart.
        """
        ALTER TABLE sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';
        CREATE INDEX sessions_by_program ON sessions (program, outcome, device, paused_seconds);
        CREATE INDEX sessions_by_end ON sessions (ended_at, outcome);
        """,
        // Why a launch passed through without a pause ('allowed' inside an
        // allowance, 'outside-hours' outside focus hours, 'autostart' a login
        // start let through, 'no-window' the pause's window never opened
        // (a reason added later needs no migration); NULL: no terminal),
        // what the person said they opened a program for, and the times
        // protection was switched off. The pause's own questions (attempts
        // today, the last proceed, the last exit) read a program's rows by time.
        """
        ALTER TABLE sessions ADD COLUMN reason TEXT;
        ALTER TABLE sessions ADD COLUMN intention TEXT;
        CREATE INDEX sessions_by_program_and_start ON sessions (program, started_at);
        CREATE INDEX sessions_by_program_outcome_and_end ON sessions (program, outcome, ended_at);
        CREATE TABLE changes (
            id       TEXT PRIMARY KEY NOT NULL,
            at       INTEGER NOT NULL,       -- milliseconds since 1970 UTC
            action   TEXT NOT NULL,          -- 'unprotect' or 'uninstall'
            subject  TEXT NOT NULL,          -- the programs concerned, space-separated
            outcome  TEXT NOT NULL CHECK (outcome IN ('done', 'kept'))
        );
        """,
        // The machine a session happened on when it is not the one whose sync
        // file brought it: a session imported from another machine's export
        // is published by the machine that imported it (device '' here, its
        // own file's id there) and keeps where it happened in `origin`.
        // Abandoned sessions settled before they were given an end: ended
        // when their pause was last seen, as they are settled now.
        """
        ALTER TABLE sessions ADD COLUMN origin TEXT NOT NULL DEFAULT '';
        UPDATE sessions SET ended_at = started_at + CAST(MIN(paused_seconds, \(SessionRecord.longestPause)) * 1000 AS INTEGER)
            WHERE outcome != 'open' AND ended_at IS NULL;
        """,
        // Launches that went around the pause (see LeakWatch), each once: a
        // process is named by boot id, pid and start time, which no reuse of
        // its pid repeats. This machine's alone; never synced or exported.
        """
        CREATE TABLE leaks (
            process  TEXT PRIMARY KEY NOT NULL,  -- boot-id/pid/start-ticks
            program  TEXT NOT NULL,
            seen_at  INTEGER NOT NULL,           -- milliseconds since 1970 UTC, when first seen
            route    TEXT                        -- the parent's command line, when it was still there
        );
        CREATE INDEX leaks_by_time ON leaks (seen_at);
        """,
        // The kind of each pause (a PauseKind's raw value; NULL
        // before there were kinds, and for pass-throughs), whether a typed
        // pause's line was typed in full (1, 0; NULL for other kinds), and
        // the alternative chosen instead of the program. The indexes answer
        // the launch's question (each kind's record for this program), the
        // kinds table and the day tallies of the effect without touching a row.
        """
        ALTER TABLE sessions ADD COLUMN kind TEXT;
        ALTER TABLE sessions ADD COLUMN typed INTEGER;
        ALTER TABLE sessions ADD COLUMN alternative TEXT;
        CREATE INDEX sessions_by_program_kind_and_outcome ON sessions (program, kind, outcome);
        CREATE INDEX sessions_by_end_and_program ON sessions (ended_at, outcome, program);
        """,
        // What kind of route each leak most likely came by ('login', 'path',
        // 'launcher'; NULL: unknown, or seen before routes had kinds, when
        // `route` holds the parent's command line if it was there).
        """
        ALTER TABLE leaks ADD COLUMN how TEXT;
        """,
        // A program that stopped at once after its Proceed (see EarlyStop):
        // what it said as it stopped, or how it ended. NULL otherwise.
        """
        ALTER TABLE sessions ADD COLUMN stopped_at_once TEXT;
        """,
    ]

    /// `writeAheadLog`: false for a copy in memory, which has no log to keep.
    /// `lockWait`: how long, in milliseconds, to wait for another process
    /// that holds the file (see `SessionStore.Role`).
    static func migrate(_ queue: SerialConnection, writeAheadLog: Bool = true,
                        lockWait: Int32 = SessionStore.Role.command.lockWait) throws {
        let current = try version(of: queue)
        if current == steps.count { return }
        if current > steps.count { throw StoreError.newerSchema(found: current, known: steps.count) }
        if writeAheadLog { try useWriteAheadLog(queue, lockWait: lockWait) }
        try queue.withConnection { db in
            try db.transaction(.immediate) {
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                if version > steps.count { throw StoreError.newerSchema(found: version, known: steps.count) }
                for step in steps[version...] { try db.execute(sql: step) }
                try db.execute(sql: "PRAGMA user_version = \(steps.count)")
            }
        }
    }
}

extension Schema {
    /// Write-ahead logging lets many gateways write while others read; the
    /// mode persists in the file, so it is set once, as the store is made.
    /// Switching needs the file to itself, and SQLite answers "busy" at once
    /// rather than waiting: when several processes create the store together,
    /// each tries again, for as long as it waits for a lock, until one of
    /// them has done it. A mode SQLite keeps without an error (a database in
    /// memory; a file system with no shared memory for the log's index) is
    /// refused, named: asking again would never change it.
    private static func useWriteAheadLog(_ queue: SerialConnection, lockWait: Int32) throws {
        let pause: Int32 = 25
        try queue.withConnection { db in
            if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal" { return }
            var waited: Int32 = 0
            while true {
                do {
                    let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")?.lowercased() ?? ""
                    guard mode == "wal" else { throw StoreError.noWriteAheadLog(mode: mode) }
                    return
                } catch let error as SQLiteError where error.code == SQLITE_BUSY && waited < lockWait {
                    waited += pause
                    usleep(useconds_t(pause) * 1000)
                }
            }
        }
    }

    /// The version of the tables in `queue`'s store (0: a new store).
    static func version(of queue: SerialConnection) throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
    }
}

/// Why the store could not be used.
public enum StoreError: Error, CustomStringConvertible {
    case newerSchema(found: Int, known: Int)
    /// SQLite kept the journal mode `mode` when asked for a write-ahead log.
    case noWriteAheadLog(mode: String)

    public var description: String {
        switch self {
        case .newerSchema(let found, let known):
            "the store was written by a newer MIGA (schema \(found), this one knows \(known)); please update miga"
        case .noWriteAheadLog(let mode):
            "SQLite keeps the store in journal mode \"\(mode)\" and cannot give it a write-ahead log, which MIGA needs "
                + "so that a launch never waits for a reader (is it on a network file system?)"
        }
    }
}
