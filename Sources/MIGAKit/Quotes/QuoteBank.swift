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

    /// The quotes that match any of `interests` (tags, case-insensitive); every
    /// quote when none match, so that an unusual interest never empties the pause.
    public func pool(for interests: [String]) -> [Quote] {
        let wanted = Set(interests.map { $0.lowercased() })
        guard !wanted.isEmpty else { return quotes }
        let matching = quotes.filter { quote in quote.tags.contains { wanted.contains($0.lowercased()) } }
        return matching.isEmpty ? quotes : matching
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

    /// Reads a quote file, keeping every good line and reporting each bad one.
    public static func parse(_ text: String, file: String) -> (quotes: [Quote], problems: [QuoteFileProblem]) {
        var text = text
        return text.withUTF8 { parse(bytes: $0, file: file) }
    }

    /// The parser works on UTF-8 bytes: the fields are split at ASCII bytes
    /// (newline, `|`, `,`), and walking Characters would cost grapheme
    /// breaking on every byte of a bank that is read at each pause.
    static func parse(bytes: UnsafeBufferPointer<UInt8>, file: String) -> (quotes: [Quote], problems: [QuoteFileProblem]) {
        var quotes: [Quote] = []
        var problems: [QuoteFileProblem] = []
        var seen: Set<String> = []
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
            let fields = split(bytes, line, at: UInt8(ascii: "|"), maxSplits: 3)
            guard fields.count == 4 else {
                problem("expected `id | tags | source | text`, found \(fields.count) field\(fields.count == 1 ? "" : "s")")
                continue
            }
            let text = { (range: Range<Int>) in String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            let (id, source, body) = (text(fields[0]), text(fields[2]), text(fields[3]))
            let tags = split(bytes, fields[1], at: UInt8(ascii: ","), maxSplits: .max).filter { !$0.isEmpty }.map(text)
            guard !id.isEmpty, !bytes[fields[0]].contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else {
                problem("the id must be one word")
                continue
            }
            guard !seen.contains(id) else {
                problem("the id \(id) is used twice")
                continue
            }
            guard !tags.isEmpty else {
                problem("\(id) needs at least one tag")
                continue
            }
            guard !body.isEmpty else {
                problem("\(id) has no text")
                continue
            }
            seen.insert(id)
            quotes.append(Quote(id: id, text: body, source: source.isEmpty ? nil : source, tags: tags,
                                file: file == "quotes.txt" ? nil : file))
        }
        return (quotes, problems)
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
