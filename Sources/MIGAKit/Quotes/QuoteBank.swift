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
        var quotes: [Quote] = []
        var problems: [QuoteFileProblem] = []
        var seen: Set<String> = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false)
                .map { $0.trimmingWhitespace() }
            func problem(_ message: String) {
                problems.append(QuoteFileProblem(file: file, line: lineNumber, message: message))
            }
            guard fields.count == 4 else {
                problem("expected `id | tags | source | text`, found \(fields.count) field\(fields.count == 1 ? "" : "s")")
                continue
            }
            let (id, source, text) = (fields[0], fields[2], fields[3])
            let tags = fields[1].split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            guard !id.isEmpty, !id.contains(where: \.isWhitespace) else {
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
            guard !text.isEmpty else {
                problem("\(id) has no text")
                continue
            }
            seen.insert(id)
            quotes.append(Quote(id: id, text: text, source: source.isEmpty ? nil : source, tags: tags))
        }
        return (quotes, problems)
    }
}

extension StringProtocol {
    /// The text without spaces, tabs and carriage returns at either end.
    func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }),
              let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
