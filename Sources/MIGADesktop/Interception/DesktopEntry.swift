import MIGACore

/// A desktop entry file (freedesktop Desktop Entry Specification 1.5), kept line
/// by line so that writing it back gives the same bytes, except for the lines
/// that were changed.
///
/// MIGA rewrites other programs' launchers; whatever it does not touch (comments,
/// translations, keys it has never heard of) must come out exactly as it went in.
public struct DesktopEntry: Equatable, Sendable {
    /// The group every desktop entry file must start with.
    public static let mainGroup = "Desktop Entry"
    /// What the names of action groups start with.
    static let actionGroupPrefix = "Desktop Action "

    private var lines: [Line]
    private var endsWithNewline: Bool

    /// Parses `text`, refusing anything the specification does not allow in the
    /// structure of the file (values are kept as they are, whatever their type).
    public init(text: String) throws(DesktopEntryError) {
        var rawLines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)) }
        // Splitting "a\n" gives ["a", ""]: the empty last piece is the newline
        // at the end, not a line.
        endsWithNewline = rawLines.count > 1 && rawLines.last == ""
        if endsWithNewline { rawLines.removeLast() }

        var lines: [Line] = []
        var currentGroup: String?
        var groupLines: [String: Int] = [:]
        var keyLines: [String: Int] = [:]
        for (index, raw) in rawLines.enumerated() {
            let number = index + 1
            let line = try Line(parsing: raw, number: number)
            switch line {
            case .blank, .comment:
                break
            case .header(let name):
                if let first = groupLines[name] {
                    throw DesktopEntryError(line: number, message: "the group [\(name)] appears twice (first on line \(first))")
                }
                if currentGroup == nil && name != Self.mainGroup {
                    throw DesktopEntryError(line: number, message: "the first group must be [\(Self.mainGroup)], not [\(name)]")
                }
                groupLines[name] = number
                currentGroup = name
                keyLines = [:]
            case .entry(let entry):
                guard let group = currentGroup else {
                    throw DesktopEntryError(line: number, message: "\"\(entry.key)\" comes before the first group; only comments may")
                }
                if keyLines[entry.key] != nil {
                    throw DesktopEntryError(line: number, message: "\"\(entry.key)\" appears twice in [\(group)]")
                }
                keyLines[entry.key] = number
            }
            lines.append(line)
        }
        guard currentGroup != nil else {
            throw DesktopEntryError(message: "there is no [\(Self.mainGroup)] group")
        }
        self.lines = lines
    }

    /// The file as text: the input unchanged, apart from what was set or removed.
    public var text: String {
        var result = lines.map(\.text).joined(separator: "\n")
        if endsWithNewline { result += "\n" }
        return result
    }

    /// The names of all groups, in file order.
    public var groups: [String] {
        lines.compactMap { line in
            if case .header(let name) = line { name } else { nil }
        }
    }

    /// The names of the `Desktop Action …` groups (whole names, ready for
    /// `value(_:in:)`), in file order.
    public var actionGroups: [String] {
        groups.filter { $0.hasPrefix(Self.actionGroupPrefix) }
    }

    /// The keys of `group` (translations each their own: `Name`, `Name[de]`), in file order.
    public func keys(in group: String) -> [String] {
        guard let range = range(of: group) else { return [] }
        return lines[range].compactMap { line in
            if case .entry(let entry) = line { entry.key } else { nil }
        }
    }

    /// The value of `key` in `group` with the string escapes (`\s`, `\n`, `\t`,
    /// `\r`, `\\`) undone, or nil when the group has no such key. The key is
    /// matched exactly: `Name` is not `Name[de]`.
    public func value(_ key: String, in group: String = DesktopEntry.mainGroup) -> String? {
        guard let index = index(of: key, in: group), case .entry(let entry) = lines[index] else { return nil }
        return Self.unescaped(entry.rawValue)
    }

    /// Sets `key` in `group` to `value`, escaped for the file. An existing line is
    /// rewritten where it is (keeping its spacing around `=`); a new key goes after
    /// the group's last key; a missing group is added at the end of the file.
    ///
    /// `key` and `group` must be valid names (a programming error otherwise):
    /// anything else would write a file that no reader accepts.
    public mutating func setValue(_ value: String, for key: String, in group: String = DesktopEntry.mainGroup) {
        precondition(Self.isValidKey(key), "\"\(key)\" is not a valid desktop entry key")
        precondition(Self.isValidGroupName(group), "\"\(group)\" is not a valid desktop entry group name")
        let rawValue = Self.escaped(value)
        if let index = index(of: key, in: group), case .entry(var entry) = lines[index] {
            entry.rawValue = rawValue
            lines[index] = .entry(entry)
            return
        }
        let line = Line.entry(Entry(key: key, prefix: key + "=", rawValue: rawValue))
        if let range = range(of: group) {
            let lastKey = lines[range].lastIndex { if case .entry = $0 { true } else { false } }
            lines.insert(line, at: (lastKey ?? range.lowerBound) + 1)
        } else {
            if let last = lines.last, last != .blank { lines.append(.blank) }
            lines.append(.header(group))
            lines.append(line)
        }
    }

    /// Removes `key` (exactly that key, not its translations) from `group`.
    public mutating func removeValue(for key: String, in group: String = DesktopEntry.mainGroup) {
        if let index = index(of: key, in: group) { lines.remove(at: index) }
    }

    /// The lines of `group`, from its header to the line before the next header.
    private func range(of group: String) -> Range<Int>? {
        guard let start = lines.firstIndex(of: .header(group)) else { return nil }
        let end = lines[(start + 1)...].firstIndex { if case .header = $0 { true } else { false } } ?? lines.endIndex
        return start..<end
    }

    private func index(of key: String, in group: String) -> Int? {
        guard let range = range(of: group) else { return nil }
        return lines[range].firstIndex { if case .entry(let entry) = $0 { entry.key == key } else { false } }
    }
}

/// Why a desktop entry file or an Exec command line cannot be used, and where.
public struct DesktopEntryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line of the file, when the problem is on one line.
    public let line: Int?
    public let message: String

    public init(line: Int? = nil, message: String) {
        self.line = line
        self.message = message.replacingOccurrences(of: "\n", with: "⏎") // one line, always
    }

    public var description: String {
        if let line { "line \(line): \(message)" } else { message }
    }
}

// MARK: - Lines

extension DesktopEntry {
    /// One line of the file, without its newline.
    private enum Line: Equatable, Sendable {
        case blank
        case comment(String)
        case header(String)
        case entry(Entry)

        var text: String {
            switch self {
            case .blank: ""
            case .comment(let text): text
            case .header(let name): "[\(name)]"
            case .entry(let entry): entry.prefix + entry.rawValue
            }
        }

        init(parsing raw: String, number: Int) throws(DesktopEntryError) {
            let scalars = raw.unicodeScalars
            guard let first = scalars.first else {
                self = .blank
                return
            }
            if scalars.last == "\r" {
                throw DesktopEntryError(line: number, message: "the line ends with a carriage return; lines end with a line feed only")
            }
            if first == "#" {
                self = .comment(raw)
                return
            }
            // The specification gives no meaning to leading whitespace, and
            // desktop-file-validate rejects it; guessing could misread the file.
            if first == " " || first == "\t" {
                throw DesktopEntryError(line: number, message: "the line starts with whitespace; comments, group headers and keys start at the first column")
            }
            if first == "[" {
                let name = String(String.UnicodeScalarView(scalars.dropFirst().dropLast()))
                guard scalars.count >= 2, scalars.last == "]", DesktopEntry.isValidGroupName(name) else {
                    throw DesktopEntryError(line: number, message: "\"\(raw)\" is not a valid group header (a name of printable ASCII characters other than [ and ], between [ and ])")
                }
                self = .header(name)
                return
            }
            guard let equals = scalars.firstIndex(of: "=") else {
                throw DesktopEntryError(line: number, message: "\"\(raw)\" is not a comment, a group header or a key=value line")
            }
            // Spaces around "=" are not part of the key or the value.
            var keyEnd = equals
            while keyEnd > scalars.startIndex, DesktopEntry.isSpace(scalars[scalars.index(before: keyEnd)]) {
                keyEnd = scalars.index(before: keyEnd)
            }
            var valueStart = scalars.index(after: equals)
            while valueStart < scalars.endIndex, DesktopEntry.isSpace(scalars[valueStart]) {
                valueStart = scalars.index(after: valueStart)
            }
            let key = String(scalars[..<keyEnd])
            guard DesktopEntry.isValidKey(key) else {
                throw DesktopEntryError(line: number, message: "\"\(key)\" is not a valid key (letters, digits and \"-\", then maybe a [locale])")
            }
            self = .entry(Entry(key: key, prefix: String(scalars[..<valueStart]), rawValue: String(scalars[valueStart...])))
        }
    }

    /// A key line: the key, the text up to where the value starts (the key and
    /// the `=` with whatever spaces surround it), and the value as written.
    private struct Entry: Equatable, Sendable {
        let key: String
        let prefix: String
        var rawValue: String
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

    /// `A-Za-z0-9-` only, optionally followed by a locale: `Name`, `Name[sr_RS@latin]`.
    static func isValidKey(_ key: String) -> Bool {
        let scalars = key.unicodeScalars
        let nameEnd = scalars.firstIndex(of: "[") ?? scalars.endIndex
        let name = scalars[..<nameEnd]
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") })
        else { return false }
        guard nameEnd < scalars.endIndex else { return true }
        // lang_COUNTRY.ENCODING@MODIFIER; "-" too, for the x-test locale of
        // translation tools.
        let locale = scalars[scalars.index(after: nameEnd)...].dropLast()
        return scalars.last == "]" && !locale.isEmpty
            && locale.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.@-".unicodeScalars.contains($0)) }
    }

    /// "All ASCII characters except for [ and ] and control characters."
    static func isValidGroupName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { (" "..."~").contains($0) && $0 != "[" && $0 != "]" }
    }
}

// MARK: - String escapes

extension DesktopEntry {
    /// The value with `\s`, `\n`, `\t`, `\r` and `\\` undone. Any other backslash
    /// stays, since it belongs to another layer (`\;` in lists, Exec quoting).
    static func unescaped(_ raw: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = raw.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            guard scalar == "\\", let next = pending else {
                result.append(scalar)
                continue
            }
            let replacement: Unicode.Scalar? = switch next {
            case "s": " "
            case "n": "\n"
            case "t": "\t"
            case "r": "\r"
            case "\\": "\\"
            default: nil
            }
            if let replacement {
                result.append(replacement)
                pending = scalars.next()
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The value as the file must hold it: one line, and a leading space that
    /// survives the spaces-around-`=` rule.
    static func escaped(_ value: String) -> String {
        var result = String.UnicodeScalarView()
        for (offset, scalar) in value.unicodeScalars.enumerated() {
            switch scalar {
            case "\\": result.append(contentsOf: #"\\"#.unicodeScalars)
            case "\n": result.append(contentsOf: #"\n"#.unicodeScalars)
            case "\t": result.append(contentsOf: #"\t"#.unicodeScalars)
            case "\r": result.append(contentsOf: #"\r"#.unicodeScalars)
            case " " where offset == 0: result.append(contentsOf: #"\s"#.unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
