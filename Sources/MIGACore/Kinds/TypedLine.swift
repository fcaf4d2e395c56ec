/// The line a typed pause asks for: one of the person's own lines (quotes
/// tagged `mine`), else a sentence of the quote on screen. Typing a line
/// back takes a moment of attention that a button press does not, and one's
/// own words, typed, remind one of what one wants.
public enum TypedLine {
    /// Short enough to type in a few seconds, long enough to take a moment.
    static let shortest = 12
    static let longest = 60
    /// The tag of the person's own lines.
    public static let ownTag = "mine"

    /// The line to type, or nil when neither the person's lines nor the
    /// quote give one that fits (the pause is then a breathing one).
    /// `asciiOnly`: the terminal is not UTF-8 (a C locale), so it shows
    /// "café" as "cafe" and cannot send the é: only ASCII lines are asked for.
    public static func choose(quote: Quote, own: [String], asciiOnly: Bool = false,
                              using generator: inout some RandomNumberGenerator) -> String? {
        // The person's own words may hold accents, which their keyboard
        // types; not symbols, emoji or scripts that an input method commits
        // several characters at a time (which would look like a paste).
        let lines = own.compactMap { line -> String? in
            let text = fold(line).trimmingWhitespace()
            let typeable = text.unicodeScalars.allSatisfy {
                (0x20..<0x7F).contains($0.value) || (!asciiOnly && (0xA0..<0x2000).contains($0.value))
            }
            return typeable && (shortest...longest * 2).contains(text.count) ? text : nil
        }
        if let line = lines.randomElement(using: &generator) { return line }
        return sentences(of: quote.text).randomElement(using: &generator)
    }

    /// The sentences of `text` that fit and that any keyboard types: the
    /// typographer's punctuation made plain, and only ASCII left after it.
    /// Quotation marks go: they frame the quote, and typing them is fuss.
    static func sentences(of text: String) -> [String] {
        let plain = fold(text.replacingOccurrences(of: " / ", with: " ")).replacingOccurrences(of: "\"", with: "")
        var sentences: [String] = []
        var current = ""
        for character in plain {
            if character == " ", let last = current.last, ".!?".contains(last) {
                sentences.append(current.trimmingWhitespace())
                current = ""
            }
            current.append(character)
        }
        sentences.append(current.trimmingWhitespace())
        return sentences.filter { sentence in
            (shortest...longest).contains(sentence.count)
                && sentence.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
        }
    }

    /// Curly quotes, dashes, the ellipsis and no-break spaces, as keys type them.
    static func fold(_ text: String) -> String {
        var folded = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "“", "”", "„", "«", "»": folded += "\""
            case "‘", "’", "‚": folded += "'"
            case "—", "–", "‐", "−": folded += "-"
            case "…": folded += "..."
            case "\u{00A0}", "\u{202F}", "\u{2009}": folded += " "
            default: folded.unicodeScalars.append(scalar)
            }
        }
        return folded
    }
}

/// Where a typed pause's lines come from: kept with the session, so that
/// Deepen asks for a line of the new quote (or another of the person's own),
/// never one of a quote no longer on screen.
public struct TypedLineSource: Equatable, Sendable {
    /// The person's own lines (quotes tagged `mine`).
    public let own: [String]
    /// The terminal is not UTF-8: only ASCII lines (see `TypedLine.choose`).
    public let asciiOnly: Bool
    private var generator: SeededGenerator

    public init(own: [String], asciiOnly: Bool, seed: UInt64) {
        self.own = own
        self.asciiOnly = asciiOnly
        generator = SeededGenerator(seed: seed)
    }

    /// The line to type while `quote` is on screen; nil when neither it nor
    /// the person's lines give one.
    public mutating func line(for quote: Quote) -> String? {
        TypedLine.choose(quote: quote, own: own, asciiOnly: asciiOnly, using: &generator)
    }

    /// Whether `quote` would give a line, without drawing one.
    public func offersLine(for quote: Quote) -> Bool {
        var copy = self
        return copy.line(for: quote) != nil
    }
}
