import FoundationEssentials
import Glibc
import MIGACore
import MIGATerminal

/// The short celebration of Exit to Focus: a bloom that opens from where the
/// ring was, and the words that say what just happened.
public enum Celebration {
    /// How long the bloom takes; the notification is sent meanwhile.
    public static let duration = 0.7

    /// The frame at `progress` (0…1). Without motion, one still frame.
    public static func frame(progress: Double, size: TerminalSize, headline: String, detail: String,
                             motion: Bool) -> Frame {
        let width = size.columns
        let words = [Line.centered(TextWrap.truncate(headline, width: width - 2), .quote, in: width), .blank,
                     Line.centered(TextWrap.truncate(detail, width: width - 2), .muted, in: width)]
        let rows = PauseScreen.ringSizes.first { $0 + words.count + 4 <= size.rows && 2 * $0 + 4 <= width } ?? 0
        guard motion, rows > 0 else {
            let top = max(0, (size.rows - words.count) / 2)
            return Frame(size: size, lines: Array(repeating: .blank, count: top) + words)
        }
        let bloom = bloomLines(rows: rows, progress: progress, width: width)
        let showWords = progress >= 0.35
        let block = bloom + [.blank] + (showWords ? words : words.map { _ in .blank })
        let top = max(0, (size.rows - block.count) / 2)
        return Frame(size: size, lines: Array(repeating: .blank, count: top) + block)
    }

    /// Three rings that open outwards one after another, fading as they go.
    static func bloomLines(rows: Int, progress: Double, width: Int) -> [Line] {
        let columns = rows * 2
        let center = Double(rows * 4) / 2
        let petals = (0..<3).map { wave -> Double in
            let p = max(0, min(1, (progress - Double(wave) * 0.18) / 0.64))
            return (1 - pow(1 - p, 3)) * (center - 1)
        }
        let glow = min(4, Int(progress * 5))
        let indent = String(repeating: " ", count: max(0, (width - columns) / 2))
        let patterns = BrailleCanvas.patterns(rows: rows, columns: columns, layers: 1) { x, y in
            let distance = (x * x + y * y).squareRoot()
            // Eight petals: the rings swell where the angle meets a petal.
            let swell = 0.9 + 0.7 * pow(abs(cos(4 * atan2(y, x))), 3)
            return petals.contains(where: { $0 > 0.5 && abs(distance - $0) <= swell }) ? 0 : nil
        }
        return patterns.map { row in
            let text = String(row.map { $0[0] == 0 ? " " : BrailleCanvas.character($0[0]) })
            return Line([Span(indent), Span(text, .accent(glow: glow))])
        }
    }
}
