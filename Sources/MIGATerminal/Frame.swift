import MIGACore

/// The role a piece of text plays on screen; the palette turns roles into
/// colours, so layout never names a colour.
public enum Tone: Hashable, Sendable {
    case body
    /// The quote itself: the strongest text on the screen.
    case quote
    /// Attribution, status lines, secondary words.
    case muted
    /// Secondary words that should recede: the header, hints.
    case faint
    /// A control that does not work yet (Proceed before zero): dimmer than
    /// any text, as an inactive control may be (WCAG 1.4.3 exempts it).
    case inert
    /// The empty part of the ring: barely there.
    case track
    /// The teal accent; `glow` 0…4 brightens it as the ring breathes.
    case accent(glow: Int)
    /// Deep teal for numbers and key letters on a light background.
    case accentDeep
    /// The primary action: Exit to Focus, always the easiest thing to see.
    case primary
    /// Something the person should know (a config problem), calmly.
    case notice
}

/// A run of text in one tone.
public struct Span: Hashable, Sendable {
    public var text: String
    public var tone: Tone

    public init(_ text: String, _ tone: Tone = .body) {
        self.text = printable(text)
        self.tone = tone
    }

    public var width: Int { CellWidth.of(text) }
}

/// One row of the screen.
public struct Line: Hashable, Sendable {
    public var spans: [Span]

    public init(_ spans: [Span] = []) { self.spans = spans }

    public static let blank = Line()

    public var width: Int { spans.reduce(0) { $0 + $1.width } }

    public var text: String { spans.map(\.text).joined() }

    /// The line cut to `width` cells, where it is wider, the cut marked with "…".
    public func truncated(to width: Int) -> Line {
        guard self.width > width else { return self }
        var room = max(0, width)
        var kept: [Span] = []
        for span in spans {
            guard span.width > room else {
                kept.append(span)
                room -= span.width
                continue
            }
            if room > 0 || kept.isEmpty {
                kept.append(Span(TextWrap.truncate(span.text, width: room), span.tone))
            } else {
                // Cut right after a span: the "…" goes at the end of that one.
                let last = kept.removeLast()
                kept.append(Span(TextWrap.truncate(last.text + span.text, width: last.width), last.tone))
            }
            break
        }
        return Line(kept)
    }

    /// `spans` centred in `width` cells.
    public static func centered(_ spans: [Span], in width: Int) -> Line {
        let used = spans.reduce(0) { $0 + $1.width }
        let left = max(0, (width - used) / 2)
        return Line((left > 0 ? [Span(String(repeating: " ", count: left))] : []) + spans)
    }

    public static func centered(_ text: String, _ tone: Tone = .body, in width: Int) -> Line {
        centered([Span(text, tone)], in: width)
    }
}

/// A whole screen: exactly `size.rows` lines, each at most `size.columns` wide.
public struct Frame: Hashable, Sendable {
    public let size: TerminalSize
    public private(set) var lines: [Line]

    public init(size: TerminalSize, lines: [Line]) {
        self.size = size
        var lines = Array(lines.prefix(size.rows))
        lines += Array(repeating: .blank, count: size.rows - lines.count)
        self.lines = lines
    }

    /// The screen as plain text, trailing spaces removed: what a person reads,
    /// and what snapshot tests compare.
    public var text: String {
        lines.map { line in
            var text = line.text
            while text.last == " " { text.removeLast() }
            return text
        }.joined(separator: "\n")
    }
}

/// Columns and rows of a terminal.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
    public let columns: Int
    public let rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
    }

    public var description: String { "\(columns)×\(rows)" }
}
