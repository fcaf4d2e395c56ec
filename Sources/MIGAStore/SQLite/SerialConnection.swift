import Synchronization

/// A connection its callers take one at a time, from any thread: what lets
/// a `SessionStore` be shared. (A second process has its own connection;
/// SQLite's locks and the busy timeout order them.)
package final class SerialConnection: Sendable {
    private let lock = Mutex(())
    /// Touched only while `lock` is held.
    nonisolated(unsafe) private let connection: Connection

    package init(_ connection: Connection) {
        self.connection = connection
    }

    package convenience init(path: String, _ opening: Connection.Opening) throws {
        self.init(try Connection(path: path, opening))
    }

    /// Runs `body` on the connection inside one read transaction: every
    /// question it asks sees the same moment of the store.
    package func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try withConnection { connection in try connection.transaction(.deferred) { try body(connection) } }
    }

    /// Runs `body` on the connection as it is: transactions are its own.
    package func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        try lock.withLock { _ in try body(connection) }
    }

    /// Copies the whole database into `destination`, replacing what it held.
    package func backup(to destination: SerialConnection) throws {
        try withConnection { source in try destination.withConnection { try source.backup(to: $0) } }
    }
}
