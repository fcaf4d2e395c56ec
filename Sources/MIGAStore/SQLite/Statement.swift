import CSQLite

/// SQLITE_TRANSIENT: SQLite copies a bound text before the call returns (a macro Swift cannot import).
private let copiedBySQLite = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// One prepared statement of a connection, run any number of times with
/// new arguments; finalized when no one holds it any more.
package final class Statement {
    let handle: OpaquePointer
    /// The connection's handle, for its error messages.
    private let connection: OpaquePointer
    package let sql: String
    /// The names of the columns it yields, shared by every row.
    private let columns: [String]

    /// Prepares the first statement of `sql`; `rest` is what follows it, nil
    /// when `sql` held only space and comments. Throws on a statement SQLite refuses.
    static func prepare(_ sql: Substring, on connection: OpaquePointer) throws -> (Statement?, rest: Substring) {
        var handle: OpaquePointer?
        var rest = Substring()
        let code = sql.withCString { start in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(connection, start, -1, &handle, &tail)
            if let tail { rest = Substring(String(cString: tail)) }
            return code
        }
        guard code == SQLITE_OK else { throw SQLiteError(code, on: connection, sql: String(sql)) }
        guard let handle else { return (nil, rest) }
        // SQLite answers NULL for a name it had no memory to make.
        var columns: [String] = []
        for column in 0..<sqlite3_column_count(handle) {
            guard let name = sqlite3_column_name(handle, column) else {
                sqlite3_finalize(handle)
                throw outOfMemory(sql: String(sql))
            }
            columns.append(String(cString: name))
        }
        return (Statement(handle: handle, connection: connection, sql: sqlite3_sql(handle).map { String(cString: $0) } ?? String(sql),
                          columns: columns), rest)
    }

    private init(handle: OpaquePointer, connection: OpaquePointer, sql: String, columns: [String]) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
        self.columns = columns
    }

    /// SQLite had no memory for what was asked of it (it answered NULL).
    private static func outOfMemory(sql: String) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_NOMEM, message: "out of memory", sql: sql)
    }

    deinit { sqlite3_finalize(handle) }

    /// How many arguments it takes.
    var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Starts it afresh with `arguments`, one for each `?`.
    func bind(_ arguments: StatementArguments) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        guard arguments.values.count == parameterCount else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "\(arguments.values.count) arguments for \(parameterCount) parameters",
                              sql: sql)
        }
        for (index, value) in arguments.values.enumerated() {
            let position = Int32(index + 1)
            let code = switch value {
            case .null: sqlite3_bind_null(handle, position)
            case .integer(let number): sqlite3_bind_int64(handle, position, number)
            case .real(let number): sqlite3_bind_double(handle, position, number)
            // Up to the first NUL, as GRDB bound it: a stored text never holds one.
            case .text(let text): sqlite3_bind_text(handle, position, text, -1, copiedBySQLite)
            case .blob(let bytes): bytes.withUnsafeBytes {
                sqlite3_bind_blob(handle, position, $0.baseAddress, Int32($0.count), copiedBySQLite)
            }
            }
            guard code == SQLITE_OK else { throw SQLiteError(code, on: connection, sql: sql) }
        }
    }

    /// Runs it to its next row: false when it is done.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let error = SQLiteError(code, on: connection, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// The row it stands on.
    func row() throws -> Row {
        Row(columns: columns, values: try columns.indices.map { try value(at: Int32($0)) })
    }

    /// The value of `column` in the row it stands on. A text SQLite answers
    /// NULL for is one it had no memory to give (a text kept in UTF-16 is
    /// copied to be given as UTF-8): SQLITE_NOMEM, never a read of a null
    /// pointer.
    private func value(at column: Int32) throws -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, column) else { throw Self.outOfMemory(sql: sql) }
            // Up to the first NUL, as GRDB read it: a stored text never holds one.
            return .text(String(cString: text))
        case SQLITE_BLOB:
            // The pointer first, then its length (SQLite's order); an empty blob is NULL.
            let bytes = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let bytes, count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    /// Every row it yields with `arguments`.
    package func rows(_ arguments: StatementArguments = []) throws -> [Row] {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        var rows: [Row] = []
        while try step() { rows.append(try row()) }
        return rows
    }

    /// Its first row with `arguments`, if it yields one.
    package func firstRow(_ arguments: StatementArguments = []) throws -> Row? {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        return try step() ? try row() : nil
    }
}
