#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A connection its callers take one at a time, from any thread: what lets
/// a `SessionStore` be shared. (A second process has its own connection;
/// SQLite's locks and the busy timeout order them.)
package final class SerialConnection: Sendable {
    private let lock = Mutex(())
    /// Touched only while `lock` is held.
    nonisolated(unsafe) private var connection: Connection
    /// For a connection that reads its file as immutable: the file, and how
    /// it stood when it was opened. Such a connection takes no lock, so a
    /// checkpoint of another process's can change pages under it (see
    /// `read`). Touched only while `lock` is held.
    nonisolated(unsafe) private var immutable: (path: String, opened: FileStanding?)?

    package init(_ connection: Connection) {
        self.connection = connection
    }

    package convenience init(path: String, _ opening: Connection.Opening) throws {
        // Looked at before the file is read, so that a change while it opens is a change.
        let standing = FileStanding(path)
        self.init(try Connection(path: path, opening))
        if opening == .immutable { immutable = (path, standing) }
    }

    /// The store's file opened to look without writing a byte of it or
    /// beside it: with a write-ahead log beside it, through the log's index
    /// opened read only; with none, as immutable (no one was writing it);
    /// when neither can be opened (an index missing), the plain read only
    /// open, which may make the -wal and -shm files.
    package static func looking(at path: String) throws -> SerialConnection {
        let opening: Connection.Opening = access(path + "-wal", F_OK) == 0 ? .lookingOnly : .immutable
        if let queue = try? SerialConnection(path: path, opening) { return queue }
        return try SerialConnection(path: path, .readOnly)
    }

    /// Runs `body` on the connection inside one read transaction: every
    /// question it asks sees the same moment of the store. A connection that
    /// reads its file as immutable believes no damage it meets (an error
    /// that says so, or an answer `sound` refuses), nor a file that changed
    /// since it was opened: it reads again, and from then on, through a
    /// connection that takes its locks.
    package func read<T>(soundIf sound: (T) -> Bool = { _ in true }, _ body: (Connection) throws -> T) throws -> T {
        let (answer, doubted): (T?, Bool) = try withConnection { _ in
            if let immutable, FileStanding(immutable.path) != immutable.opened { try readTakingLocks() }
            do {
                return (try connection.transaction(.deferred) { try body(connection) }, immutable != nil)
            } catch let error as SQLiteError where immutable != nil && error.isDamage {
                return (nil, true)
            }
        }
        if let answer, !doubted || sound(answer) { return answer }
        return try withConnection { _ in
            try readTakingLocks()
            return try connection.transaction(.deferred) { try body(connection) }
        }
    }

    /// Reads the file of an immutable connection through one that takes the
    /// readers' locks from now on (and writes nothing beside it while the
    /// log's index is there). Called with `lock` held.
    private func readTakingLocks() throws {
        guard let path = immutable?.path else { return }
        connection = access(path + "-wal", F_OK) == 0
            ? try (try? Connection(path: path, .lookingOnly)) ?? Connection(path: path, .readOnly)
            : try Connection(path: path, .readOnly)
        immutable = nil
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

/// How a file stands: which file it is, how long, when last written. Two
/// that differ mean it was written (or replaced) between them.
struct FileStanding: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: timespec

    /// How `path` stands now; nil when it is not there.
    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim
    }

    static func == (a: FileStanding, b: FileStanding) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
    }
}
