import MIGACore

/// CSV's cells and rows, guarded both ways: nothing written reaches a
/// terminal or a spreadsheet as a command, and what is read is RFC 4180.
extension Exchange {
    /// One cell. Nothing the terminal would obey survives (a synced name
    /// holding `ESC ] 52` is shown as U+FFFD), line breaks inside a cell do,
    /// and a cell a spreadsheet would take for a formula (`=`, `+`, `-`, `@`)
    /// starts with `'`, which `csvText` takes off again on import.
    static func csvField(_ field: String) -> String {
        var field = printableLines(field)
        if let first = field.unicodeScalars.first, Self.formulaStarts.contains(first) { field = "'" + field }
        // By code point, as a spreadsheet reads it: a comma or a quote
        // followed by a combining mark is one Character with it in Swift.
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@"]

    /// A text cell as written before `csvField` guarded it.
    static func csvText(_ cell: String) -> String {
        let scalars = Array(cell.unicodeScalars.prefix(2))
        guard scalars.count == 2, scalars[0] == "'", formulaStarts.contains(scalars[1]) else { return cell }
        return String(cell.unicodeScalars.dropFirst())
    }

    /// RFC 4180: fields separated by commas, rows by line breaks, quotes
    /// doubled inside quoted fields. Read by code point, as `csvField` writes
    /// and a spreadsheet reads ("\r\n" is one break, as is a lone "\r" or "\n").
    static func csvRows(_ text: String) throws(MigaError) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = String.UnicodeScalarView()
        var quoted = false
        var line = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar?
        func next() -> Unicode.Scalar? {
            if let scalar = pending { pending = nil; return scalar }
            return scalars.next()
        }
        while let scalar = next() {
            if quoted {
                if scalar == "\"" {
                    let following = next()
                    if following == "\"" { field.append("\"") } else { quoted = false; pending = following }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty: quoted = true
            case ",": row.append(String(field)); field = .init()
            case "\n", "\r":
                if scalar == "\r", let following = next(), following != "\n" { pending = following }
                row.append(String(field))
                rows.append(row)
                row = []
                field = .init()
                line += 1
            default: field.append(scalar)
            }
        }
        if quoted { throw MigaError(dataError: "line \(line): a quoted field is not closed") }
        if !field.isEmpty || !row.isEmpty { row.append(String(field)); rows.append(row) }
        return rows
    }
}
