import CSQLite

/// One connection to a SQLite database: its statements, its transactions,
/// what a write changed. One caller at a time uses it (see `SerialConnection`).
package final class Connection {
    let handle: OpaquePointer
    /// The statements asked for again and again, each prepared once (see `cachedStatement`).
    private var cache: [String: Statement] = [:]

    /// What a connection may do with its file.
    package enum Opening {
        /// Read and write it, made when missing.
        case readWrite
        /// Read it only.
        case readOnly
        /// Read it only, as a file no one writes: no lock taken, no -wal or
        /// -shm file made beside it (SQLite's `immutable` URI parameter).
        case immutable
        /// Read it only, and write nothing beside it either: its write-ahead
        /// log is read through the log's index opened read only (SQLite's
        /// `readonly_shm`), taking the readers' locks. The -wal and -shm
        /// files must be there.
        case lookingOnly
        /// A new, empty database in memory; the path is not used.
        case memory
    }

    /// Opens `path`; SQLite waits up to `busyTimeout` milliseconds for a lock another holds.
    package init(path: String, _ opening: Opening, busyTimeout: Int32 = 10_000) throws {
        let (name, flags) = switch opening {
        case .readWrite: (path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        case .readOnly: (path, SQLITE_OPEN_READONLY)
        case .immutable: (Self.uri(path) + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
        case .lookingOnly: (Self.uri(path) + "?readonly_shm=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
        case .memory: (":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(code, on: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        waitForLocks(upTo: busyTimeout)
        // Opening reads nothing: a file that is no database would show it
        // only at a later read. Read the schema now, so it fails here.
        _ = try statement(sql: "SELECT * FROM sqlite_master LIMIT 1").firstRow()
    }

    deinit {
        // Each statement is finalized as it goes; one still held elsewhere
        // keeps the connection open until then (close_v2).
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// `path` as a `file:` URI: the characters a URI gives a meaning escaped.
    static func uri(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:" + escaped
    }

    /// Runs `sql`: one statement with `arguments` for its `?` marks, or
    /// several without (each prepared once the one before has run, so a
    /// table made by one can be used by the next).
    package func execute(sql: String, arguments: StatementArguments = []) throws {
        if !arguments.values.isEmpty {
            let statement = try statement(sql: sql)
            try statement.bind(arguments)
            while try statement.step() {}
            return
        }
        var rest = Substring(sql)
        while case let (statement?, tail) = try Statement.prepare(rest, on: handle) {
            try statement.bind([])
            while try statement.step() {}
            rest = tail
        }
    }

    /// The one statement of `sql`, prepared. Arguments are bound to one
    /// statement only: SQL that holds another after it is refused.
    package func statement(sql: String) throws -> Statement {
        let (statement, rest) = try Statement.prepare(Substring(sql), on: handle)
        guard let statement else { throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "no statement", sql: sql) }
        guard rest.allSatisfy({ $0.isWhitespace || $0 == ";" }) else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "more than one statement", sql: sql)
        }
        return statement
    }

    /// The statement of `sql`, prepared on first use and kept with the
    /// connection: for a question asked many times in one read.
    package func cachedStatement(sql: String) throws -> Statement {
        if let statement = cache[sql] { return statement }
        let statement = try statement(sql: sql)
        cache[sql] = statement
        return statement
    }

    /// From now on, SQLite waits up to `milliseconds` for a lock another holds (0: not at all).
    package func waitForLocks(upTo milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Closing leaves the write-ahead log as it is, instead of SQLite's
    /// checkpoint of it by the last connection to close, which takes the log
    /// away (see `SessionStore.keepLogShort`).
    package func keepLogOnClose() throws {
        let code = csqlite_db_config_switch(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
        guard code == SQLITE_OK else { throw SQLiteError(code, on: handle) }
    }

    /// Rows inserted, updated or deleted by the last statement that wrote.
    package var changesCount: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open.
    package var isInsideTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}
