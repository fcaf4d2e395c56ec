/// How many terminal cells a piece of text occupies.
///
/// Terminals draw East Asian wide characters and emoji in two cells, combining
/// marks in none, and a spacing vowel sign in a cell of its own. Layout measures in cells, never in characters or bytes, so a
/// quote in Japanese or with an emoji wraps and centres like any other.
public enum CellWidth {
    /// Of any text, as a String: the String one is concrete, so no caller in
    /// another module runs a generic one whose first use looks types up by name.
    public static func of(_ text: some StringProtocol) -> Int {
        of(String(text))
    }

    public static func of(_ text: String) -> Int {
        // Printable ASCII, most of every frame, takes a cell a byte: measured
        // without breaking it into Characters or asking for Unicode properties,
        // which was an eighth of a pause's time before its first frame.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let base = scalars.first else { return 0 }
        if character.utf8.count == 1 { return base.value < 0x20 || base.value == 0x7F ? 0 : 1 }
        if base.value < 0x20 || (0x7F..<0xA0).contains(base.value) { return 0 }
        for scalar in scalars {
            // An emoji drawn as a picture: by default, or forced by VS16 (U+FE0F).
            if scalar.properties.isEmojiPresentation { return 2 }
            if scalar.value == 0xFE0F && base.properties.isEmoji { return 2 }
        }
        // Otherwise a terminal draws each code point in its own cells, as
        // wcwidth measures it: a spacing vowel sign (Devanagari's ा, Bengali's
        // ি) takes a cell beside its letter, and a conjunct (क्ष) two.
        return scalars.reduce(0) { $0 + of(scalar: $1) }
    }

    /// One code point's cells within a cluster: none for a mark drawn on its
    /// letter, a format character or a Hangul vowel or final consonant
    /// joining its syllable; two for a wide one; else one.
    private static func of(scalar: Unicode.Scalar) -> Int {
        if isWide(scalar.value) { return 2 }
        if (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and F)
    /// outside those already covered by emoji presentation.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18AFF, 0x1B000...0x1B2FF,
        0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        return wideRanges.contains { $0.contains(value) }
    }
}
