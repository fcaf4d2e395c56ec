#if canImport(Glibc)
import Glibc
#endif
import MIGACore

/// Changes `config.toml` the way a careful person would by hand: only the
/// lines of one `[programs.NAME]` (or `[sites."NAME"]`) table, keeping every comment, blank line and
/// setting around them, and writing through a temporary file and a rename so
/// a crash never leaves half a file.
public struct ConfigEditor {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// A table the editor changes: a program's or a site's.
    enum Table {
        case program(String)
        case site(String)

        var path: [String] {
            switch self {
            case .program(let command): ["programs", command]
            case .site(let name): ["sites", name]
            }
        }

        var header: String { "[\(path[0]).\(ConfigEditor.tableKey(path[1]))]" }

        func isThere(in config: Config) -> Bool {
            switch self {
            case .program(let command): config.programs[command] != nil
            case .site(let name): config.sites[name] != nil
            }
        }
    }

    /// Adds `[programs.COMMAND]`, or updates the keys of the one that exists.
    /// Settings the changes leave nil stay as they are.
    public func setProgram(_ command: String, _ changes: ProgramChanges = ProgramChanges()) throws(MigaError) {
        try set(.program(command), changes)
    }

    /// Adds `[sites."NAME"]` (NAME a site's plain name), or updates the one that exists.
    public func setSite(_ name: String, _ changes: ProgramChanges = ProgramChanges()) throws(MigaError) {
        try set(.site(name), changes)
    }

    /// Removes `[programs.COMMAND]` and its lines; nothing else changes.
    public func removeProgram(_ command: String) throws(MigaError) {
        try remove(.program(command))
    }

    /// Removes `[sites."NAME"]` and its lines; nothing else changes.
    public func removeSite(_ name: String) throws(MigaError) {
        try remove(.site(name))
    }

    private func set(_ target: Table, _ changes: ProgramChanges) throws(MigaError) {
        var lines = try currentLines()
        let kinds = Self.kinds(of: lines)
        if let table = Self.table(target.path, in: lines, kinds: kinds) {
            var body = Array(lines[table])
            var bodyKinds = Array(kinds[table])
            for (key, change) in changes.edits {
                let index = bodyKinds.firstIndex { $0 == .keyValue([key]) }
                switch (change, index) {
                case (.set(let value), let index?): body[index] = "\(key) = \(value.text)" + Self.trailingComment(of: body[index])
                case (.set(let value), nil):
                    body.append("\(key) = \(value.text)")
                    bodyKinds.append(.keyValue([key]))
                case (.remove, let index?):
                    body.remove(at: index)
                    bodyKinds.remove(at: index)
                case (.remove, nil): break
                }
            }
            lines.replaceSubrange(table, with: body)
        } else {
            while lines.last == "" { lines.removeLast() }
            if !lines.isEmpty { lines.append("") }
            lines.append(target.header)
            for (key, change) in changes.edits {
                if case .set(let value) = change { lines.append("\(key) = \(value.text)") }
            }
        }
        try write(lines) { config in
            target.isThere(in: config) ? nil : "the new \(target.header) table did not read back"
        }
    }

    /// Sets a setting of the top level (`pause = 60`), in place when it is
    /// there, else after the other top-level settings, before any table.
    public func setTopLevel(_ key: String, to value: TOMLLiteral) throws(MigaError) {
        var lines = try currentLines()
        let kinds = Self.kinds(of: lines)
        let firstTable = kinds.firstIndex(where: Self.opensTable) ?? lines.count
        let line = "\(key) = \(value.text)"
        if let index = kinds[..<firstTable].firstIndex(of: .keyValue([key])) {
            lines[index] = line + Self.trailingComment(of: lines[index])
        } else {
            // Before the first table's own comments, which belong to it.
            var at = firstTable < lines.count ? Self.commentsAbove(firstTable, in: lines) : firstTable
            while at > 0 && lines[at - 1].allSatisfy(\.isWhitespace) { at -= 1 }
            lines.insert(line, at: at)
            if at == 0 && firstTable < lines.count - 1 { lines.insert("", at: 1) }
        }
        try write(lines) { _ in nil }
    }

    private func remove(_ target: Table) throws(MigaError) {
        var lines = try currentLines()
        guard let table = Self.table(target.path, in: lines, kinds: Self.kinds(of: lines)) else { return }
        // The table goes with the comments written above it, and nothing of the next one's.
        var range = Self.commentsAbove(table.lowerBound - 1, in: lines)..<table.upperBound
        // Take one blank line that separated the table with it (the one before,
        // or after a table at the top), so removal undoes addition.
        if range.lowerBound > 0 && lines[range.lowerBound - 1].allSatisfy(\.isWhitespace) {
            range = (range.lowerBound - 1)..<range.upperBound
        } else if range.upperBound < lines.count && lines[range.upperBound].allSatisfy(\.isWhitespace) {
            range = range.lowerBound..<(range.upperBound + 1)
        }
        lines.removeSubrange(range)
        // Nothing left but blank lines: no file says the same as an empty one.
        if lines.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) {
            guard unlink(path) == 0 || errno == ENOENT else {
                throw MigaError("\(FileSystemError(path: path, code: errno))")
            }
            return
        }
        try write(lines) { config in
            target.isThere(in: config) ? "\(target.header) is still there after removing it" : nil
        }
    }

    // MARK: Internals

    private func currentLines() throws(MigaError) -> [String] {
        let text: String?
        do {
            text = try readTextFile(path)
        } catch {
            throw MigaError("\(error)")
        }
        guard let text else { return [] }
        // Never build on a file that does not parse: the person's version wins.
        if let problem = ConfigLoader.parse(text, file: path).syntaxError {
            let place = [problem.line, problem.column].compactMap { $0.map(String.init) }.joined(separator: ":")
            throw MigaError("\(path):\(place) is not valid TOML; fix it first, then try again")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The lines of the table's body (after its header, up to the next header
    /// or the end, without the comments that belong to the next header and
    /// without trailing blank lines).
    static func table(_ path: [String], in lines: [String], kinds: [TOMLText.Kind]) -> Range<Int>? {
        guard let header = kinds.firstIndex(of: .header(path)) else { return nil }
        var end = kinds[(header + 1)...].firstIndex(where: opensTable).map { commentsAbove($0, in: lines) } ?? lines.count
        end = max(end, header + 1)
        while end > header + 1 && lines[end - 1].allSatisfy(\.isWhitespace) { end -= 1 }
        return (header + 1)..<end
    }

    /// Where the comment lines right above line `index` begin: a comment
    /// belongs to the table or key under it, and goes or stays with it.
    static func commentsAbove(_ index: Int, in lines: [String]) -> Int {
        var start = index
        while start > 0 && lines[start - 1].trimmingWhitespace().hasPrefix("#") { start -= 1 }
        return start
    }

    /// The comment at the end of a `key = value` line, with the spaces before
    /// it (`   # short`), or "" when there is none. A `#` inside a string is text.
    static func trailingComment(of line: String) -> String {
        let text = Substring(line)
        guard var start = TOMLText.firstOutsideQuotes("#", in: text) else { return "" }
        while start > text.startIndex && (text[text.index(before: start)] == " " || text[text.index(before: start)] == "\t") {
            start = text.index(before: start)
        }
        return String(text[start...])
    }

    /// What each line is, read with strings and comments followed (`TOMLText`).
    static func kinds(of lines: [String]) -> [TOMLText.Kind] {
        let kinds = TOMLText(lines.joined(separator: "\n")).lines
        return kinds + Array(repeating: .blank, count: max(0, lines.count - kinds.count))
    }

    /// A line that begins a table, and so ends the one before.
    static func opensTable(_ kind: TOMLText.Kind) -> Bool {
        switch kind {
        case .header, .arrayHeader: true
        default: false
        }
    }

    /// A command as a TOML key: bare when it can be, quoted otherwise.
    static func tableKey(_ command: String) -> String {
        let bare = command.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        return bare ? command : quoted(command)
    }

    /// A TOML basic string.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            // Controls, and Unicode's own line breaks, which a parser may take for ends of lines.
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || [0x85, 0x2028, 0x2029].contains(scalar.value):
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Writes `lines` through a temporary file and a rename, after checking
    /// that they read back as intended; the file keeps its permissions (0600
    /// when new).
    private func write(_ lines: [String], check: (Config) -> String?) throws(MigaError) {
        let text = lines.joined(separator: "\n") + "\n"
        let loaded = ConfigLoader.parse(text, file: path)
        if let problem = loaded.syntaxError {
            throw MigaError("the change would make the file invalid (\(problem.message)); nothing was written")
        }
        if let failure = check(loaded.config) {
            throw MigaError("\(failure); nothing was written")
        }
        do {
            try atomicWrite(text, to: path, mode: 0o600)
        } catch {
            throw MigaError("\(error)")
        }
    }
}


/// A value as TOML writes it.
public struct TOMLLiteral: Equatable, Sendable {
    public let text: String

    public static func integer(_ value: Int) -> TOMLLiteral { TOMLLiteral(text: String(value)) }
    /// Whole numbers without a fraction, so `15` stays `15`.
    public static func number(_ value: Double) -> TOMLLiteral {
        TOMLLiteral(text: value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value))
    }
    public static func boolean(_ value: Bool) -> TOMLLiteral { TOMLLiteral(text: value ? "true" : "false") }
    public static func string(_ value: String) -> TOMLLiteral { TOMLLiteral(text: ConfigEditor.quoted(value)) }
    public static func strings(_ values: [String]) -> TOMLLiteral {
        TOMLLiteral(text: "[" + values.map(ConfigEditor.quoted).joined(separator: ", ") + "]")
    }
}
