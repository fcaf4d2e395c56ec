import MIGACore
import MIGATerminal

/// How the pause looks, beyond its state.
public struct PauseLook: Equatable, Sendable {
    /// Breathing and the bloom; off under reduced motion.
    public var motion: Bool
    /// Whether colours can tell the ring's faint track from its arc: when
    /// they cannot, the track is drawn thinner than the arc, so an emptied
    /// ring still shows where it was.
    public var showTrack: Bool
    /// Things the person should know (a broken config), shown calmly at the bottom.
    public var notices: [String]
    /// Quiet facts under the header: how often the program was reached for today.
    public var context: [String]
    /// Why this pause is longer than usual, said beside the ring while it counts.
    public var longerBecause: String?

    public init(motion: Bool = true, colors: ColorMode, notices: [String] = [], context: [String] = [],
                longerBecause: String? = nil) {
        self.init(motion: motion, showTrack: colors != .none, notices: notices, context: context, longerBecause: longerBecause)
    }

    public init(motion: Bool = true, showTrack: Bool = true, notices: [String] = [], context: [String] = [],
                longerBecause: String? = nil) {
        self.motion = motion
        self.showTrack = showTrack
        self.notices = notices
        self.context = context
        self.longerBecause = longerBecause
    }
}

/// The pause screen as a pure function of the session and the terminal size.
///
/// Top: the header and its context, then the quote, wrapped to a comfortable
/// measure, with its source and tags. Middle: the ring with the time left.
/// Bottom: the three actions (or the intention question, in their place). Space left
/// over goes to the margins, and the quote's area is reserved at its usual
/// height so the ring does not jump when Deepen brings a shorter quote.
public enum PauseScreen {
    /// Longest quote the built-in bank is written to (characters), used to
    /// reserve room for the quote so the layout holds still across quotes.
    static let longestQuote = 190
    static let ringSizes = [13, 11, 9, 7, 5]

    /// What laying out a frame took, for a test that it stays bounded however many notices there are.
    struct LayoutWork: Equatable {
        var arrangementsTried = 0
        var noticesRead = 0
    }

    /// The arrangements a frame is tried in, most generous first: header,
    /// gaps and margins; then without the margins; with the quote's room cut
    /// to three lines (a longer quote is shortened, and w shows it) before
    /// the header goes; without the header; without gaps; with the quote's
    /// room cut to two lines. Only when the ring fits none of them, the
    /// same again with a bar.
    typealias Arrangement = (header: Bool, gap: Int, margin: Int, reserved: Int)

    static func arrangements(usualHeight: Int) -> [Arrangement] {
        [(true, 1, 1, usualHeight), (true, 1, 0, usualHeight), (true, 1, 0, min(3, usualHeight)), (false, 1, 0, usualHeight),
         (false, 0, 0, usualHeight), (false, 0, 0, min(2, usualHeight))]
    }

    public static func frame(_ session: PauseSession, size: TerminalSize, look: PauseLook) -> Frame {
        var work = LayoutWork()
        return frame(session, size: size, look: look, work: &work)
    }

    static func frame(_ session: PauseSession, size: TerminalSize, look: PauseLook, work: inout LayoutWork) -> Frame {
        let layout = Layout(session, size: size, look: look)
        let notices = layout.noticeLines(work: &work)
        return layout.arranged(wantsRing: true, notices: notices, work: &work)
            ?? layout.arranged(wantsRing: false, notices: notices, work: &work)
            ?? tiny(session, size: size, quote: layout.quote, measure: layout.measure, actions: layout.actions,
                    longerBecause: look.longerBecause)
    }

    /// The row under notices cut short: how many more, and where to read
    /// them all (each is printed when the pause ends; `miga doctor` lists
    /// the config's problems).
    static func moreNotices(_ count: Int, afterSome: Bool, width: Int) -> String {
        let what = afterSome ? "\(count) more" : "\(count) notices"
        let phrasings = ["⚠ \(what) — each printed when the pause ends; miga doctor lists the config's problems",
                         "⚠ \(what) — miga doctor lists the config's problems", "⚠ \(what) — see miga doctor"]
        return phrasings.first { CellWidth.of($0) <= width } ?? TextWrap.truncate("⚠ \(what)", width: width)
    }

    /// Smaller than any arrangement: the usual order (quote, countdown,
    /// status, actions) with the least important rows left out first: the
    /// quote's further lines, then the status, then the quote, then the
    /// countdown. Exit to Focus stays whatever the size.
    static func tiny(_ session: PauseSession, size: TerminalSize, quote: [String], measure: Int, actions: [Line],
                     longerBecause: String?) -> Frame {
        let width = size.columns
        var left = max(0, size.rows - actions.count)
        func take() -> Bool {
            guard left > 0 else { return false }
            left -= 1
            return true
        }
        let bar = take() ? [barLine(session, width: width)] : []
        var quoteRows = take() ? 1 : 0
        let status = take() ? [statusLine(session, width: width, longerBecause: longerBecause, drawsRing: false)] : []
        while quoteRows > 0 && quoteRows < quote.count && take() { quoteRows += 1 }
        let shown = fitted(quote, maxLines: quoteRows, width: measure).map { Line.centered($0, .quote, in: width) }
        let lines = Array(repeating: .blank, count: left) + shown + bar + status + actions.prefix(size.rows)
        return Frame(size: size, lines: Array(lines.prefix(size.rows)))
    }
}
