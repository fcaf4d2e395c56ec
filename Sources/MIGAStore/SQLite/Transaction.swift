import CSQLite

extension Connection {
    /// When a transaction takes its locks.
    package enum TransactionKind: String {
        /// At its first read, then at its first write: for reads.
        case deferred = "DEFERRED"
        /// The write lock at once, waiting its turn behind other writers:
        /// what it reads stays true until it commits.
        case immediate = "IMMEDIATE"
    }

    /// Runs `body` in one transaction: committed when it returns, rolled
    /// back when it throws (or the commit fails), and the error rethrown.
    package func transaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T {
        try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
        do {
            let result = try body()
            try execute(sql: "COMMIT TRANSACTION")
            return result
        } catch {
            // SQLite may have rolled back already (a full disk, say).
            if isInsideTransaction { try? execute(sql: "ROLLBACK TRANSACTION") }
            throw error
        }
    }

    /// Copies the whole database into `destination`, replacing what it held.
    package func backup(to destination: Connection) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw SQLiteError(sqlite3_errcode(destination.handle), on: destination.handle)
        }
        let stepped = sqlite3_backup_step(backup, -1)
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE else { throw SQLiteError(stepped, on: nil) }
        guard finished == SQLITE_OK else { throw SQLiteError(finished, on: destination.handle) }
    }
}
