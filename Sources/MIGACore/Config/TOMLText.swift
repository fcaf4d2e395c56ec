/// TOML text read the way MIGA needs beside the real parser: which lines are
/// table headers and which set a key, with the dotted key path each names,
/// and what in the text the real parser must never see. One reading, shared
/// by the loader (its guard and the places of its problems) and the editor
/// (which changes the file line by line, keeping everything else).
///
/// Strings and comments are followed scalar by scalar, so a `[` or a `=`
/// inside a string, or a line inside a multi-line string, is never taken
/// for a header or a key.
package struct TOMLText {
    /// One line of the file, as it stands outside strings.
    package enum Kind: Equatable {
        case blank
        case comment
        /// `[a."b.c"]`: the keys of the table it opens.
        case header([String])
        /// `[[a.b]]`: an array of tables (MIGA writes none; it is kept as it is).
        case arrayHeader([String])
        /// `a."b" = …`: the dotted key it sets, within the current table.
        case keyValue([String])
        /// Anything else: the inside of a multi-line string or array, or a line the parser will refuse.
        case other
    }

    /// The kind of each line, in order (line N of the file is `lines[N - 1]`).
    package let lines: [Kind]
    /// The first place where the text holds something the TOML parser
    /// underneath (toml++ 3.4, in TOMLKit 0.6) does not survive or does not
    /// see: a table header whose first character cannot begin a key, and a
    /// Unicode line break outside a string, make it abort the process (an
    /// assertion, kept in release builds), and a NUL (raw or escaped) ends the
    /// text or the string it is given. The loader reports each as a syntax
    /// error with its place, and never hands such a text on.
    package let hazard: (line: Int, column: Int, message: String)?

    package init(_ text: String) {
        var lexer = Lexer(Array(text.unicodeScalars))
        lexer.run()
        lines = lexer.kinds
        hazard = lexer.hazard
    }

    // MARK: Keys

    /// The keys of a dotted key (`programs."python3.11"` → programs,
    /// python3.11): dots inside quotes are part of a key, and a basic
    /// string's escapes are undone. Nil when it is not a key.
    static func keyPath(_ text: Substring) -> [String]? {
        var keys: [String] = []
        var key = String.UnicodeScalarView()
        var quoted = false
        var scalars = text.unicodeScalars.makeIterator()
        func finish() -> Bool {
            let trimmed = String(key).trimmingWhitespace()
            guard quoted || !trimmed.isEmpty else { return false }
            keys.append(quoted ? String(key) : trimmed)
            (key, quoted) = (String.UnicodeScalarView(), false)
            return true
        }
        while let scalar = scalars.next() {
            switch scalar {
            case ".":
                guard finish() else { return nil }
            case "'":
                guard String(key).trimmingWhitespace().isEmpty else { return nil }
                (key, quoted) = (String.UnicodeScalarView(), true)
                while let next = scalars.next(), next != "'" { key.append(next) }
            case "\"":
                guard String(key).trimmingWhitespace().isEmpty else { return nil }
                (key, quoted) = (String.UnicodeScalarView(), true)
                while let next = scalars.next(), next != "\"" {
                    guard next == "\\", let escaped = scalars.next() else { key.append(next); continue }
                    key.append(contentsOf: unescaped(escaped, &scalars).unicodeScalars)
                }
            case " ", "\t":
                if !quoted { key.append(scalar) }
            default:
                guard !quoted else { return nil }
                key.append(scalar)
            }
        }
        return finish() ? keys : nil
    }

    /// What a backslash and `escaped` stand for in a basic string.
    private static func unescaped<Scalars: IteratorProtocol<Unicode.Scalar>>(_ escaped: Unicode.Scalar,
                                                                           _ scalars: inout Scalars) -> String {
        switch escaped {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "b": return "\u{8}"
        case "f": return "\u{C}"
        case "e": return "\u{1B}"
        case "u", "U":
            var hex = ""
            for _ in 0..<(escaped == "u" ? 4 : 8) { if let digit = scalars.next() { hex.unicodeScalars.append(digit) } }
            return UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init).map { String($0) } ?? ""
        default: return String(escaped)
        }
    }

    /// Where `marker` first stands outside quotes in `text`.
    package static func firstOutsideQuotes(_ marker: String, in text: Substring) -> Substring.Index? {
        var quote: Character?
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if escaped { escaped = false } else if open == "\"" && character == "\\" { escaped = true } else if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if text[index...].hasPrefix(marker) {
                return index
            }
            index = text.index(after: index)
        }
        return nil
    }

    // MARK: The lexer

    /// One pass over the scalars, knowing at each one whether it is inside a
    /// string or a comment.
    private struct Lexer {
        enum Place { case outside, comment, basic, literal, multilineBasic, multilineLiteral }

        let scalars: [Unicode.Scalar]
        var kinds: [Kind] = []
        var hazard: (line: Int, column: Int, message: String)?

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        static let unicodeBreaks: Set<Unicode.Scalar> = ["\u{85}", "\u{2028}", "\u{2029}"]
        /// The deepest nesting MIGA hands the parser, which recurses on it:
        /// keys of this many parts, arrays and inline tables this deep.
        static let depthLimit = 32

        static func canStartKey(_ scalar: Unicode.Scalar) -> Bool {
            ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "_" || scalar == "-" || scalar == "\"" || scalar == "'"
        }

        func triple(_ quote: Unicode.Scalar, at index: Int) -> Bool {
            index + 3 <= scalars.count && scalars[index] == quote && scalars[index + 1] == quote && scalars[index + 2] == quote
        }

        // whole: a scanner's state machine; its state lives in the one loop, and it reads best in one piece.
        mutating func run() {
            var place = Place.outside
            var (line, column) = (1, 1)
            var atLineStart = true
            var lineStart = 0
            var lineBeganOutside = true
            // The brackets open here, innermost last.
            var open: [Unicode.Scalar] = []
            // Dots in the key part of the line (before its `=`, or in a header).
            var keyDots = 0
            var inKey = true
            var index = 0
            func note(_ message: String) {
                if hazard == nil { hazard = (line, column, message) }
            }
            while index < scalars.count {
                let scalar = scalars[index]
                var step = 1
                if scalar == "\u{0}" { note("a NUL byte, which a config file cannot hold") }
                switch place {
                case .basic, .multilineBasic:
                    if scalar == "\\", index + 1 < scalars.count {
                        let width = scalars[index + 1] == "u" ? 4 : scalars[index + 1] == "U" ? 8 : 0
                        if width > 0, index + 2 + width <= scalars.count,
                           scalars[(index + 2)..<(index + 2 + width)].allSatisfy({ $0 == "0" }) {
                            note("an escaped NUL (\\u0000), which MIGA cannot keep in a value")
                        }
                        step = scalars[index + 1] == "\n" ? 1 : 2
                    } else if place == .basic && scalar == "\"" {
                        place = .outside
                    } else if place == .multilineBasic && triple("\"", at: index) {
                        place = .outside
                        step = 3
                    }
                case .literal:
                    if scalar == "'" { place = .outside }
                case .multilineLiteral:
                    if triple("'", at: index) {
                        place = .outside
                        step = 3
                    }
                case .comment:
                    break
                case .outside:
                    if atLineStart && scalar == "[" {
                        var next = index + 1
                        let double = next < scalars.count && scalars[next] == "["
                        if double { next += 1 }
                        while next < scalars.count && (scalars[next] == " " || scalars[next] == "\t") { next += 1 }
                        if next < scalars.count, !Self.canStartKey(scalars[next]), scalars[next] != "]",
                           !(scalars[next] == "[" && !double) {
                            note("a table name must begin with a letter, a digit, - or _, or be quoted")
                        }
                    }
                    if Self.unicodeBreaks.contains(scalar) {
                        note("U+\(String(scalar.value, radix: 16, uppercase: true)) (a Unicode line break) outside a string")
                    }
                    // Nesting, outside strings: [ and { open, ] and } close (a
                    // header's brackets count too, and close on their line). A
                    // closer of the other kind (`a = [1, }`) makes toml++ abort
                    // where it expects a value, so it is an error here.
                    if scalar == "[" || scalar == "{" {
                        open.append(scalar)
                        if open.count > Self.depthLimit { note("brackets nested more than \(Self.depthLimit) deep") }
                    }
                    if scalar == "]" || scalar == "}", let innermost = open.popLast(), innermost != (scalar == "]" ? "[" : "{") {
                        note("\"\(scalar)\" where \"\(innermost)\" is still open")
                    }
                    if scalar == "=" { inKey = false }
                    if scalar == "." && inKey {
                        keyDots += 1
                        if keyDots == Self.depthLimit { note("a key of more than \(Self.depthLimit) parts") }
                    }
                    if scalar == "#" { place = .comment }
                    if scalar == "\"" {
                        place = triple("\"", at: index) ? .multilineBasic : .basic
                        if place == .multilineBasic { step = 3 }
                    }
                    if scalar == "'" {
                        place = triple("'", at: index) ? .multilineLiteral : .literal
                        if place == .multilineLiteral { step = 3 }
                    }
                }
                if scalar == "\n" {
                    kinds.append(lineBeganOutside ? Self.kind(of: scalars[lineStart..<index]) : .other)
                    (line, column, atLineStart) = (line + 1, 1, true)
                    (keyDots, inKey) = (0, true)
                    if place == .comment || place == .basic || place == .literal { place = .outside }
                    lineStart = index + 1
                    lineBeganOutside = place == .outside
                } else {
                    if scalar != " " && scalar != "\t" && !(scalar == "\u{FEFF}" && index == 0) { atLineStart = false }
                    column += step
                }
                index += step
            }
            if lineStart < scalars.count {
                kinds.append(lineBeganOutside ? Self.kind(of: scalars[lineStart...]) : .other)
            }
        }

        /// What a line that begins outside any string is.
        static func kind(of line: ArraySlice<Unicode.Scalar>) -> Kind {
            var text = String(String.UnicodeScalarView(line))
            if text.hasSuffix("\r") { text.removeLast() }
            let trimmed = Substring(text).trimmingWhitespace()
            if trimmed.isEmpty { return .blank }
            if trimmed.hasPrefix("#") { return .comment }
            if trimmed.hasPrefix("[[") {
                guard let close = TOMLText.firstOutsideQuotes("]]", in: Substring(trimmed).dropFirst(2)),
                      let path = TOMLText.keyPath(Substring(trimmed).dropFirst(2)[..<close]) else { return .other }
                return .arrayHeader(path)
            }
            if trimmed.hasPrefix("[") {
                guard let close = TOMLText.firstOutsideQuotes("]", in: Substring(trimmed).dropFirst()),
                      let path = TOMLText.keyPath(Substring(trimmed).dropFirst()[..<close]) else { return .other }
                return .header(path)
            }
            guard let equals = TOMLText.firstOutsideQuotes("=", in: Substring(trimmed)),
                  let path = TOMLText.keyPath(Substring(trimmed)[..<equals]) else { return .other }
            return .keyValue(path)
        }
    }
}
