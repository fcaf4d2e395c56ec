#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore

/// The quotes the gateway draws from: the built-in bank and the person's own
/// files in `$XDG_CONFIG_HOME/miga/quotes/*.txt` (same format, see `QuoteBank`).
/// Built-in ids win over a file's that repeat them.
public struct QuoteLibrary: Sendable {
    public let bank: QuoteBank
    /// Lines of the person's files that could not be read, with where they are.
    public let problems: [QuoteFileProblem]
    public let folder: String

    public init(folder: String) {
        self.folder = folder
        var quotes = QuoteBank.builtIn.quotes
        var problems: [QuoteFileProblem] = []
        for path in Self.files(in: folder) {
            do {
                guard let text = try readTextFile(path) else { continue }
                let parsed = QuoteBank.parse(text, file: path)
                quotes += parsed.quotes
                problems += parsed.problems
            } catch {
                problems.append(QuoteFileProblem(file: path, line: 0, message: "cannot be read (\(error))"))
            }
        }
        bank = QuoteBank(quotes: quotes)
        self.problems = problems
    }

    static func files(in folder: String) -> [String] {
        entries(in: folder).filter { $0.hasSuffix(".txt") && !$0.hasPrefix(".") }.sorted().map { folder + "/" + $0 }
    }

    // MARK: The person's own quotes

    /// Where `miga quotes add` writes.
    var ownFile: String { folder + "/mine.txt" }

    /// The texts of the quotes tagged `tag` in the file `miga quotes add`
    /// writes, read alone: a typed pause asks for one of them, and must not
    /// parse every quote file (a fortune collection) before its first frame.
    public static func ownTexts(in folder: String, tagged tag: String) -> [String] {
        let file = QuoteLibrary(bankOnlyIn: folder).ownFile
        guard let text = (try? readTextFile(file)) ?? nil else { return [] }
        return QuoteBank.parse(text, file: file).quotes
            .filter { $0.tags.contains { $0.lowercased() == tag.lowercased() } }
            .map { $0.verses.joined(separator: " ") }
    }

    /// Only the folder, for its file names.
    private init(bankOnlyIn folder: String) {
        self.folder = folder
        bank = QuoteBank(quotes: [])
        problems = []
    }

    /// The person's own quote with this text (as `add` would store it), if there is one.
    public func own(text: String) -> Quote? {
        let text = Self.oneLine(text)
        return bank.quotes.first { $0.file == ownFile && $0.text == text }
    }

    /// Adds a quote of the person's own and returns it; the same text added
    /// again is the quote already there, not a second one.
    public func add(text: String, tags: [String], source: String?) throws(MigaError) -> Quote {
        let text = Self.oneLine(text)
        let tags = tags.map { Self.oneLine(Self.field($0).replacingOccurrences(of: ",", with: " ")) }.filter { !$0.isEmpty }
            .map { bank.spelling(of: $0) ?? $0 }
        guard !text.isEmpty else { throw MigaError(usage: "the quote has no text") }
        guard !tags.isEmpty else { throw MigaError(usage: "give the quote at least one tag (--tag Nature)") }
        if let existing = own(text: text) { return existing }
        var number = 1
        while bank["mine-" + zeroPadded(number, width: 3)] != nil { number += 1 }
        let quote = Quote(id: "mine-" + zeroPadded(number, width: 3), text: text, source: source.map(Self.field).flatMap { $0.isEmpty ? nil : $0 },
                          tags: tags, file: ownFile)
        let existing = ((try? readTextFile(ownFile)) ?? nil) ?? "# Your own quotes: id | tags | source | text\n"
        do {
            try atomicWrite(existing + (existing.hasSuffix("\n") ? "" : "\n") + Self.line(quote) + "\n", to: ownFile, mode: 0o600)
        } catch {
            throw MigaError("cannot write \(ownFile): \(error)")
        }
        return quote
    }

    /// Removes a quote of the person's own; the built-in bank is never changed.
    public func remove(_ id: String) throws(MigaError) {
        guard let quote = bank[id] else { throw MigaError(usage: "there is no quote \(id)") }
        guard let file = quote.file else {
            throw MigaError(usage: "\(id) is one of MIGA's own quotes and stays; choose what you see with `miga interests set`")
        }
        let text = ((try? readTextFile(file)) ?? nil) ?? ""
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            line.split(separator: "|", maxSplits: 1).first.map { $0.trimmingWhitespace() } != id
        }
        do {
            try atomicWrite(kept.joined(separator: "\n"), to: file, mode: 0o600)
        } catch {
            throw MigaError("cannot write \(file): \(error)")
        }
    }

    /// Imports a fortune(6) file as the person's own quotes, tagged with the
    /// file's name, into a file of their quote folder named after it (so
    /// importing it again replaces, never doubles). Returns the quotes.
    public func importFortunes(from path: String, tag: String? = nil) throws(MigaError) -> [Quote] {
        guard let data = FileManager.default.contents(atPath: path) else { throw MigaError(dataError: "cannot read \(path)") }
        let name = baseName(of: path).split(separator: ".").first.map(String.init) ?? "fortunes"
        let named = tag ?? (name.prefix(1).uppercased() + name.dropFirst())
        let tag = bank.spelling(of: named) ?? named
        let entries: [FortuneFile.Entry]
        do {
            entries = try FortuneFile.parse(Array(data), file: path)
        } catch {
            throw MigaError(dataError: "\(error)")
        }
        var slug = String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
        // mine.txt holds the quotes the person added one by one; an import never replaces it.
        if slug == "mine" { slug = "mine-imported" }
        let width = max(4, String(entries.count).count)
        let quotes = entries.enumerated().map { index, entry in
            Quote(id: "\(slug)-" + String(repeating: "0", count: width - String(index + 1).count) + String(index + 1),
                  text: Self.oneLine(entry.text), source: entry.source.map(Self.field).flatMap { $0.isEmpty ? nil : $0 },
                  tags: [Self.field(tag)],
                  file: folder + "/\(slug).txt")
        }
        let header = "# Imported from \(path): id | tags | source | text\n"
        do {
            try atomicWrite(header + quotes.map { Self.line($0) + "\n" }.joined(), to: folder + "/\(slug).txt", mode: 0o600)
        } catch {
            throw MigaError("cannot write \(folder)/\(slug).txt: \(error)")
        }
        return quotes
    }

    static func line(_ quote: Quote) -> String {
        "\(quote.id) | \(quote.tags.joined(separator: ", ")) | \(quote.source ?? "") | \(quote.text)"
    }

    /// Text for the last field of a line: one line, no tabs.
    static func oneLine(_ text: String) -> String {
        // By scalars, as the reader trims bytes: "\r\n" is one Character, equal
        // to neither "\n" nor "\r", and " \u{301}" one that is not a space.
        var words = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                pendingSpace = !words.isEmpty
                continue
            }
            if pendingSpace { words.append(" ") }
            pendingSpace = false
            words.append(scalar)
        }
        return String(words)
    }

    /// Text for a field before the last: one line, no field separator.
    static func field(_ text: String) -> String {
        oneLine(text).replacingOccurrences(of: "|", with: "/")
    }
}


/// fortune(6) files: entries separated by lines holding only `%`.
package enum FortuneFile {
    package struct Entry: Equatable {
        package let text: String
        package let source: String?
    }

    /// The entries of a fortune file, or the first problem with its line.
    /// Every entry is kept; a trailing line like "    -- Mark Twain" becomes the source.
    package static func parse(_ bytes: [UInt8], file: String) throws(QuoteFileProblem) -> [Entry] {
        var entries: [Entry] = []
        var lines: [String] = []
        var number = 0
        var start = 0
        func finish() {
            while let last = lines.last, last.trimmingWhitespace().isEmpty { lines.removeLast() }
            while let first = lines.first, first.trimmingWhitespace().isEmpty { lines.removeFirst() }
            guard !lines.isEmpty else { return }
            var source: String?
            let last = lines[lines.count - 1].trimmingWhitespace()
            if lines.count > 1, last.hasPrefix("--") || last.hasPrefix("—") {
                source = String(last.drop { $0 == "-" || $0 == "—" || $0 == " " })
                lines.removeLast()
            }
            entries.append(Entry(text: lines.map { $0.trimmingWhitespace() }.joined(separator: " "), source: source))
            lines = []
        }
        while start <= bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            number += 1
            let raw = bytes[start..<end]
            if raw.contains(0) { throw QuoteFileProblem(file: file, line: number, message: "binary data, not a fortune file") }
            guard let line = String(validating: raw, as: UTF8.self) else {
                throw QuoteFileProblem(file: file, line: number, message: "not UTF-8 text")
            }
            if line.trimmingWhitespace() == "%" { finish() } else { lines.append(line) }
            start = end + 1
        }
        finish()
        guard !entries.isEmpty else { throw QuoteFileProblem(file: file, line: number, message: "no entries (a fortune file separates them with lines holding only %)") }
        return entries
    }
}
