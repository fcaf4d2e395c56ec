import MIGACore
import MIGATerminal

/// `miga stats` inside the hub: the same lines, laid out for the window's
/// width, scrolled with the keys, with cues saying what is above and below.
/// Up/Down (j/k) move a line, Page Down/Up (Space, b) a screen, Home/End (g, G) to either end.
struct StatsReader: InteractiveScreen {
    typealias Result = Bool

    let report: StatsReport
    private(set) var offset = 0
    private var size = TerminalSize(columns: 80, rows: 24)

    init(report: StatsReport) {
        self.report = report
    }

    mutating func resize(_ size: TerminalSize) {
        self.size = size
        offset = window(size).start
    }

    /// The report's lines in the window's width: the stats pane never overflows it.
    func lines(width: Int) -> [Line] {
        StatsScreen.lines(report, width: width)
    }

    /// What shows: everything when it fits above the keys, else a window
    /// between a cue line at the top and one at the bottom.
    func window(_ size: TerminalSize) -> ScrollWindow {
        let count = lines(width: size.columns).count
        let room = max(1, size.rows - 1)
        return count <= room ? ScrollWindow(count: count, rows: count, offset: 0)
                             : ScrollWindow(count: count, rows: room - 2, offset: offset)
    }

    mutating func handle(_ key: Key) -> Bool? {
        let window = window(size)
        let page = max(1, window.rows - 1)
        switch key {
        case .down, .character("j"): offset = min(window.lastOffset, offset + 1)
        case .up, .character("k"): offset = max(0, offset - 1)
        case .space, .pageDown, .character("f"): offset = min(window.lastOffset, offset + page)
        case .pageUp, .character("b"): offset = max(0, offset - page)
        case .home, .character("g"): offset = 0
        case .end, .character("G"): offset = window.lastOffset
        case .character("q"), .character("s"), .escape, .enter, .backspace, .left, .control("c"), .control("d"): return true
        default: break
        }
        return nil
    }

    func frame(size: TerminalSize) -> Frame {
        let width = size.columns
        let all = lines(width: width)
        let window = window(size)
        let scrolls = window.lastOffset > 0
        let keys = KeyHints((scrolls ? [["↑↓ scroll", "↑↓"], ["PgUp/PgDn page", "PgUp/PgDn"]] : []) + [["q back to the hub", "q back"]])
        let footer = Line.centered(keys.text(width: width - 2), .muted, in: width)
        guard scrolls else {
            return Frame(size: size, lines: all + Array(repeating: .blank, count: max(0, size.rows - all.count - 1)) + [footer])
        }
        let indent = StatsScreen.margin
        return Frame(size: size, lines: [ScrollWindow.cue("↑", hidden: window.above, indent: indent)] + Array(all[window.range])
                     + [ScrollWindow.cue("↓", hidden: window.below, indent: indent), footer])
    }
}
