import MIGACore

/// How many colours the terminal can show, decided once from the environment.
public enum ColorMode: Sendable, Equatable {
    /// `NO_COLOR`, `TERM=dumb`: attributes like bold only, no colour at all.
    case none
    case ansi16
    case ansi256
    case trueColor

    /// Follows no-color.org (`NO_COLOR` set and non-empty wins), then
    /// `COLORTERM` for true colour and `TERM` for 256 colours.
    public static func detect(environment: [String: String]) -> ColorMode {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let term = environment["TERM"] ?? ""
        if term == "dumb" { return .none }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        if term.contains("256color") { return .ansi256 }
        return .ansi16
    }

    /// `CLICOLOR_FORCE` set and not "0": colours even into a pipe (bixense.com/clicolors).
    public static func isForced(_ environment: [String: String]) -> Bool {
        guard let force = environment["CLICOLOR_FORCE"] else { return false }
        return !force.isEmpty && force != "0" && (environment["NO_COLOR"] ?? "").isEmpty
    }
}

/// The looks of MIGA, turning tones into SGR sequences for a terminal.
///
/// Every look keeps text at 4.5:1 or more and graphics (the ring, its
/// track, the bar) at 3:1 or more against what they are drawn on (WCAG AA),
/// measured with xterm's colours; only the inert Proceed before zero may
/// stay dimmer, as a control that does not work yet.
///
/// - Light (a light or unknown background, 256 colours or more): a soft pale
///   sheet, slate text, a deep teal for words and keys and the ring in the
///   teal of #00A9B5 deepened until it holds on the sheet.
/// - Dark (a dark background, 256 colours or more): the terminal's own
///   background, pale text, a lighter teal; no light sheet flashes over it.
/// - 16 colours: the terminal's own colours, whatever they are. Text in the
///   default foreground (bold for emphasis), the primary action in reverse
///   video, and only accents that xterm's standard palette keeps at 3:1 on
///   both a white and a black background (bright blue, dark grey) for the ring.
/// - No colour (`NO_COLOR`): bold and faint only.
/// Without UTF-8 every character drawn passes through `ASCIIText`.
public struct Palette: Sendable {
    public let mode: ColorMode
    /// Full-screen (the pause) paints the light sheet; inline output (stats,
    /// lists) keeps the person's own background and text colour, adding only
    /// the teal accent and emphasis.
    public let fullScreen: Bool
    public let background: TerminalBackground
    /// The locale's character set is UTF-8; if not, text is drawn as ASCII.
    public let unicode: Bool

    public init(mode: ColorMode, fullScreen: Bool = true, background: TerminalBackground = .unknown, unicode: Bool = true) {
        self.mode = mode
        self.fullScreen = fullScreen
        self.background = background
        self.unicode = unicode
    }

    public init(_ capabilities: TerminalCapabilities, fullScreen: Bool = true) {
        self.init(mode: capabilities.colors, fullScreen: fullScreen, background: capabilities.background,
                  unicode: capabilities.unicode)
    }

    /// The same look for a background learnt from the terminal itself.
    public func with(background: TerminalBackground) -> Palette {
        Palette(mode: mode, fullScreen: fullScreen, background: background, unicode: unicode)
    }

    /// Whether the look depends on the background, not yet known: worth asking the terminal.
    public var wantsBackground: Bool { fullScreen && background == .unknown && (mode == .trueColor || mode == .ansi256) }

    private var isDark: Bool { background == .dark }

    /// Whether the palette paints its own background (the light sheet).
    public var paintsBackground: Bool { fullScreen && !isDark && (mode == .trueColor || mode == .ansi256) }

    /// `text` as this terminal can show it: ASCII without UTF-8.
    public func glyphs(_ text: String, tone: Tone = .body) -> String {
        unicode ? text : ASCIIText.of(text, tone: tone)
    }

    /// The sequence that starts text in `tone` (after a reset).
    public func sgr(_ tone: Tone) -> String {
        if !fullScreen { return inline(tone) }
        switch mode {
        case .none: return plain(tone)
        case .ansi16: return ansi16(tone)
        case .ansi256: return sheet + (isDark ? dark256(tone) : ansi256(tone))
        case .trueColor: return sheet + (isDark ? darkTrueColor(tone) : trueColor(tone))
        }
    }

    /// The sequence for blank space: the sheet's background.
    public var blank: String {
        paintsBackground ? "\u{1B}[0m" + sheet : "\u{1B}[0m"
    }

    private var sheet: String {
        guard paintsBackground else { return "" }
        return switch mode {
        case .trueColor: "\u{1B}[48;2;246;250;250m"
        case .ansi256: "\u{1B}[48;5;255m"
        default: ""
        }
    }

    /// Inline: default colours, emphasis, and teal where it means something;
    /// plain text, no sequences at all, without colours (a pipe, NO_COLOR).
    /// The teal and the notice's colour are those of the look for the
    /// background COLORFGBG names; with none named, a teal that holds on
    /// white and on black alike (graphics at 3:1; words only in true colour,
    /// where one exists at 4.5:1 on both; in 256 colours none does, so words
    /// are bold in the terminal's own colour, as in 16 colours).
    private func inline(_ tone: Tone) -> String {
        if mode == .none { return "" }
        // 16 colours: whatever the terminal's own are, only bold (faint
        // grey and yellow are unreadable on xterm's white).
        if mode == .ansi16 { return ansi16(tone) }
        let known = background != .unknown
        switch tone {
        case .body: return ""
        case .quote: return "\u{1B}[1m"
        case .muted, .faint, .track, .inert: return "\u{1B}[2m"
        case .accent:
            return known ? foreground(.accent(glow: 0))
                : mode == .trueColor ? fg(0, 130, 135) : "\u{1B}[38;5;30m"
        case .accentDeep, .primary:
            return known ? "\u{1B}[1m" + foreground(.accentDeep)
                : mode == .trueColor ? "\u{1B}[1m" + fg(0, 130, 135) : "\u{1B}[1m"
        case .notice:
            return known ? foreground(.notice) : ""
        }
    }

    /// The colour `tone` is written in on the full-screen look, without the sheet or weight.
    private func foreground(_ tone: Tone) -> String {
        let sequence = isDark ? (mode == .trueColor ? darkTrueColor(tone) : dark256(tone))
                              : (mode == .trueColor ? trueColor(tone) : ansi256(tone))
        return sequence.replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(of: "\u{1B}[1;", with: "\u{1B}[")
    }

    /// Lines for output in the flow of a terminal (not a full screen): each
    /// span in its tone, trailing blanks trimmed, a reset at each line's end.
    public func render(_ lines: [Line]) -> String {
        lines.map { line in
            var spans: [Span] = []
            // One sequence for a run of spans that look the same (in ASCII, of
            // the same tone too: the tone picks a character's ASCII mark).
            for span in line.spans {
                if let last = spans.last, sgr(last.tone) == sgr(span.tone), unicode || last.tone == span.tone {
                    spans[spans.count - 1].text += span.text
                } else {
                    spans.append(span)
                }
            }
            while let last = spans.last, last.text.allSatisfy({ $0 == " " }) { spans.removeLast() }
            if let last = spans.last {
                var text = last.text
                while text.last == " " { text.removeLast() }
                spans[spans.count - 1].text = text
            }
            guard !spans.isEmpty else { return "" }
            let body = spans.map { span in
                let start = sgr(span.tone)
                let text = glyphs(span.text, tone: span.tone)
                return start.isEmpty ? text : start + text + "\u{1B}[0m"
            }.joined()
            return body
        }.joined(separator: "\n") + "\n"
    }

    private func plain(_ tone: Tone) -> String {
        switch tone {
        case .quote, .accentDeep, .primary: "\u{1B}[1m"
        case .faint, .track, .inert: "\u{1B}[2m"
        case .accent(let glow): glow >= 3 ? "\u{1B}[1m" : ""
        default: ""
        }
    }

    /// Whatever the terminal's own colours are: text in its default
    /// foreground (faint is left out: xterm's faint grey is under 4.5:1 on
    /// white), graphics in xterm's bright blue (#5C5CFF) and dark grey
    /// (#7F7F7F), each at least 3:1 on both white and black.
    private func ansi16(_ tone: Tone) -> String {
        switch tone {
        case .body, .muted, .faint, .notice: ""
        case .inert: "\u{1B}[2m"
        case .quote, .accentDeep: "\u{1B}[1m"
        case .track: "\u{1B}[90m"
        case .accent: "\u{1B}[94m"
        case .primary: "\u{1B}[1;7m"
        }
    }

    // The four looks below, with xterm's colours (256: cube levels 0, 95,
    // 135, 175, 215, 255; greys 8 + 10n) on the light sheet (#EEEEEE in 256
    // colours, #F6FAFA in true colour) or on black: text 4.5:1 or more,
    // graphics 3:1 or more, the inert Proceed about 2.3–3:1.

    /// On black: body 13.6, muted 8.8, faint 6.1, track 4.0, the ring 11.7–12.7, Exit 11.7 (dark on teal).
    private func dark256(_ tone: Tone) -> String {
        switch tone {
        case .body: "\u{1B}[38;5;252m"
        case .quote: "\u{1B}[1;38;5;255m"
        case .muted: "\u{1B}[38;5;248m"
        case .faint: "\u{1B}[38;5;245m"
        case .inert: "\u{1B}[38;5;240m"
        case .track: "\u{1B}[38;5;242m"
        case .accent(let glow): "\u{1B}[38;5;\([44, 44, 80, 80, 116][min(4, max(0, glow))])m"
        case .accentDeep: "\u{1B}[1;38;5;80m"
        case .primary: "\u{1B}[1;38;5;16;48;5;44m"
        case .notice: "\u{1B}[38;5;179m"
        }
    }

    /// On black: muted 8.5, faint 6.5, track 3.7, the ring 9.9–13.8.
    private func darkTrueColor(_ tone: Tone) -> String {
        switch tone {
        case .body: fg(204, 216, 218)
        case .quote: "\u{1B}[1m" + fg(238, 245, 246)
        case .muted: fg(150, 168, 171)
        case .faint: fg(128, 146, 149)
        case .inert: fg(84, 98, 101)
        case .track: fg(90, 106, 109)
        case .accent(let glow): breathing(from: (46, 196, 207), to: (130, 224, 230), glow)
        case .accentDeep: "\u{1B}[1m" + fg(96, 214, 222)
        case .primary: "\u{1B}[1m" + fg(12, 30, 33) + "\u{1B}[48;2;46;196;207m"
        case .notice: fg(226, 170, 100)
        }
    }

    /// On #EEEEEE: body 11.4, muted 7.2, faint 5.3, deep teal 6.5, the ring
    /// 3.6–3.8 on a track of 3.4, Exit white on deep teal 7.5 (6.5 against the sheet).
    private func ansi256(_ tone: Tone) -> String {
        switch tone {
        case .body: "\u{1B}[38;5;236m"
        case .quote: "\u{1B}[1;38;5;235m"
        case .muted: "\u{1B}[38;5;239m"
        case .faint: "\u{1B}[38;5;241m"
        case .inert: "\u{1B}[38;5;247m"
        case .track: "\u{1B}[38;5;244m"
        case .accent(let glow): "\u{1B}[38;5;\([30, 30, 30, 31, 31][min(4, max(0, glow))])m"
        case .accentDeep: "\u{1B}[1;38;5;23m"
        case .primary: "\u{1B}[1;38;5;231;48;5;23m"
        case .notice: "\u{1B}[38;5;94m"
        }
    }

    /// On #F6FAFA: muted 5.6, faint 4.8, deep teal 5.7, the ring 3.4–4.9 on
    /// a track of 3.4, Exit white on deep teal 6.0 (5.7 against the sheet).
    private func trueColor(_ tone: Tone) -> String {
        switch tone {
        case .body: fg(52, 68, 71)
        case .quote: "\u{1B}[1m" + fg(28, 43, 46)
        case .muted: fg(84, 104, 107)
        case .faint: fg(96, 114, 117)
        case .inert: fg(150, 168, 170)
        case .track: fg(120, 140, 142)
        case .accent(let glow): breathing(from: (0, 122, 132), to: (0, 150, 160), glow)
        case .accentDeep: "\u{1B}[1m" + fg(0, 110, 118)
        case .primary: "\u{1B}[1m" + fg(255, 255, 255) + "\u{1B}[48;2;0;110;118m"
        case .notice: fg(150, 88, 20)
        }
    }

    /// The teal from `from` towards `to` as the ring breathes in (glow 0…4).
    private func breathing(from: (Int, Int, Int), to: (Int, Int, Int), _ glow: Int) -> String {
        let t = Double(min(4, max(0, glow))) / 4
        return fg(mix(from.0, to.0, t), mix(from.1, to.1, t), mix(from.2, to.2, t))
    }

    private func fg(_ r: Int, _ g: Int, _ b: Int) -> String { "\u{1B}[38;2;\(r);\(g);\(b)m" }

    private func mix(_ a: Int, _ b: Int, _ t: Double) -> Int { Int((Double(a) + Double(b - a) * t).rounded()) }
}
