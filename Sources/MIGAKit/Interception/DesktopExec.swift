/// One argument of an Exec command line, as the Desktop Entry Specification reads it.
public enum ExecArgument: Equatable, Sendable {
    /// Literal text, quoting undone and `%%` already turned into `%`.
    case text(String)
    /// A field code that is the whole argument, without its `%`: `u` for `%u`.
    /// The deprecated codes (`d D n N v m`) are kept too, for the caller to drop.
    case fieldCode(Character)
    /// An unquoted argument with a field code inside other text, such as
    /// `--url=%u`, exactly as written (`%%` included): the launcher expands it.
    case template(String)
}

/// Splits the value of an Exec key into arguments and joins arguments into one,
/// following the quoting rules of the Desktop Entry Specification.
///
/// Both work on the value as `DesktopEntry.value(_:in:)` returns it and
/// `setValue` takes it: the string escapes of the file are another layer.
public enum DesktopExec {
    /// The field codes of the specification, current and deprecated.
    static let fieldCodes: Set<Unicode.Scalar> = ["f", "F", "u", "U", "i", "c", "k", "d", "D", "n", "N", "v", "m"]
    /// The field codes that receive the files or URLs; a command line has at most one.
    static let targetFieldCodes: Set<Unicode.Scalar> = ["f", "F", "u", "U"]
    /// Characters that only a quoted argument may contain.
    static let reserved: Set<Unicode.Scalar> = [" ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";",
                                                "$", "*", "?", "#", "(", ")", "`"]
    /// Characters that need a backslash inside double quotes.
    static let escapedInQuotes: Set<Unicode.Scalar> = ["\"", "`", "$", "\\"]

    /// The arguments of `exec`, or why it is not a valid command line: a quote
    /// left open, a reserved character outside quotes, an unknown field code or a
    /// lone `%`, or more than one of `%f %u %F %U`.
    public static func split(_ exec: String) throws(DesktopEntryError) -> [ExecArgument] {
        var reader = Reader(exec)
        var arguments: [ExecArgument] = []
        var targets: [Unicode.Scalar] = []
        while let argument = try reader.nextArgument(number: arguments.count + 1) {
            arguments.append(argument.value)
            targets += argument.fieldCodes.filter(targetFieldCodes.contains)
        }
        if targets.count > 1 {
            let found = targets.map { "%\($0)" }.joined(separator: " and ")
            throw DesktopEntryError(message: "the command line has \(found), but may have only one of %f, %u, %F and %U")
        }
        return arguments
    }

    /// The literal arguments of `exec`, as a launcher runs it without files:
    /// field codes and templates dropped; none when it does not split.
    public static func texts(_ exec: String) -> [String] {
        ((try? split(exec)) ?? []).compactMap { if case .text(let text) = $0 { text } else { nil } }
    }

    /// The program a command line runs: its first word, or past `env` the
    /// first word that is neither an option nor an assignment
    /// (`env GDK_BACKEND=x11 firefox`, `#!/usr/bin/env -S bash -e`).
    public static func program(in words: [String]) -> String? {
        guard let first = words.first else { return nil }
        guard baseName(of: first) == "env" else { return first }
        return words.dropFirst().first { !$0.hasPrefix("-") && !$0.contains("=") }
    }

    /// The Exec value that `split` reads back as `arguments`. Text is quoted when
    /// it is empty or has a reserved character; templates are written as they are.
    public static func join(_ arguments: [ExecArgument]) -> String {
        arguments.map { argument in
            switch argument {
            case .fieldCode(let code): "%\(code)"
            case .template(let template): template
            case .text(let text): quoted(text)
            }
        }.joined(separator: " ")
    }

    private static func quoted(_ text: String) -> String {
        let needsQuotes = text.isEmpty || text.unicodeScalars.contains(where: reserved.contains)
        var result = String.UnicodeScalarView()
        if needsQuotes { result.append("\"") }
        for scalar in text.unicodeScalars {
            if scalar == "%" { result.append("%") }
            if needsQuotes && escapedInQuotes.contains(scalar) { result.append("\\") }
            result.append(scalar)
        }
        if needsQuotes { result.append("\"") }
        return String(result)
    }

    /// Reads arguments one by one, remembering where it is.
    private struct Reader {
        let scalars: [Unicode.Scalar]
        var position = 0

        init(_ exec: String) { scalars = Array(exec.unicodeScalars) }

        /// The next argument and the field codes in it, or nil at the end.
        mutating func nextArgument(number: Int) throws(DesktopEntryError) -> (value: ExecArgument, fieldCodes: [Unicode.Scalar])? {
            while position < scalars.count, scalars[position] == " " { position += 1 }
            guard position < scalars.count else { return nil }
            let start = position
            var text = String.UnicodeScalarView()
            var fieldCodes: [Unicode.Scalar] = []
            var quoted = false
            while position < scalars.count, scalars[position] != " " {
                let scalar = scalars[position]
                if scalar == "\"" {
                    quoted = true
                    try readQuoted(into: &text, number: number)
                } else if scalar == "%" {
                    let next = position + 1 < scalars.count ? scalars[position + 1] : " "
                    if next == "%" {
                        text.append("%")
                    } else if DesktopExec.fieldCodes.contains(next) {
                        fieldCodes.append(next)
                    } else if next == " " {
                        throw DesktopEntryError(message: "argument \(number) ends with a lone \"%\"; a literal percent sign is written \"%%\"")
                    } else {
                        throw DesktopEntryError(message: "argument \(number) has \"%\(next)\", which is not a field code of the specification")
                    }
                    position += 2
                } else if DesktopExec.reserved.contains(scalar) {
                    throw DesktopEntryError(message: "argument \(number) has \(Self.describe(scalar)) outside double quotes, where it is reserved")
                } else {
                    text.append(scalar)
                    position += 1
                }
            }
            let raw = String(String.UnicodeScalarView(scalars[start..<position]))
            guard let code = fieldCodes.first else { return (.text(String(text)), []) }
            if quoted {
                // Whether a launcher would quote the expansion is anyone's guess.
                throw DesktopEntryError(message: "argument \(number) has both a quoted part and the field code %\(code)")
            }
            if position - start == 2 { return (.fieldCode(Character(code)), fieldCodes) }
            return (.template(raw), fieldCodes)
        }

        /// Reads from an opening double quote to its closing one, undoing the
        /// backslash escapes and `%%`.
        private mutating func readQuoted(into text: inout String.UnicodeScalarView, number: Int) throws(DesktopEntryError) {
            let unclosed = DesktopEntryError(message: "the double quote that opens argument \(number) is never closed")
            position += 1
            while position < scalars.count {
                let scalar = scalars[position]
                let next = position + 1 < scalars.count ? scalars[position + 1] : nil
                switch scalar {
                case "\"":
                    position += 1
                    return
                case "\\":
                    guard let next else { throw unclosed }
                    guard DesktopExec.escapedInQuotes.contains(next) else {
                        throw DesktopEntryError(message: "argument \(number) has a backslash before \(Self.describe(next)) inside double quotes; only \", `, $ and \\ may follow one")
                    }
                    text.append(next)
                    position += 2
                case "%" where next == "%":
                    text.append("%")
                    position += 2
                default:
                    text.append(scalar)
                    position += 1
                }
            }
            throw unclosed
        }

        private static func describe(_ scalar: Unicode.Scalar) -> String {
            switch scalar {
            case "\t": "a tab"
            case "\n": "a newline"
            default: "\"\(scalar)\""
            }
        }
    }
}
