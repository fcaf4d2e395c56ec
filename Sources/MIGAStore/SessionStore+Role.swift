import CSQLite

/// What a process opens the store for, and how its writes wait for the lock.
extension SessionStore {
    /// What a process opens the store for, which sets how long it waits for
    /// another process's lock (a sync or an import holds it for seconds).
    public enum Role: Sendable {
        /// A launch, on its way to the pause's first frame: it waits a
        /// moment, once (its chores as it opens wait for nothing, and once
        /// it found the store busy its later writes wait no more), then
        /// leaves what it would have written to the inbox, as a pass-through
        /// does, and the next process that opens the store writes it.
        /// Nothing the person did is lost, and no launch waits.
        case gateway
        /// A command or a chore: it waits its turn.
        case command

        /// How long it waits for a lock, in milliseconds.
        package var lockWait: Int32 {
            switch self {
            case .gateway: 250
            case .command: 10_000
            }
        }
    }

    /// Whether `error` is another process's lock, held past this one's wait.
    public static func isBusy(_ error: Error) -> Bool {
        (error as? SQLiteError)?.code == SQLITE_BUSY
    }

    /// Runs `body` in one IMMEDIATE transaction, the write lock taken at once or waited for.
    func immediate<T>(_ body: (Connection) throws -> T) throws -> T {
        try queue.withConnection { db in
            do {
                return try db.transaction(.immediate) { try body(db) }
            } catch let error as SQLiteError where error.code == SQLITE_BUSY && role == .gateway {
                // The wait is the launch's, not each write's: a gateway that
                // found the store busy tries each later write once (a deepen,
                // the ending), and what fails goes to the inbox.
                db.waitForLocks(upTo: 0)
                throw error
            }
        }
    }

    /// Runs `chore`, one any process may do that opens the store: when
    /// another process is writing, past this one's wait, the next does it.
    static func leavingForLaterWhenBusy(_ chore: () throws -> Void) throws {
        do {
            try chore()
        } catch let error as SQLiteError where error.code == SQLITE_BUSY {}
    }
}
