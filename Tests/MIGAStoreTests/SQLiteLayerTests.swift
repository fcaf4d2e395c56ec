import CSQLite
import Foundation
import Testing
@testable import MIGAStore
@testable import MIGATestSupport

/// The store's thin layer over SQLite's C API, on its own.
@Suite struct SQLiteLayerTests {
    let folder = TemporaryDirectory()

    func numbers() throws -> Connection {
        let connection = try Connection(path: "", .memory)
        try connection.execute(sql: "CREATE TABLE numbers (value INTEGER); CREATE TABLE notes (text TEXT)")
        return connection
    }

    @Test func a_transaction_that_throws_is_rolled_back_and_its_error_passed_on() throws {
        let connection = try numbers()
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try connection.transaction(.immediate) {
                try connection.execute(sql: "INSERT INTO numbers VALUES (?)", arguments: [1])
                throw Refused()
            }
        }
        #expect(!connection.isInsideTransaction)
        #expect(try Int.fetchOne(connection, sql: "SELECT COUNT(*) FROM numbers") == 0)
        try connection.transaction(.immediate) { try connection.execute(sql: "INSERT INTO numbers VALUES (?)", arguments: [2]) }
        #expect(try Int.fetchAll(connection, sql: "SELECT value FROM numbers") == [2])
    }

    @Test func a_file_that_is_no_database_is_refused_on_opening_with_sqlites_code() throws {
        let path = folder.path + "/notes.sqlite"
        try String(repeating: "not a database at all ", count: 100).write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: SQLiteError.self) { try Connection(path: path, .readWrite) }
        #expect(error.code == SQLITE_NOTADB)
        #expect(error.description.hasPrefix("SQLite error 26: file is not a database"))
    }

    @Test func a_cached_statement_answers_each_time_for_its_own_arguments() throws {
        let connection = try numbers()
        try connection.execute(sql: "INSERT INTO numbers VALUES (1), (2), (3), (NULL)")
        let below = try connection.cachedStatement(sql: "SELECT COUNT(*) FROM numbers WHERE value < ?")
        #expect(try connection.cachedStatement(sql: "SELECT COUNT(*) FROM numbers WHERE value < ?") === below)
        #expect(try [1, 3, 9].map { try Int.fetchOne(below, arguments: [$0]) } == [0, 2, 3])
        #expect(try Int64.fetchOne(connection, sql: "SELECT MAX(value) FROM numbers WHERE value > 5") == nil)
        #expect(try Int?.fetchAll(connection, sql: "SELECT value FROM numbers ORDER BY rowid") == [1, 2, 3, nil])
    }

    @Test func arguments_that_do_not_fit_the_marks_are_refused() throws {
        let connection = try numbers()
        #expect(throws: SQLiteError.self) { try connection.execute(sql: "INSERT INTO numbers VALUES (?)", arguments: []) }
        #expect(throws: SQLiteError.self) { try connection.execute(sql: "INSERT INTO numbers VALUES (?)", arguments: [1, 2]) }
        #expect(try Int.fetchOne(connection, sql: "SELECT COUNT(*) FROM numbers") == 0)
    }

    @Test func each_value_is_kept_with_its_type() throws {
        let connection = try numbers()
        let none: String? = nil
        try connection.execute(sql: "CREATE TABLE cells (a, b, c, d, e, f)")
        try connection.execute(sql: "INSERT INTO cells VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: [Int64(1_800_000_000_123), 2.5, true, "text\u{0}cut", none, 7])
        let row = try #require(try Row.fetchOne(connection, sql: "SELECT * FROM cells"))
        #expect(row.values == [.integer(1_800_000_000_123), .real(2.5), .integer(1), .text("text"), .null, .integer(7)])
        #expect(row["C"] as Bool && row["e"] as String? == nil && row[1] as Double == 2.5)
    }

    @Test func many_threads_share_one_connection_one_at_a_time() throws {
        let shared = SerialConnection(try numbers())
        try shared.withConnection { try $0.execute(sql: "INSERT INTO numbers VALUES (0)") }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 {
                try? shared.withConnection { db in
                    try db.transaction(.immediate) {
                        let value = try Int.fetchOne(db, sql: "SELECT value FROM numbers") ?? 0
                        try db.execute(sql: "UPDATE numbers SET value = ?", arguments: [value + 1])
                    }
                }
            }
        }
        #expect(try shared.read { try Int.fetchOne($0, sql: "SELECT value FROM numbers") } == 400)
    }

    @Test func a_copy_in_memory_holds_the_whole_file() throws {
        let file = try SerialConnection(path: folder.path + "/numbers.sqlite", .readWrite)
        try file.withConnection { try $0.execute(sql: "CREATE TABLE numbers (value INTEGER); INSERT INTO numbers VALUES (4), (5)") }
        let memory = try SerialConnection(path: "", .memory)
        try file.backup(to: memory)
        #expect(try memory.read { try Int.fetchAll($0, sql: "SELECT value FROM numbers ORDER BY value") } == [4, 5])
    }

    /// A connection that reads a file as immutable takes no lock, so a
    /// checkpoint of another process's can change pages under it: what looks
    /// like damage (an error, or an answer that says so) is read again
    /// through a read-only connection before it is believed.
    @Test func what_looks_like_damage_to_an_immutable_read_is_read_again_read_only() throws {
        let path = folder.path + "/numbers.sqlite"
        try Connection(path: path, .readWrite).execute(sql: "CREATE TABLE numbers (value INTEGER); INSERT INTO numbers VALUES (4), (5)")
        let queue = try SerialConnection(path: path, .immutable)
        var calls = 0
        let count = try queue.read { db in
            calls += 1
            if calls == 1 { throw SQLiteError(extendedCode: SQLITE_CORRUPT, message: "a stale page") }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM numbers")
        }
        #expect(count == 2 && calls == 2)
        var checks = ["*** in database main *** On tree page 5 cell 0: invalid page number 256", "ok"]
        #expect(try SerialConnection(path: path, .immutable).read(soundIf: { $0 == "ok" }) { _ in checks.removeFirst() } == "ok")
        // A connection that takes its locks is believed: no second read.
        let locking = try SerialConnection(path: path, .readOnly)
        calls = 0
        #expect(throws: SQLiteError.self) {
            try locking.read { _ in
                calls += 1
                throw SQLiteError(extendedCode: SQLITE_CORRUPT, message: "damage")
            }
        }
        #expect(calls == 1)
    }

    /// SQLite answers NULL for a text it has no memory to give as UTF-8 (a
    /// store kept in UTF-16 asks for a copy); a row with it is refused with
    /// SQLITE_NOMEM, never read through a null pointer. An exit test: the
    /// heap limit is the whole process's, and the old read ended it.
    @Test func a_text_sqlite_has_no_memory_for_is_an_error_not_a_crash() async {
        await #expect(processExitsWith: .success) {
            let connection = try Connection(path: "", .memory)
            try connection.execute(sql: "PRAGMA encoding = 'UTF-16le'; CREATE TABLE notes (text TEXT)")
            try connection.execute(sql: "INSERT INTO notes VALUES (printf('%.*c', 1000000, 'x'))")
            let statement = try connection.statement(sql: "SELECT text FROM notes")
            try statement.bind([])
            let stepped = try statement.step()
            precondition(stepped)
            // The library MIGA opened (see SQLiteOnDemand.c), asked for what MIGA never calls.
            let library = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_NOLOAD)
            typealias Limit = @convention(c) (Int64) -> Int64
            typealias Used = @convention(c) () -> Int64
            let limit = unsafeBitCast(dlsym(library, "sqlite3_hard_heap_limit64"), to: Limit.self)
            let used = unsafeBitCast(dlsym(library, "sqlite3_memory_used"), to: Used.self)
            _ = limit(used() + 1000)
            do {
                _ = try statement.row()
                exit(1)
            } catch let error as SQLiteError {
                precondition(error.code == SQLITE_NOMEM, "\(error)")
            }
        }
    }
}
