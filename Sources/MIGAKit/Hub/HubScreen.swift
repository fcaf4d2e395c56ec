import MIGACore
import MIGATerminal
import MIGADesktop

/// The hub (seed S-004): `miga` after setup. A streak banner and a grid of
/// the protected programs, then the protected sites; choosing a program opens
/// its gateway, so the hub is a launcher too (a site's pause is in the browser).
public struct HubScreen: InteractiveScreen {
    public enum Result: Equatable {
        case open(String)
        case stats
        case quit
    }

    public struct Tile: Equatable, Sendable {
        /// The program or the site the tile stands for.
        public let protected: Protected
        public let name: String
        public let glyph: Character

        /// Its name in the history: a program's command, or a site's history name.
        public var command: String { protected.historyName }

        public init(command: String, name: String, glyph: Character) {
            protected = .program(command)
            self.name = name
            self.glyph = glyph
        }

        /// A protected website's tile.
        public init(site: Site) {
            protected = .site(site)
            name = site.name
            glyph = ProgramCatalog.siteGlyph
        }
    }

    public let tiles: [Tile]
    public let streak: Streak
    public private(set) var selection = 0
    /// A line for the person about what just happened (a program that could
    /// not be opened), shown until the next key.
    public private(set) var notice: String?
    /// What stays true while the hub is open (a config problem), shown under any notice.
    public let standing: [String]
    /// How to add MIGA's extension to each browser found, said when a site's
    /// tile is chosen until a browser's extension has reached MIGA.
    public let siteSteps: [String]
    private var columns = 1

    static let tileWidth = 16
    static let tileHeight = 4

    public init(tiles: [Tile], streak: Streak, selection: Int = 0, notice: String? = nil, standing: [String] = [],
                siteSteps: [String] = []) {
        self.tiles = tiles
        self.siteSteps = siteSteps
        self.streak = streak
        self.selection = max(0, min(selection, tiles.count - 1))
        self.notice = notice
        self.standing = standing
    }

    public mutating func resize(_ size: TerminalSize) {
        columns = Self.columns(for: size.columns, count: tiles.count)
    }

    static func columns(for width: Int, count: Int) -> Int {
        max(1, min(max(1, count), (width - 4 + 1) / (tileWidth + 1)))
    }

    public mutating func handle(_ key: Key) -> Result? {
        notice = nil
        switch key {
        case .character("q"), .escape, .control("c"), .control("d"): return .quit
        case .character("s"): return .stats
        case .enter, .space:
            guard !tiles.isEmpty else { return nil }
            // A site's pause is in the browser's tab: the hub says so rather than open anything around it.
            guard case .program(let command) = tiles[selection].protected else {
                notice = "\(tiles[selection].name) pauses in your browser, with MIGA's extension: open it there."
                    + (siteSteps.isEmpty ? "" : "\nTo add the extension where it has not reached MIGA yet: " + siteSteps.joined(separator: " · "))
                return nil
            }
            return .open(command)
        case .left, .character("h"): selection = max(0, selection - 1)
        case .right, .character("l"): selection = min(tiles.count - 1, selection + 1)
        case .up, .character("k"): if selection - columns >= 0 { selection -= columns }
        case .down, .character("j"): if selection + columns < tiles.count { selection += columns }
        case .character(let letter):
            // The next program whose name starts with the letter (S and Q
            // with Shift, since s and q are the hub's own keys).
            let wanted = letter.lowercased()
            let order = tiles.indices.map { (selection + 1 + $0) % tiles.count }
            if let next = order.first(where: { tiles[$0].name.lowercased().hasPrefix(wanted) }) { selection = next }
        default: break
        }
        return nil
    }

    public func frame(size: TerminalSize) -> Frame {
        let width = size.columns
        let columns = Self.columns(for: width, count: tiles.count)
        let header = headerLines(width: width)
        let keys = Line.centered(Self.keys.text(width: width - 2), .muted, in: width)
        var footer = [keys]
        var margins = true
        let paragraphs = (notice?.split(separator: "\n").map(String.init) ?? []) + standing
        if !paragraphs.isEmpty {
            // What is said gets the rows a row of programs (and its cue) and
            // the keys leave; when it needs more, the blank rows go first,
            // and only then are its words cut (its place stays).
            let tileRows = (tiles.count + columns - 1) / columns
            let leastBody = tiles.isEmpty ? 3 : Self.tileHeight + (tileRows > 1 ? 1 : 0)
            let needed = paragraphs.reduce(0) { $0 + TextWrap.lines($1, width: width - 2).count }
            let roomy = size.rows - header.count - leastBody - 1 - 4
            margins = needed <= roomy
            let budget = max(1, margins ? roomy : size.rows - header.count - leastBody - 1)
            footer = TextWrap.fitted(paragraphs, width: width - 2, lines: budget).map { Line.centered($0, .quote, in: width) }
                + (margins ? [.blank] : []) + footer
        }
        var body: [Line] = []
        if tiles.isEmpty {
            body.append(Line.centered(TextWrap.truncate("No programs are protected yet.", width: width - 2), .quote, in: width))
            body.append(.blank)
            body += TextWrap.lines("miga setup, or: miga protect firefox", width: width - 2).map { Line.centered($0, .muted, in: width) }
        } else {
            let rows = (tiles.count + columns - 1) / columns
            // The room ScreenLayout leaves, less a line for the cue.
            let bodyRows = size.rows - header.count - footer.count - (margins ? 2 : 0)
            let room = max(1, bodyRows / (Self.tileHeight + 1))
            let selectedRow = selection / columns
            let first = min(max(0, selectedRow - room / 2), max(0, rows - room))
            for row in first..<min(rows, first + room) {
                if row > first { body.append(.blank) }
                let members = Array(tiles.indices.dropFirst(row * columns).prefix(columns))
                body += tileRow(members, width: width, columns: columns)
            }
            if rows > room {
                let below = rows - first - room
                let cue = [first > 0 ? "↑ \(first) more row\(first == 1 ? "" : "s")" : nil,
                           below > 0 ? "↓ \(below) more row\(below == 1 ? "" : "s")" : nil].compactMap { $0 }.joined(separator: "  ·  ")
                body.append(Line.centered(TextWrap.truncate(cue, width: width - 2), .faint, in: width))
            }
        }
        return ScreenLayout.compose(size: size, header: header, body: body, footer: footer, margins: margins)
    }

    /// The hub's keys: they shorten before any goes, and "s stats · q quit" go last.
    static let keys = KeyHints([["←↑↓→ or a letter chooses", "←↑↓→ chooses", "←↑↓→"], ["Enter opens it, after a pause", "Enter opens", "Enter"],
                                ["s stats"], ["q quit"]])

    /// MIGA and the streak on one line: in a narrow window the best streak
    /// goes first, then the name, then the banner says it shorter; a banner
    /// still too wide wraps.
    func headerLines(width: Int) -> [Line] {
        let best: [Span] = streak.best > streak.current ? [Span("  ·  best \(streak.best) days", .muted)] : []
        let banner: [Span] = streak.current > 0
            ? [Span(Streak.mark + " "), Span("\(streak.current)-day streak", .accentDeep)]
            : [Span(streak.best > 0 ? "One conscious exit today starts a new streak" : "Your first conscious exit starts a streak", .muted)]
        let short = streak.current > 0 ? banner : [Span(streak.best > 0 ? "A conscious exit starts a new streak" : "A conscious exit starts a streak", .muted)]
        let name = [Span("MIGA", .accentDeep), Span("   ")]
        for spans in [name + banner + best, name + banner, banner + best, banner, short] {
            let line = Line.centered(spans, in: width)
            if line.width <= width - 2 { return [line] }
        }
        return TextWrap.fitted([short.map(\.text).joined()], width: width - 2, lines: 2).map { Line.centered($0, .muted, in: width) }
    }

    /// One row of tiles, each a small rounded card: the glyph, then the name.
    func tileRow(_ indices: [Int], width: Int, columns: Int) -> [Line] {
        let inner = Self.tileWidth - 2
        let total = columns * (Self.tileWidth + 1) - 1
        let indent = Span(String(repeating: " ", count: max(0, (width - total) / 2)))
        var rows: [[Span]] = Array(repeating: [indent], count: Self.tileHeight)
        for (position, index) in indices.enumerated() {
            let tile = tiles[index]
            let chosen = index == selection
            let border: Tone = chosen ? .accent(glow: 0) : .track
            let gap = position > 0 ? [Span(" ")] : []
            let name = TextWrap.truncate(tile.name, width: inner - 2)
            func centred(_ text: String) -> String {
                let left = (inner - CellWidth.of(text)) / 2
                return String(repeating: " ", count: left) + text + String(repeating: " ", count: inner - left - CellWidth.of(text))
            }
            rows[0] += gap + [Span("╭" + String(repeating: "─", count: inner) + "╮", border)]
            rows[1] += gap + [Span("│", border), Span(centred(String(tile.glyph)), chosen ? .accentDeep : .accent(glow: 0)), Span("│", border)]
            rows[2] += gap + [Span("│", border), Span(centred(name), chosen ? .quote : .body), Span("│", border)]
            rows[3] += gap + [Span("╰" + String(repeating: "─", count: inner) + "╯", border)]
        }
        return rows.map(Line.init)
    }
}
