import FoundationEssentials

/// Text as a terminal without UTF-8 shows it (a C or POSIX locale): the
/// typographer's punctuation made plain (“ ” → ", — → -), letters without
/// their accents (é → e), the ring's Braille dots and the bar as ASCII
/// marks, box drawing as + - |, shades as . : + * #, emoji as blank
/// space, and any other letter as "?". Each character keeps its width in
/// cells, so layouts measured in Unicode hold, and so does every text: "…"
/// reads as "..." (a lone "." reads as a full stop), in the cells of two
/// spaces after it where there are (a padded column), else of the two
/// characters before it (the end of what was cut), so a line cut to the
/// terminal's width stays within it, on a screen or printed. Every screen
/// and every line printed through `Palette` passes here when the locale is
/// not UTF-8, so no UTF-8 byte ever reaches such a terminal to become `â€œ`.
public enum ASCIIText {
    public static func of(_ text: String, tone: Tone = .body) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var out = ""
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if character.isASCII {
                out.append(character)
                continue
            }
            if character == "…" {
                var dots = 1
                if characters.prefix(2) == [" ", " "] {
                    characters.removeFirst(2)
                    dots = 3
                }
                // What is written so far is ASCII: a cell a character.
                while dots < 3, !out.isEmpty {
                    out.removeLast()
                    dots += 1
                }
                out += String(repeating: ".", count: dots)
                continue
            }
            // One mark for the character's first scalar (what follows it, an
            // accent, a skin tone, a joiner, goes with it), then as many
            // cells again as the character took.
            let width = CellWidth.of(String(character))
            guard width > 0, let first = character.unicodeScalars.first else { continue }
            let plain: String = switch first.value {
            // The ring: a cell with dots is arc or track, by its tone.
            case 0x2801...0x28FF: tone == .track ? "." : "o"
            // The year's empty day, as light as the ring's track.
            case 0x00B7 where tone == .track: "."
            case 0x2800: " "
            default: mark(first)
            }
            out += plain + String(repeating: plain == "?" ? "?" : " ", count: width - 1)
        }
        return out
    }

    /// One cell's ASCII for a character that is not ASCII.
    private static func mark(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "“", "”", "„", "«", "»", "″": return "\""
        case "‘", "’", "‚", "′": return "'"
        case "—", "–", "‐", "−", "─", "━", "╌": return "-"
        // The year's shades, lightest to darkest (█ is "#").
        case "░": return ":"
        case "▒": return "+"
        case "▓": return "*"
        // A separator between words stays quiet; a bullet stays a bullet.
        case "·": return "-"
        case "•", "●": return "*"
        case "│", "┃", "▏", "▕", "┤", "├": return "|"
        case "╭", "╮", "╰", "╯", "┌", "┐", "└", "┘", "┼", "┬", "┴": return "+"
        case "█", "▇", "▆", "▅", "▄", "▃", "▂", "▁": return "#"
        case "→": return ">"
        case "←": return "<"
        case "↑", "▲": return "^"
        case "↓": return "v"
        case "✓", "✔": return "+"
        case "✗", "✘", "×": return "x"
        case "⚠": return "!"
        case "★", "☆": return "*"
        case "›": return ">"
        case "⏎": return "|"
        case "\u{00A0}", "\u{202F}", "\u{2009}": return " "
        case "\u{FFFD}": return "?"
        default:
            // Latin letters lose their accents; what has no ASCII form is "?".
            let folded = Self.withoutAccent(scalar)
            if folded.isASCII { return String(folded) }
            switch scalar {
            case "ß": return "s"
            case "æ", "œ": return "e"
            case "ø": return "o"
            case "Ø": return "O"
            case "ł": return "l"
            case "Ł": return "L"
            default:
                // A symbol (a program's emoji) becomes blank space, which reads
                // as nothing missing; a letter with no ASCII form is "?".
                return scalar.properties.generalCategory == .otherSymbol ? " " : "?"
            }
        }
    }

    /// The letter without its accent (é → e, Å → A) and a full-width form as
    /// its ASCII one (Ａ → A): the letter's canonical decomposition, its
    /// combining marks left out. What is not one scalar after that stays as it is.
    private static func withoutAccent(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if (0xFF01...0xFF5E).contains(scalar.value) { return Unicode.Scalar(scalar.value - 0xFEE0) ?? scalar }
        let base = String(scalar).canonicalDecomposition.filter { $0.properties.generalCategory != .nonspacingMark }
        return base.count == 1 ? base[0] : scalar
    }
}
