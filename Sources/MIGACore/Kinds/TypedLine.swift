import FoundationEssentials

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
        // The person's own words, in their own script: a keyboard or an input
        // method types letters and marks of any script; not symbols or emoji.
        let lines = own.compactMap { line -> String? in
            let text = fold(line).trimmingWhitespace()
            return isTypeable(text, asciiOnly: asciiOnly) && (shortest...longest * 2).contains(text.count) ? text : nil
        }
        if let line = lines.randomElement(using: &generator) { return line }
        return sentences(of: quote.text, asciiOnly: asciiOnly).randomElement(using: &generator)
    }

    /// The sentences of `text` that fit and that the keyboard types: the
    /// typographer's punctuation made plain, accents kept on a UTF-8
    /// terminal (only ASCII without one). Quotation marks go: they frame
    /// the quote, and typing them is fuss.
    static func sentences(of text: String, asciiOnly: Bool = false) -> [String] {
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
            (shortest...longest).contains(sentence.count) && isTypeable(sentence, asciiOnly: asciiOnly)
        }
    }

    /// Whether a keyboard types `text` a key (or an input method's commit) at
    /// a time: printable ASCII, and unless `asciiOnly` letters, marks, digits,
    /// punctuation and spaces of any script, and the joiners their spelling
    /// uses. Never symbols or emoji, which no keyboard has, nor a control
    /// character, nor any other format character.
    static func isTypeable(_ text: String, asciiOnly: Bool) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            if (0x20...0x7E).contains(scalar.value) { return true }
            guard !asciiOnly, scalar.value >= 0xA0 else { return false }
            if isJoiner(scalar) { return true }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .decimalNumber, .spaceSeparator,
                 .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                 .initialPunctuation, .finalPunctuation, .otherPunctuation:
                return true
            default:
                return false
            }
        }
    }

    /// The zero-width non-joiner and joiner (U+200C, U+200D): spelling in
    /// Persian, Urdu, Hindi, Malayalam and more ("می‌خواهم", the half form in
    /// "क्‍ष"), which their keyboards type; zero-width, they change only how
    /// the letters beside them join. The other format characters keep a line
    /// from being asked for: the bidi marks and controls turn text around
    /// (`printable` shows them as U+FFFD), and the zero-width space, the word
    /// joiner, the soft hyphen and the tags hide what a line holds.
    static func isJoiner(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\u{200C}" || scalar == "\u{200D}"
    }

    /// `text` as it is compared: without its joiners, so that a line is typed
    /// with them or without (a layout or an input method with no key for
    /// them), as it reads the same.
    private static func letters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isJoiner) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !isJoiner($0) }))
    }

    /// Whether `typed` is on the way to `target`, compared by grapheme
    /// clusters, joiners left out of both: every cluster typed is the line's,
    /// except that the last may be one still being built, key by key (a base
    /// letter before its accent or vowel sign, Hangul jamo before the
    /// syllable is whole): its code points, canonically decomposed, begin the
    /// line's cluster there. So "e" then U+0301 types "é", and "मैं" comes
    /// as three keys.
    public static func isOnTheWay(_ typed: String, to target: String) -> Bool {
        let typedClusters = Array(letters(typed)), targetClusters = Array(letters(target))
        guard let last = typedClusters.last else { return true }
        guard typedClusters.count <= targetClusters.count,
              typedClusters.dropLast().elementsEqual(targetClusters.prefix(typedClusters.count - 1)) else { return false }
        let wanted = targetClusters[typedClusters.count - 1]
        return last == wanted || String(wanted).canonicalDecomposition
            .starts(with: String(last).canonicalDecomposition)
    }

    /// How many of `target`'s clusters, as the field draws them, `typed` has
    /// whole (a cluster still being built is not yet one of them).
    public static func clustersDone(_ typed: String, of target: String) -> Int {
        let typedClusters = Array(letters(typed)), targetClusters = Array(letters(target))
        let whole = if let last = typedClusters.last, typedClusters.count <= targetClusters.count {
            last == targetClusters[typedClusters.count - 1] ? typedClusters.count : typedClusters.count - 1
        } else {
            min(typedClusters.count, targetClusters.count)
        }
        // Joiners draw the clusters differently (क्‌ and ष are two, क्ष one):
        // the line's clusters are done whose letters are all among those typed.
        var lettersLeft = String(targetClusters.prefix(whole)).unicodeScalars.count
        var done = 0
        for cluster in target {
            let count = cluster.unicodeScalars.count { !isJoiner($0) }
            guard count <= lettersLeft else { break }
            lettersLeft -= count
            done += 1
        }
        return done
    }

    /// Whether `typed` is the whole of `target`, joiners left out of both:
    /// what opens Proceed, whether it came a key at a time or as a line.
    public static func isWhole(_ typed: String, of target: String) -> Bool {
        letters(typed) == letters(target)
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
