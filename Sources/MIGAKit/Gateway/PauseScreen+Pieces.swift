import MIGACore
import MIGATerminal

/// The pause's pieces above its actions: the quote, its source, the ring and the bar.
extension PauseScreen {
    /// The quote's source and tags; with a key's hint when there is more to see.
    static func attributionLine(_ quote: Quote, hint: String?, width: Int) -> Line {
        let text = attributionText(quote)
        guard let hint else { return Line.centered(TextWrap.truncate(text, width: width - 2), .muted, in: width) }
        let room = max(0, width - 2 - CellWidth.of(hint) - 3)
        let source = room >= 8 ? TextWrap.truncate(text, width: room) + " · " : ""
        return Line.centered([Span(source, .muted), Span(hint, .accentDeep)], in: width)
    }

    static func quoteLines(_ quote: Quote, measure: Int) -> [String] {
        var lines = quote.verses.flatMap { TextWrap.balancedLines($0, measure: measure) }
        guard !lines.isEmpty else { return [] }
        lines[0] = "“" + lines[0]
        lines[lines.count - 1] += "”"
        return lines
    }

    /// At most `maxLines` lines, the last ending in "…" when the text goes on:
    /// an imported fortune may be far longer than a pause has room for.
    static func fitted(_ lines: [String], maxLines: Int, width: Int) -> [String] {
        guard lines.count > maxLines else { return lines }
        guard maxLines > 0 else { return [] }
        var kept = Array(lines.prefix(maxLines))
        kept[maxLines - 1] = TextWrap.truncate(kept[maxLines - 1] + " …", width: width)
        if !kept[maxLines - 1].hasSuffix("…") { kept[maxLines - 1] += "…" }
        return kept
    }

    static func attributionText(_ quote: Quote) -> String {
        let tags = quote.tags.joined(separator: " · ")
        guard let source = quote.source else { return tags }
        return "— \(source) · \(tags)"
    }

    static func ringLines(_ session: PauseSession, rows: Int, width: Int, look: PauseLook) -> [Line] {
        let breath = look.motion ? Breath.level(at: session.pausedSeconds) : 0.5
        let glow = look.motion ? Int((breath * 4).rounded()) : 0
        // Without motion the ring moves in whole seconds, with the number inside it.
        let remaining = look.motion ? session.remainingFraction : Double(session.secondsLeft) / Double(session.length)
        let cells = CountdownRing.cells(rows: rows, remaining: remaining,
                                        thickness: 2.2 + 1.2 * breath, showTrack: look.showTrack)
        let columns = rows * 2
        var overlays: [Int: [Span]] = [rows / 2: [Span(session.clock, .accentDeep)]]
        if rows >= 7 {
            let words = session.canProceed ? ["ready"]
                : session.isHeld ? ["held"]
                : !look.motion ? ["breathe"]
                : Breath.isInhaling(at: session.pausedSeconds) ? ["breathe in", "inhale"] : ["breathe out", "exhale"]
            // The first that keeps a cell of space from the ring on each side.
            let row = cells[rows / 2 + 1]
            let word = words.first { word in
                let start = (columns - CellWidth.of(word)) / 2
                return start >= 1 && (start - 1...start + CellWidth.of(word)).allSatisfy { $0 < columns && row[$0].kind == .empty }
            }
            if let word { overlays[rows / 2 + 1] = [Span(word, .muted)] }
        }
        let indent = String(repeating: " ", count: max(0, (width - columns) / 2))
        return cells.enumerated().map { index, row in
            var spans: [Span] = [Span(indent)]
            var overlay = overlays[index]
            let overlayWidth = overlay?.reduce(0) { $0 + $1.width } ?? 0
            let overlayStart = (columns - overlayWidth) / 2
            var column = 0
            while column < columns {
                if let spansToPlace = overlay, column == overlayStart {
                    spans += spansToPlace
                    column += overlayWidth
                    overlay = nil
                    continue
                }
                let cell = row[column]
                let tone: Tone = cell.kind == .arc ? .accent(glow: glow) : cell.kind == .track ? .track : .body
                if let last = spans.last, last.tone == tone, spans.count > 1 {
                    spans[spans.count - 1].text.append(cell.character)
                } else {
                    spans.append(Span(String(cell.character), tone))
                }
                column += 1
            }
            return Line(spans)
        }
    }

    /// The countdown as a bar, for terminals too small for the ring.
    static func barLine(_ session: PauseSession, width: Int) -> Line {
        let length = max(4, min(24, width - 12))
        let filled = Int((session.remainingFraction * Double(length)).rounded(.up))
        return Line.centered([
            Span(session.clock, .accentDeep), Span("  "),
            Span(String(repeating: "━", count: filled), .accent(glow: 0)),
            Span(String(repeating: "─", count: length - filled), .track),
        ], in: width)
    }
}
