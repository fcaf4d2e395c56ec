import MIGACore
import MIGAResources

/// The built-in bank as a pause needs it: each quote's id and tags, found
/// by the byte scan that a person's own files get, and a `Quote` made only
/// of the one shown. Making all of them (`QuoteBank.builtIn`, for the
/// commands that list and search quotes) took a tenth of a first frame.
enum BuiltInQuotes {
    /// One quote of the bank: its id, its tags (as written) and its line's bytes.
    struct Entry {
        let id: String
        let tags: [String]
        let line: Range<Int>
    }

    /// In the bank's order (the scan refuses an id written twice).
    static let entries: [Entry] = {
        var entries: [Entry] = []
        let bytes = BuiltInResources.quoteBank
        bytes.withUnsafeBufferPointer { buffer in
            _ = QuoteBank.scan(bytes: buffer, file: "quotes.txt") { line in
                let tags = QuoteBank.tags(buffer, line.tags).map { String(decoding: UnsafeBufferPointer(rebasing: buffer[$0]), as: UTF8.self) }
                entries.append(Entry(id: line.id, tags: tags, line: line.line))
            }
        }
        return entries
    }()

    /// Where each id is in `entries`.
    static let index = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.id, $0) })

    static func contains(_ id: String) -> Bool { index[id] != nil }

    /// The bank's first quote, for when nothing else can be had (the bank is never empty).
    static var first: Quote { quote(entries[0].id)! }

    /// The quote `id` names, made from its line alone; nil for an id not in the bank.
    static func quote(_ id: String) -> Quote? {
        guard let place = index[id] else { return nil }
        let line = entries[place].line
        return BuiltInResources.quoteBank.withUnsafeBufferPointer { buffer in
            QuoteBank.parse(bytes: UnsafeBufferPointer(rebasing: buffer[line]), file: "quotes.txt").quotes.first
        }
    }
}
