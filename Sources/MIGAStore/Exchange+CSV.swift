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
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacing("\"", with: "\"\"") + "\""
    }

    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@"]

    /// A text cell as written before `csvField` guarded it.
    static func csvText(_ cell: String) -> String {
        let scalars = Array(cell.unicodeScalars.prefix(2))
        guard scalars.count == 2, scalars[0] == "'", formulaStarts.contains(scalars[1]) else { return cell }
        return String(cell.unicodeScalars.dropFirst())
    }

    /// RFC 4180: fields separated by commas, rows by line breaks, quotes doubled inside quoted fields.
    static func csvRows(_ text: String) throws(MigaError) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var characters = text.makeIterator()
        var pending: Character?
        func next() -> Character? {
            if let character = pending { pending = nil; return character }
            return characters.next()
        }
        while let character = next() {
            if quoted {
                if character == "\"" {
                    let following = next()
                    if following == "\"" { field.append("\"") } else { quoted = false; pending = following }
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty: quoted = true
            case ",": row.append(field); field = ""
            case "\n", "\r\n", "\r":
                row.append(field)
                rows.append(row)
                row = []
                field = ""
                line += 1
            default: field.append(character)
            }
        }
        if quoted { throw MigaError(dataError: "line \(line): a quoted field is not closed") }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
