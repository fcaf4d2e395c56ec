/// The values bound to a statement's `?` marks, in order.
package struct StatementArguments: ExpressibleByArrayLiteral, Sendable {
    package private(set) var values: [SQLiteValue]

    package init(_ values: [(any ColumnValue)?]) {
        self.values = values.map { $0?.sqliteValue ?? .null }
    }

    package init(arrayLiteral elements: (any ColumnValue)?...) {
        self.init(elements)
    }

    package static func += (arguments: inout StatementArguments, more: StatementArguments) {
        arguments.values += more.values
    }
}
