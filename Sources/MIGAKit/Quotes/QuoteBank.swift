import MIGACore
import MIGAResources

/// A collection of quotes and the way the gateway chooses among them.
///
/// The file format is one quote per line, `id | tags | source | text`, with `#`
/// comments; the built-in bank (`Resources/quotes.txt`) is compiled into the binary.
public struct QuoteBank: Sendable {
    public let quotes: [Quote]
    private let index: [String: Int]

    public init(quotes: [Quote]) {
        var index: [String: Int] = [:]
        var unique: [Quote] = []
        for quote in quotes where index[quote.id] == nil {
            index[quote.id] = unique.count
            unique.append(quote)
        }
        self.quotes = unique
        self.index = index
    }

    /// The bank that ships inside `miga`.
    public static let builtIn: QuoteBank = {
        let text = String(decoding: BuiltInResources.quoteBank, as: UTF8.self)
        return QuoteBank(quotes: parse(text, file: "quotes.txt").quotes)
    }()

    public subscript(id: String) -> Quote? {
        index[id].map { quotes[$0] }
    }

    /// Every tag with the number of quotes that carry it, in first-seen order.
    public var tagCounts: [(tag: String, count: Int)] {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for tag in quotes.flatMap(\.tags) {
            if counts[tag] == nil { order.append(tag) }
            counts[tag, default: 0] += 1
        }
        return order.map { ($0, counts[$0]!) }
    }

    /// The bank's own spelling of `tag`: tags match without regard to case,
    /// so "nature" is Nature. Nil for a tag no quote carries.
    public func spelling(of tag: String) -> String? {
        let wanted = tag.lowercased()
        return quotes.lazy.flatMap(\.tags).first { $0.lowercased() == wanted }
    }

    /// Reads a quote file, keeping every good line and reporting each bad one.
    public static func parse(_ text: String, file: String) -> (quotes: [Quote], problems: [QuoteFileProblem]) {
        var text = text
        return text.withUTF8 { parse(bytes: $0, file: file) }
    }

    /// The parser works on UTF-8 bytes: the fields are split at ASCII bytes
    /// (newline, `|`, `,`), and walking Characters would cost grapheme
    /// breaking on every byte of a bank that is read at each pause.
    package static func parse(bytes: UnsafeBufferPointer<UInt8>, file: String) -> (quotes: [Quote], problems: [QuoteFileProblem]) {
        let text = { (range: Range<Int>) in String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        var quotes: [Quote] = []
        let problems = scan(bytes: bytes, file: file) { line in
            let source = text(line.source)
            quotes.append(Quote(id: line.id, text: text(line.text), source: source.isEmpty ? nil : source,
                                tags: tags(bytes, line.tags).map(text), file: file == "quotes.txt" ? nil : file))
        }
        return (quotes, problems)
    }

    /// One good line of a quote file: its id, and where its other fields are.
    struct ScannedLine {
        let id: String
        /// The whole line, trimmed.
        let line: Range<Int>
        /// The tags field, commas and all (see `tags(_:_:)`).
        let tags: Range<Int>
        let source: Range<Int>
        let text: Range<Int>
    }

    /// Checks every line and hands each good one to `found`, without making
    /// strings of its words: the pause reads thousands of imported quotes
    /// this way and makes a `Quote` only of the one it shows.
    static func scan(bytes: UnsafeBufferPointer<UInt8>, file: String, _ found: (ScannedLine) -> Void) -> [QuoteFileProblem] {
        var problems: [QuoteFileProblem] = []
        var seen: Set<String> = []
        seen.reserveCapacity(bytes.count / 64)
        var lineNumber = 0
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            lineNumber += 1
            let line = trimmed(bytes, lineStart..<lineEnd)
            if line.isEmpty || bytes[line.lowerBound] == UInt8(ascii: "#") { continue }
            func problem(_ message: String) {
                problems.append(QuoteFileProblem(file: file, line: lineNumber, message: message))
            }
            let (separators, cuts) = Self.separators(bytes, in: line)
            guard separators == 3 else {
                problem("expected `id | tags | source | text`, found \(separators + 1) field\(separators == 0 ? "" : "s")")
                continue
            }
            let (idField, tagsField) = (trimmed(bytes, line.lowerBound..<cuts.0), trimmed(bytes, cuts.0 + 1..<cuts.1))
            let (sourceField, textField) = (trimmed(bytes, cuts.1 + 1..<cuts.2), trimmed(bytes, cuts.2 + 1..<line.upperBound))
            let id = String(decoding: UnsafeBufferPointer(rebasing: bytes[idField]), as: UTF8.self)
            let hasTag = bytes[tagsField].contains { $0 != UInt8(ascii: ",") && !isBlank($0) }
            guard !id.isEmpty, !bytes[idField].contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else {
                problem("the id must be one word")
                continue
            }
            guard !seen.contains(id) else {
                problem("the id \(id) is used twice")
                continue
            }
            guard hasTag else {
                problem("\(id) needs at least one tag")
                continue
            }
            guard !textField.isEmpty else {
                problem("\(id) has no text")
                continue
            }
            seen.insert(id)
            found(ScannedLine(id: id, line: line, tags: tagsField, source: sourceField, text: textField))
        }
        return problems
    }

    /// The first three `|` of a line, and how many it has (up to three).
    /// Found by hand: an array per line costs an allocation for every one of
    /// thousands of lines.
    private static func separators(_ bytes: UnsafeBufferPointer<UInt8>, in line: Range<Int>) -> (count: Int, cuts: (Int, Int, Int)) {
        var cuts = (line.lowerBound, line.lowerBound, line.lowerBound)
        var separators = 0
        var index = line.lowerBound
        while index < line.upperBound && separators < 3 {
            if bytes[index] == UInt8(ascii: "|") {
                switch separators {
                case 0: cuts.0 = index
                case 1: cuts.1 = index
                default: cuts.2 = index
                }
                separators += 1
            }
            index += 1
        }
        return (separators, cuts)
    }

    /// The tags in a tags field: cut at commas, trimmed, empty ones dropped.
    static func tags(_ bytes: UnsafeBufferPointer<UInt8>, _ field: Range<Int>) -> [Range<Int>] {
        split(bytes, field, at: UInt8(ascii: ","), maxSplits: .max).filter { !$0.isEmpty }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var (low, high) = (range.lowerBound, range.upperBound)
        while low < high && isBlank(bytes[low]) { low += 1 }
        while high > low && isBlank(bytes[high - 1]) { high -= 1 }
        return low..<high
    }

    /// `range` cut at `separator` (at most `maxSplits` times), each piece trimmed.
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, at separator: UInt8,
                              maxSplits: Int) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var start = range.lowerBound
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == separator && pieces.count < maxSplits {
                pieces.append(trimmed(bytes, start..<index))
                start = index + 1
            }
            index += 1
        }
        pieces.append(trimmed(bytes, start..<range.upperBound))
        return pieces
    }
}
