#if canImport(Glibc)
import Glibc
#endif

/// A program that ended within moments of its Proceed, and not as it means
/// to: Chromium run as root refuses to start without `--no-sandbox`, says why
/// on standard error alone, and the window the person waited for never opens.
/// Started detached, nobody would read that; MIGA says it, and keeps it with
/// the session.
public struct EarlyStop: Equatable, Sendable {
    /// What the program said as it stopped (its telling line, cleaned), or how it ended when it said nothing.
    public let words: String

    /// How long after its start an ending counts as "at once".
    public static let window = 2.0
    /// At most this much error output is kept: its end, where the reason is.
    public static let keptOutput = 4096
    /// At most this many characters of a line are kept.
    public static let longestWords = 200

    public init(words: String) {
        self.words = words
    }

    /// The stop to report, or nil: a program still running at the end of the
    /// window, or one that ended after it, is running as it should; one that
    /// ended with 0 at once handed its work over (a browser already open
    /// takes the new window itself).
    public init?(ending: ProcessEnding?, after seconds: Double, errorOutput: [UInt8]) {
        guard let ending, seconds <= Self.window else { return nil }
        switch ending {
        case .exited(0): return nil
        case .exited(let status):
            words = Self.tellingLine(errorOutput) ?? "it ended with status \(status), saying nothing"
        case .signalled(let signal):
            words = Self.tellingLine(errorOutput) ?? "it ended on signal \(signal) (\(String(cString: strsignal(signal))))"
        }
    }

    // MARK: Reading the error output

    /// The line that says why: the last one with words in it. The first is
    /// often noise before the reason (Debian's `chromium` wrapper script warns
    /// about its own shell test before Chromium says "Running as root without
    /// --no-sandbox is not supported"), and a program's last words before
    /// stopping are the ones that stopped it. Nil when there is none.
    package static func tellingLine(_ output: [UInt8]) -> String? {
        let text = withoutEscapes(String(decoding: output, as: UTF8.self))
        let lines = text.unicodeScalars.split { $0 == "\n" || $0 == "\r" }.map { String(String.UnicodeScalarView($0)) }
        return lines.lazy.reversed().map(cleaned).first { line in line.unicodeScalars.contains(where: isWordScalar) }
    }

    /// One line as a notification and a terminal may show it: no control
    /// character (a tab is a space), no logging prefix such as Chromium's
    /// `[4242:4242:1125/184648.111430:ERROR:file.cc:103]`, no blanks at the
    /// ends, and no longer than `longestWords` characters.
    package static func cleaned(_ line: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in line.unicodeScalars {
            switch scalar.value {
            case 0x09: scalars.append(" ")
            case 0x00..<0x20, 0x7F...0x9F: continue
            default: scalars.append(scalar)
            }
        }
        var text = Substring(String(scalars))
        if text.hasPrefix("["), let close = text.firstIndex(of: "]"),
           case let prefix = text[text.index(after: text.startIndex)..<close], prefix.contains(":"), !prefix.contains(" ") {
            text = text[text.index(after: close)...]
        }
        let trimmed = text.trimmingWhitespace()
        guard trimmed.count > longestWords else { return trimmed }
        return String(trimmed.prefix(longestWords - 1)).trimmingWhitespace() + "…"
    }

    /// The text without terminal escape sequences (colours, titles), whose
    /// letters would otherwise read as words: CSI (`ESC [ … final`), OSC and
    /// other strings (`ESC ] … BEL` or `ESC \`), and two-character escapes.
    static func withoutEscapes(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{1B}") else { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                result.append(scalar)
                continue
            }
            switch scalars.next() {
            case "[":
                while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
            case "]", "P", "X", "^", "_":
                var previous: Unicode.Scalar?
                while let next = scalars.next(), next != "\u{07}", !(previous == "\u{1B}" && next == "\\") { previous = next }
            default:
                break
            }
        }
        return String(result)
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}

/// How a child process ended, from its wait status.
public enum ProcessEnding: Equatable, Sendable {
    case exited(Int32)
    case signalled(Int32)

    public init(waitStatus status: Int32) {
        self = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    }
}

/// The end of a program's error output, at most `EarlyStop.keptOutput`
/// bytes: whatever it writes, the watcher's memory stays small.
public struct ErrorTail: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func append(_ chunk: some Collection<UInt8>) {
        bytes += chunk
        guard bytes.count > EarlyStop.keptOutput * 2 else { return }
        var kept = bytes.suffix(EarlyStop.keptOutput)
        // A line cut at its start would be read as a whole one, unless it is all there is.
        if let newline = kept.dropLast().firstIndex(of: UInt8(ascii: "\n")) { kept = kept[kept.index(after: newline)...] }
        bytes = Array(kept)
    }
}
