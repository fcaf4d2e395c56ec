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
}

/// The light look: a soft pale sheet, slate text, teal accent #00A9B5.
/// Turns tones into SGR sequences for a colour mode.
public struct Palette: Sendable {
    public let mode: ColorMode
    /// Full-screen (the pause) paints the light sheet; inline output (stats,
    /// lists) keeps the person's own background and text colour, adding only
    /// the teal accent and emphasis.
    public let fullScreen: Bool

    public init(mode: ColorMode, fullScreen: Bool = true) {
        self.mode = mode
        self.fullScreen = fullScreen
    }

    /// Whether the palette paints its own background (the light sheet).
    public var paintsBackground: Bool { fullScreen && (mode == .trueColor || mode == .ansi256) }

    /// The sequence that starts text in `tone` (after a reset).
    public func sgr(_ tone: Tone) -> String {
        if !fullScreen { return inline(tone) }
        switch mode {
        case .none: return plain(tone)
        case .ansi16: return ansi16(tone)
        case .ansi256: return background + ansi256(tone)
        case .trueColor: return background + trueColor(tone)
        }
    }

    /// The sequence for blank space: the sheet's background.
    public var blank: String {
        paintsBackground ? "\u{1B}[0m" + background : "\u{1B}[0m"
    }

    private var background: String {
        switch mode {
        case .trueColor: "\u{1B}[48;2;246;250;250m"
        case .ansi256: "\u{1B}[48;5;255m"
        default: ""
        }
    }

    /// Inline: default colours, emphasis, and teal where it means something;
    /// plain text, no sequences at all, without colours (a pipe, NO_COLOR).
    private func inline(_ tone: Tone) -> String {
        if mode == .none { return "" }
        let teal = switch mode {
        case .none: ""
        case .ansi16: "\u{1B}[36m"
        case .ansi256: "\u{1B}[38;5;37m"
        case .trueColor: fg(0, 169, 181)
        }
        return switch tone {
        case .body: ""
        case .quote: "\u{1B}[1m"
        case .muted, .faint, .track: "\u{1B}[2m"
        case .accent: teal
        case .accentDeep, .primary: "\u{1B}[1m" + teal
        case .notice: "\u{1B}[33m"
        }
    }

    /// Lines for output in the flow of a terminal (not a full screen): each
    /// span in its tone, trailing blanks trimmed, a reset at each line's end.
    public func render(_ lines: [Line]) -> String {
        lines.map { line in
            var spans: [Span] = []
            // One sequence for a run of spans in the same tone.
            for span in line.spans {
                if let last = spans.last, sgr(last.tone) == sgr(span.tone) {
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
                return start.isEmpty ? span.text : start + span.text + "\u{1B}[0m"
            }.joined()
            return body
        }.joined(separator: "\n") + "\n"
    }

    private func plain(_ tone: Tone) -> String {
        switch tone {
        case .quote, .accentDeep, .primary: "\u{1B}[1m"
        case .faint, .track: "\u{1B}[2m"
        case .accent(let glow): glow >= 3 ? "\u{1B}[1m" : ""
        default: ""
        }
    }

    private func ansi16(_ tone: Tone) -> String {
        switch tone {
        case .body: ""
        case .quote: "\u{1B}[1m"
        case .muted: "\u{1B}[2m"
        case .faint: "\u{1B}[2m"
        case .track: "\u{1B}[2;90m"
        case .accent(let glow): glow >= 3 ? "\u{1B}[1;96m" : "\u{1B}[36m"
        case .accentDeep: "\u{1B}[1;36m"
        case .primary: "\u{1B}[1;30;46m"
        case .notice: "\u{1B}[33m"
        }
    }

    private func ansi256(_ tone: Tone) -> String {
        switch tone {
        case .body: "\u{1B}[38;5;237m"
        case .quote: "\u{1B}[1;38;5;235m"
        case .muted: "\u{1B}[38;5;243m"
        case .faint: "\u{1B}[38;5;247m"
        case .track: "\u{1B}[38;5;253m"
        case .accent(let glow): "\u{1B}[38;5;\([37, 37, 38, 44, 80][min(4, max(0, glow))])m"
        case .accentDeep: "\u{1B}[1;38;5;30m"
        case .primary: "\u{1B}[1;38;5;231;48;5;37m"
        case .notice: "\u{1B}[38;5;130m"
        }
    }

    private func trueColor(_ tone: Tone) -> String {
        switch tone {
        case .body: fg(52, 68, 71)
        case .quote: "\u{1B}[1m" + fg(28, 43, 46)
        case .muted: fg(104, 124, 127)
        case .faint: fg(150, 168, 170)
        case .track: fg(214, 226, 227)
        case .accent(let glow): breathingTeal(glow)
        case .accentDeep: "\u{1B}[1m" + fg(0, 124, 133)
        case .primary: "\u{1B}[1m" + fg(255, 255, 255) + "\u{1B}[48;2;0;169;181m"
        case .notice: fg(160, 98, 30)
        }
    }

    /// From the brand teal towards a lighter, airier teal as the ring breathes in.
    private func breathingTeal(_ glow: Int) -> String {
        let t = Double(min(4, max(0, glow))) / 4
        return fg(mix(0, 96, t), mix(169, 200, t), mix(181, 206, t))
    }

    private func fg(_ r: Int, _ g: Int, _ b: Int) -> String { "\u{1B}[38;2;\(r);\(g);\(b)m" }

    private func mix(_ a: Int, _ b: Int, _ t: Double) -> Int { Int((Double(a) + Double(b - a) * t).rounded()) }
}
