/// The part of a longer list that fits in `rows` lines, and how much of it
/// is hidden above and below, for the cues that say so ("↓ 4 more").
package struct ScrollWindow: Equatable {
    let count: Int
    package let rows: Int
    package let start: Int

    /// The window scrolled to `offset`, kept inside the list.
    package init(count: Int, rows: Int, offset: Int) {
        self.count = count
        self.rows = max(1, rows)
        start = max(0, min(offset, count - self.rows))
    }

    /// The window with `focus` in its middle, as near as the ends allow: a
    /// selection always in view, with what comes next around it.
    package init(count: Int, rows: Int, around focus: Int) {
        self.init(count: count, rows: rows, offset: focus - max(1, rows) / 2)
    }

    package var range: Range<Int> { start..<min(count, start + rows) }
    package var above: Int { start }
    package var below: Int { max(0, count - range.upperBound) }
    /// The furthest the window scrolls.
    package var lastOffset: Int { max(0, count - rows) }

    /// "↑ 2 more" or "↓ 4 more" at `indent`, or a blank line when nothing is hidden that way.
    package static func cue(_ arrow: String, hidden: Int, indent: String = "") -> Line {
        hidden > 0 ? Line([Span(indent), Span("\(arrow) \(hidden) more", .muted)]) : .blank
    }
}
