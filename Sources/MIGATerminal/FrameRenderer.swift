import MIGACore

/// Turns frames into the bytes that draw them, rewriting only the rows that
/// changed since the last frame, inside a synchronized update so the terminal
/// shows each frame whole (terminals that do not know the mode ignore it).
public struct FrameRenderer: Sendable {
    public let palette: Palette
    private var previous: [String] = []
    private var previousSize: TerminalSize?

    public init(palette: Palette) { self.palette = palette }

    /// Forget what is on screen: the next frame is drawn in full.
    public mutating func invalidate() {
        previous = []
        previousSize = nil
    }

    public mutating func render(_ frame: Frame) -> String {
        let rows = frame.lines.map { encode($0, width: frame.size.columns) }
        var out = "\u{1B}[?2026h"
        let full = previousSize != frame.size || previous.count != rows.count
        if full { out += palette.blank + "\u{1B}[2J" }
        for (index, row) in rows.enumerated() where full || previous[index] != row {
            out += "\u{1B}[\(index + 1);1H" + row
        }
        out += "\u{1B}[0m\u{1B}[?2026l"
        previous = rows
        previousSize = frame.size
        return out
    }

    /// One row, padded to the full width so the sheet's background covers it
    /// without relying on the terminal's background-colour erase.
    private func encode(_ line: Line, width: Int) -> String {
        var out = ""
        var used = 0
        for span in line.spans {
            let room = width - used
            guard room > 0 else { break }
            // Cut first, then made ASCII when the locale wants it: the cut's
            // "…" too, which `ASCIIText` keeps as wide as it was.
            let shown = palette.glyphs(span.width > room ? TextWrap.truncate(span.text, width: room) : span.text, tone: span.tone)
            out += palette.blank + palette.sgr(span.tone) + shown
            used += CellWidth.of(shown)
        }
        out += palette.blank
        if used < width { out += String(repeating: " ", count: width - used) }
        return out
    }
}
