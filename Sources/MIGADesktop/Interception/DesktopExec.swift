import MIGACore

/// One argument of an Exec command line, as the Desktop Entry Specification reads it.
public enum ExecArgument: Equatable, Sendable {
    /// Literal text, quoting undone and `%%` already turned into `%`.
    case text(String)
    /// A field code that is the whole argument, without its `%`: `u` for `%u`.
    case fieldCode(Character)
    /// An unquoted argument with a field code inside other text, such as
    /// `--url=%u`, exactly as written (`%%` included): the launcher expands it.
    case template(String)
}

/// Splits the value of an Exec key into arguments the way GLib's launcher
/// does (`gio launch`, the GNOME menu and most others; `dex` reads the same
/// lines alike), and joins arguments into the specification's own quoted form,
/// which every launcher reads back as the same arguments.
///
/// Both work on the value as `DesktopEntry.value(_:in:)` returns it and
/// `setValue` takes it: the string escapes of the file are another layer.
public enum DesktopExec {
    /// The field codes GLib expands (`d D n N` consume files like `f F`); any
    /// other letter after `%`, the deprecated `%m` and `%v` included, is dropped with it.
    static let fieldCodes: Set<Unicode.Scalar> = ["f", "F", "u", "U", "i", "c", "k", "d", "D", "n", "N"]
    /// Characters the specification lets only a quoted argument contain.
    static let reserved: Set<Unicode.Scalar> = [" ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";",
                                                "$", "*", "?", "#", "(", ")", "`"]
    /// Characters that need a backslash inside double quotes.
    static let escapedInQuotes: Set<Unicode.Scalar> = ["\"", "`", "$", "\\"]
    /// What separates words outside quotes.
    static let blanks: Set<Unicode.Scalar> = [" ", "\t", "\n"]

    /// The arguments of `exec` as GLib runs it without files: field codes
    /// first (`%%` is `%`, an unknown code is dropped with its letter, a `%`
    /// at the very end stays), then the shell quoting of `g_shell_parse_argv`
    /// undone — single quotes literal; double quotes where a backslash escapes
    /// only `$` `` ` `` `"` `\` and a newline; a backslash outside quotes
    /// escaping any character (and a backslash-newline nothing); `#` after a
    /// space or newline commenting out the rest of the line. The characters
    /// the specification reserves (`;`, `&`, `'`…) are text, as they are to GLib.
    ///
    /// Throws for what no launcher runs (a quote left open) and for what
    /// cannot be written back as the same command line: a field code inside
    /// quotes, after a backslash, in text that needs quoting, or a `%` before
    /// a character outside ASCII (GLib drops half of it).
    ///   - fieldCodes: false for a D-Bus service's Exec, where `%` is plain text.
    public static func split(_ exec: String, fieldCodes: Bool = true) throws(DesktopEntryError) -> [ExecArgument] {
        var reader = Reader(pieces: fieldCodes ? try expandingPercents(exec) : exec.unicodeScalars.map { .character($0) })
        var arguments: [ExecArgument] = []
        while let argument = try reader.nextArgument(number: arguments.count + 1) {
            arguments.append(argument)
        }
        return arguments
    }

    /// The literal arguments of `exec`, as a launcher runs it without files:
    /// field codes and templates dropped; none when it does not split.
    public static func texts(_ exec: String) -> [String] { texts(exec, fieldCodes: true) }

    public static func texts(_ exec: String, fieldCodes: Bool) -> [String] {
        ((try? split(exec, fieldCodes: fieldCodes)) ?? []).compactMap { if case .text(let text) = $0 { text } else { nil } }
    }

    /// The words of `exec` for telling which program it starts: its texts,
    /// or when it does not split (a quote left open), its blank-separated
    /// words without quote marks, so that an entry MIGA cannot rewrite is
    /// still found, and named as not covered.
    public static func words(_ exec: String, fieldCodes: Bool = true) -> [String] {
        if let arguments = try? split(exec, fieldCodes: fieldCodes) {
            return arguments.compactMap { if case .text(let text) = $0 { text } else { nil } }
        }
        return exec.unicodeScalars.split(whereSeparator: blanks.contains)
            .map { String(String.UnicodeScalarView($0.filter { $0 != "\"" && $0 != "'" })) }
    }

    /// Why `exec` cannot be rewritten, or nil when it can (or is empty).
    public static func problem(in exec: String, fieldCodes: Bool = true) -> String? {
        do {
            _ = try split(exec, fieldCodes: fieldCodes)
            return nil
        } catch {
            return error.message
        }
    }

    /// The program a command line runs: its first word, or past `env` the
    /// first word that is neither an option nor an assignment
    /// (`env GDK_BACKEND=x11 firefox`, `#!/usr/bin/env -S bash -e`).
    public static func program(in words: [String]) -> String? {
        guard let first = words.first else { return nil }
        guard baseName(of: first) == "env" else { return first }
        return words.dropFirst().first { !$0.hasPrefix("-") && !$0.contains("=") }
    }

    /// The Exec value that `split` reads back as `arguments`, in the quoting
    /// of the specification (which GLib and dex read alike): text is quoted
    /// when it is empty or has a reserved character; templates are written as they are.
    ///   - fieldCodes: false for a D-Bus service's Exec, where `%` is not doubled.
    public static func join(_ arguments: [ExecArgument], fieldCodes: Bool = true) -> String {
        arguments.map { argument in
            switch argument {
            case .fieldCode(let code): "%\(code)"
            case .template(let template): template
            case .text(let text): quoted(text, doublingPercents: fieldCodes)
            }
        }.joined(separator: " ")
    }

    private static func quoted(_ text: String, doublingPercents: Bool) -> String {
        let needsQuotes = text.isEmpty || text.unicodeScalars.contains(where: reserved.contains)
        var result = String.UnicodeScalarView()
        if needsQuotes { result.append("\"") }
        for scalar in text.unicodeScalars {
            if scalar == "%" && doublingPercents { result.append("%") }
            if needsQuotes && escapedInQuotes.contains(scalar) { result.append("\\") }
            result.append(scalar)
        }
        if needsQuotes { result.append("\"") }
        return String(result)
    }

    /// A character for the shell reading, or a field code GLib expands in its place.
    enum Piece: Equatable {
        case character(Unicode.Scalar)
        case code(Unicode.Scalar)
    }

    /// GLib's first pass (`expand_application_parameters`), which knows nothing of quotes.
    static func expandingPercents(_ exec: String) throws(DesktopEntryError) -> [Piece] {
        let scalars = Array(exec.unicodeScalars)
        var pieces: [Piece] = []
        var position = 0
        while position < scalars.count {
            guard scalars[position] == "%", position + 1 < scalars.count else {
                pieces.append(.character(scalars[position]))
                position += 1
                continue
            }
            let next = scalars[position + 1]
            guard next.isASCII else {
                let code = String(next.value, radix: 16, uppercase: true)
                throw DesktopEntryError(message: "the command line has a \"%\" before U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code), of which a launcher keeps only part")
            }
            if next == "%" {
                pieces.append(.character("%"))
            } else if fieldCodes.contains(next) {
                pieces.append(.code(next))
            }
            position += 2
        }
        return pieces
    }

    /// Reads arguments one by one, remembering where it is.
    private struct Reader {
        let pieces: [Piece]
        var position = 0

        /// One argument being read: its text, and its specification form while it may be a template.
        struct Word {
            var text = String.UnicodeScalarView()
            var template = String.UnicodeScalarView()
            var codes: [Unicode.Scalar] = []
            var needsQuotes = false

            mutating func append(_ scalar: Unicode.Scalar) {
                text.append(scalar)
                if scalar == "%" { template.append("%") }
                template.append(scalar)
                if DesktopExec.reserved.contains(scalar) { needsQuotes = true }
            }
        }

        func character(at index: Int) -> Unicode.Scalar? {
            guard index < pieces.count, case .character(let scalar) = pieces[index] else { return nil }
            return scalar
        }

        /// Whether a `#` at `index` starts a comment: first, or after a space or newline.
        func startsComment(at index: Int) -> Bool {
            character(at: index) == "#" && (index == 0 || character(at: index - 1) == " " || character(at: index - 1) == "\n")
        }

        mutating func skipComment() {
            while position < pieces.count, character(at: position) != "\n" { position += 1 }
        }

        /// The next argument, or nil at the end.
        mutating func nextArgument(number: Int) throws(DesktopEntryError) -> ExecArgument? {
            while position < pieces.count {
                if let scalar = character(at: position), DesktopExec.blanks.contains(scalar) {
                    position += 1
                } else if startsComment(at: position) {
                    skipComment()
                } else {
                    break
                }
            }
            guard position < pieces.count else { return nil }
            var word = Word()
            while position < pieces.count {
                guard let scalar = character(at: position) else {
                    if case .code(let code) = pieces[position] { word.codes.append(code); word.template += ["%", code] }
                    position += 1
                    continue
                }
                if DesktopExec.blanks.contains(scalar) { break }
                if startsComment(at: position) {
                    skipComment()
                    continue
                }
                position += 1
                switch scalar {
                case "'": try readSingleQuoted(into: &word, number: number)
                case "\"": try readDoubleQuoted(into: &word, number: number)
                case "\\":
                    guard position < pieces.count else { continue }
                    guard let next = character(at: position) else { throw Self.codeInQuotes(pieces[position], number: number) }
                    if next != "\n" { word.append(next) }
                    position += 1
                default: word.append(scalar)
                }
            }
            guard let code = word.codes.first else { return .text(String(word.text)) }
            if word.codes.count == 1 && word.text.isEmpty { return .fieldCode(Character(code)) }
            if word.needsQuotes {
                throw DesktopEntryError(message: "argument \(number) has the field code %\(code) inside text that needs quoting")
            }
            return .template(String(word.template))
        }

        private mutating func readSingleQuoted(into word: inout Word, number: Int) throws(DesktopEntryError) {
            while position < pieces.count {
                guard let scalar = character(at: position) else { throw Self.codeInQuotes(pieces[position], number: number) }
                position += 1
                if scalar == "'" { return }
                word.append(scalar)
            }
            throw DesktopEntryError(message: "the single quote in argument \(number) is never closed")
        }

        /// Reads to the closing double quote, undoing the escapes GLib undoes
        /// there; a backslash before any other character stays.
        private mutating func readDoubleQuoted(into word: inout Word, number: Int) throws(DesktopEntryError) {
            while position < pieces.count {
                guard let scalar = character(at: position) else { throw Self.codeInQuotes(pieces[position], number: number) }
                position += 1
                switch scalar {
                case "\"": return
                case "\\":
                    if let next = character(at: position), DesktopExec.escapedInQuotes.contains(next) || next == "\n" {
                        word.append(next)
                        position += 1
                    } else {
                        word.append("\\")
                    }
                default: word.append(scalar)
                }
            }
            throw DesktopEntryError(message: "the double quote in argument \(number) is never closed")
        }

        static func codeInQuotes(_ piece: Piece, number: Int) -> DesktopEntryError {
            let code = if case .code(let code) = piece { code } else { Unicode.Scalar("?") }
            return DesktopEntryError(message: "argument \(number) has the field code %\(code) inside quotes or after a backslash, where a launcher's expansion is its own quoting")
        }
    }
}
