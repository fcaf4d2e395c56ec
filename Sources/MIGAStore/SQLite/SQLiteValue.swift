/// A value as SQLite keeps it in a column.
package enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift value the store keeps in a column: bound as a statement's
/// argument, read back from a row. A value read as another type takes
/// SQLite's own conversion (NULL: 0, false or ""), so a column of a file
/// made elsewhere never stops a read.
package protocol ColumnValue {
    var sqliteValue: SQLiteValue { get }
    init(sqliteValue: SQLiteValue)
}

// Each type is bound as GRDB bound it, so stores written before read the same:
// integers and Bool (0 or 1) as INTEGER, Double as REAL, String as TEXT.

extension Int64: ColumnValue {
    package var sqliteValue: SQLiteValue { .integer(self) }

    package init(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = value
        case .real(let value): self = Int64(exactly: value.rounded(.towardZero)) ?? 0
        case .text(let text): self = Int64(text) ?? 0
        case .null, .blob: self = 0
        }
    }
}

extension Int: ColumnValue {
    package var sqliteValue: SQLiteValue { .integer(Int64(self)) }

    package init(sqliteValue: SQLiteValue) {
        self = Int(Int64(sqliteValue: sqliteValue))
    }
}

extension Double: ColumnValue {
    package var sqliteValue: SQLiteValue { .real(self) }

    package init(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = Double(value)
        case .real(let value): self = value
        case .text(let text): self = Double(text) ?? 0
        case .null, .blob: self = 0
        }
    }
}

extension Bool: ColumnValue {
    package var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }

    package init(sqliteValue: SQLiteValue) {
        self = Double(sqliteValue: sqliteValue) != 0
    }
}

extension String: ColumnValue {
    package var sqliteValue: SQLiteValue { .text(self) }

    package init(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = String(value)
        case .real(let value): self = String(value)
        case .text(let text): self = text
        case .blob(let bytes): self = String(decoding: bytes, as: UTF8.self)
        case .null: self = ""
        }
    }
}

extension Optional: ColumnValue where Wrapped: ColumnValue {
    package var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }

    package init(sqliteValue: SQLiteValue) {
        self = sqliteValue == .null ? nil : Wrapped(sqliteValue: sqliteValue)
    }
}
