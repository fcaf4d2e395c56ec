/// One row a query yielded, its values copied out of SQLite: it outlives
/// the statement and the read it came from.
package struct Row: Sendable {
    /// The column names, as the query gave them.
    let columns: [String]
    package let values: [SQLiteValue]

    /// The value of the column at `index`, read as `T`.
    package subscript<T: ColumnValue>(index: Int) -> T {
        T(sqliteValue: index < values.count ? values[index] : .null)
    }

    /// The value of the column named `name` (case aside, as SQL names are), read as `T`.
    package subscript<T: ColumnValue>(name: String) -> T {
        let index = columns.firstIndex { $0.lowercased() == name.lowercased() }
        precondition(index != nil, "no column \(name) in \(columns)")
        return self[index ?? 0]
    }
}

extension Row {
    /// Every row of `sql` with `arguments`.
    package static func fetchAll(_ db: Connection, sql: String, arguments: StatementArguments = []) throws -> [Row] {
        try db.statement(sql: sql).rows(arguments)
    }

    /// The first row of `sql` with `arguments`, if there is one.
    package static func fetchOne(_ db: Connection, sql: String, arguments: StatementArguments = []) throws -> Row? {
        try db.statement(sql: sql).firstRow(arguments)
    }
}

/// One value per row: the first column of a query.
extension ColumnValue {
    /// The first column of every row of `sql`.
    package static func fetchAll(_ db: Connection, sql: String, arguments: StatementArguments = []) throws -> [Self] {
        try fetchAll(db.statement(sql: sql), arguments: arguments)
    }

    /// The first column of the first row of `sql`; nil when there is no row or it holds NULL.
    package static func fetchOne(_ db: Connection, sql: String, arguments: StatementArguments = []) throws -> Self? {
        try fetchOne(db.statement(sql: sql), arguments: arguments)
    }

    package static func fetchAll(_ statement: Statement, arguments: StatementArguments = []) throws -> [Self] {
        try statement.rows(arguments).map { $0[0] }
    }

    package static func fetchOne(_ statement: Statement, arguments: StatementArguments = []) throws -> Self? {
        guard let value = try statement.firstRow(arguments)?.values.first, value != .null else { return nil }
        return Self(sqliteValue: value)
    }
}
