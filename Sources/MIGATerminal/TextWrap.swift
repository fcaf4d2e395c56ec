import MIGACore

/// Word wrapping and truncation measured in terminal cells.
public enum TextWrap {
    /// Breaks `text` into lines of at most `width` cells, at spaces where it can
    /// and inside a word only when the word alone is wider than a line.
    public static func lines(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var current = ""
        var currentWidth = 0

        func flush() {
            lines.append(current)
            current = ""
            currentWidth = 0
        }

        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            var word = String(word)
            var wordWidth = CellWidth.of(word)
            if currentWidth > 0 && currentWidth + 1 + wordWidth <= width {
                current += " " + word
                currentWidth += 1 + wordWidth
                continue
            }
            if currentWidth > 0 { flush() }
            while wordWidth > width {
                let (head, headWidth) = prefix(of: word, fitting: width)
                lines.append(head)
                word.removeFirst(head.count)
                wordWidth -= headWidth
            }
            current = word
            currentWidth = wordWidth
        }
        if currentWidth > 0 || lines.isEmpty { flush() }
        return lines
    }

    /// `text` cut to at most `width` cells, ending in "…" when something was cut.
    public static func truncate(_ text: String, width: Int) -> String {
        guard CellWidth.of(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        return prefix(of: text, fitting: width - 1).text + "…"
    }

    /// `text` cut from its start to at most `width` cells, beginning with "…"
    /// when something was cut: a path keeps its file name and line.
    package static func truncateStart(_ text: String, width: Int) -> String {
        guard CellWidth.of(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        var kept: [Character] = []
        var used = 0
        for character in text.reversed() {
            used += CellWidth.of(character)
            if used > width - 1 { break }
            kept.append(character)
        }
        return "…" + String(kept.reversed())
    }

    /// The longest prefix of `text` that fits in `width` cells (at least one
    /// character, so that wrapping always makes progress).
    private static func prefix(of text: String, fitting width: Int) -> (text: String, width: Int) {
        var result = ""
        var used = 0
        for character in text {
            let w = CellWidth.of(character)
            if used + w > width && !result.isEmpty { break }
            result.append(character)
            used += w
        }
        return (result, used)
    }

    /// `paragraphs` in at most `lines` lines of `width`: whole when they fit,
    /// else each keeps its first lines (one at least, while there is room)
    /// and ends in "…" where it is cut. A paragraph that ends in where it
    /// is (" (file:line)", as a config problem does) keeps that end when its
    /// words are cut, so the cause and its place both show: whole when the
    /// rows allow, else on the last row after as much of the cause as fits
    /// there. Only when the place alone leaves no room for the cut's "…" is
    /// its path shortened from its start, to the file's name if that fits,
    /// so the cause keeps the rest of the row.
    package static func fitted(_ paragraphs: [String], width: Int, lines budget: Int) -> [String] {
        let wrapped = paragraphs.map { Self.lines($0, width: width) }
        var allotted = wrapped.map { _ in 0 }
        var left = budget
        // A line each first, in order; then the rest, in order.
        for index in wrapped.indices where left > 0 {
            allotted[index] = 1
            left -= 1
        }
        for index in wrapped.indices {
            let more = min(left, wrapped[index].count - allotted[index])
            allotted[index] += max(0, more)
            left -= max(0, more)
        }
        return wrapped.indices.flatMap { index -> [String] in
            let (lines, count) = (wrapped[index], allotted[index])
            guard count > 0 else { return [] }
            guard count < lines.count else { return lines }
            let paragraph = paragraphs[index]
            if paragraph.hasSuffix(")"), let open = paragraph.ranges(of: " (").last {
                let whole = String(paragraph[paragraph.index(after: open.lowerBound)...])
                let place = Self.lines(whole, width: width)
                let words = Self.lines(String(paragraph[..<open.lowerBound]), width: width)
                if place.count < count {
                    let kept = count - place.count
                    guard words.count > kept else { return words + place }
                    return Array(words.prefix(kept - 1)) + [truncate(words[(kept - 1)...].joined(separator: " "), width: width)] + place
                }
                if width >= 8 {
                    let path = String(whole.dropFirst().dropLast())
                    let fileName = "(…/" + baseName(of: path) + ")"
                    let shown = CellWidth.of(whole) <= width - 2 ? whole
                        : CellWidth.of(fileName) <= width - 2 ? fileName
                        : "(" + truncateStart(path, width: width - 4) + ")"
                    let rest = words.dropFirst(count - 1).joined(separator: " ")
                    let last = rest.isEmpty ? shown : truncate(rest, width: width - 1 - CellWidth.of(shown)) + " " + shown
                    return Array(words.prefix(count - 1)) + [last]
                }
            }
            return Array(lines.prefix(count - 1)) + [truncate(lines[(count - 1)...].joined(separator: " "), width: width)]
        }
    }

    /// The lines of `text` at the narrowest width that needs no more lines than
    /// `measure` does, so a two-line quote reads as two even lines rather than
    /// a long one and a stub.
    package static func balancedLines(_ text: String, measure: Int) -> [String] {
        let natural = Self.lines(text, width: measure)
        guard natural.count > 1 else { return natural }
        var (low, high) = (measure / 2, measure)
        while low < high {
            let middle = (low + high) / 2
            if Self.lines(text, width: middle).count <= natural.count { high = middle } else { low = middle + 1 }
        }
        return Self.lines(text, width: high)
    }
}
