import CSQLite

/// What SQLite answered when a call failed. Callers decide by `code`, the
/// primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, `SQLITE_NOTADB`…),
/// whatever extended code came with it.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code, as SQLite gave it (`SQLITE_CORRUPT_INDEX`, say).
    package let extendedCode: Int32
    package let message: String
    /// The statement it failed on, when it was one.
    package let sql: String?

    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The error of the last call that failed on `connection`.
    init(_ code: Int32, on connection: OpaquePointer?, sql: String? = nil) {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(extendedCode: connection.map { sqlite3_extended_errcode($0) } ?? code,
                  message: message ?? String(cString: sqlite3_errstr(code)), sql: sql)
    }

    package var code: Int32 { extendedCode & 0xFF }

    /// Whether it says the file itself is broken (not a database, or cut
    /// short), rather than busy or unwritable.
    package var isDamage: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }

    package var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " - while executing `\($0)`" } ?? "")
    }
}
