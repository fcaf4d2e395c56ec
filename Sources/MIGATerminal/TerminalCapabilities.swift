#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Whether the terminal's own background is light or dark, when known.
public enum TerminalBackground: Sendable, Equatable {
    case light, dark
    /// Not said by the environment; the terminal may be asked (OSC 11).
    case unknown

    /// From `COLORFGBG` ("15;0", or "15;default;0"), which rxvt, Konsole and
    /// others set: the last field is the background's colour number (0–255),
    /// judged in xterm's palette as `from(luminance:)` judges it.
    public static func from(colorFGBG value: String?) -> TerminalBackground {
        guard let last = value?.split(separator: ";").last, let number = Int(last),
              let colour = Contrast.xterm(number) else { return .unknown }
        return from(luminance: Contrast.luminance(colour))
    }

    /// Dark when white text keeps more contrast on it than black text does:
    /// below a relative luminance of about 0.179, where the two are equal
    /// ((L + 0.05) / 0.05 = 1.05 / (L + 0.05)). A light grey (0.43) is light.
    static func from(luminance: Double) -> TerminalBackground {
        (luminance + 0.05) / 0.05 < 1.05 / (luminance + 0.05) ? .dark : .light
    }

    /// From a terminal's answer to OSC 11 (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB`
    /// ended by BEL or ST; one to four hex digits a channel), judged by
    /// `from(luminance:)`. Nil when `reply` holds no answer.
    static func from(osc11 reply: [UInt8]) -> TerminalBackground? {
        let text = String(decoding: reply, as: UTF8.self)
        guard let start = text.firstRange(of: "]11;rgb:") else { return nil }
        let channels = text[start.upperBound...].prefix { $0.isHexDigit || $0 == "/" }.split(separator: "/")
        guard channels.count == 3 else { return nil }
        var levels: [Double] = []
        for channel in channels {
            guard (1...4).contains(channel.count), let value = Int(channel, radix: 16) else { return nil }
            levels.append(Double(value) / Double((1 << (4 * channel.count)) - 1))
        }
        return from(luminance: Contrast.luminance(red: levels[0], green: levels[1], blue: levels[2]))
    }
}

/// What the terminal can show, decided once, cheaply, from the environment
/// (as termenv and lipgloss do): how many colours, whether the locale's
/// character set is UTF-8, whether the background is dark, and whether the
/// terminal takes control sequences at all.
public struct TerminalCapabilities: Sendable, Equatable {
    public var colors: ColorMode
    /// The locale's character set is UTF-8; otherwise everything drawn is ASCII.
    public var unicode: Bool
    public var background: TerminalBackground
    /// `TERM=dumb` (Emacs's shell, an IDE's output pane): no control
    /// sequence of any kind, so the pause is a few lines of text and a prompt.
    public var dumb: Bool

    public init(colors: ColorMode = .ansi256, unicode: Bool = true, background: TerminalBackground = .unknown, dumb: Bool = false) {
        self.colors = colors
        self.unicode = unicode
        self.background = background
        self.dumb = dumb
    }

    /// `MIGA_GLYPHS=ascii`: the terminal's font may lack what lies beyond
    /// ASCII (the ring's Braille dots), whatever the locale: MIGA's own
    /// window in an emulator whose font it cannot choose.
    public static let glyphsVariable = "MIGA_GLYPHS"

    public static func detect(environment: [String: String]) -> TerminalCapabilities {
        let unicode = localeIsUTF8(environment) && environment[glyphsVariable] != "ascii"
        return TerminalCapabilities(colors: ColorMode.detect(environment: environment), unicode: unicode,
                                    background: .from(colorFGBG: environment["COLORFGBG"]), dumb: environment["TERM"] == "dumb")
    }

    /// The character set of the locale the environment names (`LC_ALL`, then
    /// `LC_CTYPE`, then `LANG`), as the C library sees it (`nl_langinfo_l(CODESET)`).
    /// A UTF-8 locale that is not installed here still means a UTF-8 terminal.
    static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        if name.isEmpty || name == "C" || name == "POSIX" { return false }
        // What the name says, only for when the C library cannot tell (the
        // search is a generic whose first use costs more than the question).
        func named() -> Bool { name.lowercased().replacingOccurrences(of: "-", with: "").contains("utf8") }
        // A locale object of its own (newlocale), never the process's: setlocale
        // would change it for every thread, if only for a moment.
        guard let locale = newlocale(Int32(1) << LC_CTYPE, name, nil) else { return named() }
        defer { freelocale(locale) }
        guard let codeset = nl_langinfo_l(nl_item(truncatingIfNeeded: CODESET), locale) else { return named() }
        return String(cString: codeset).uppercased().replacingOccurrences(of: "-", with: "") == "UTF8"
    }
}

/// WCAG's relative luminance and contrast ratio, for choosing colours that
/// stay readable on the backgrounds people have.
public enum Contrast {
    /// Relative luminance of an sRGB colour with channels 0…1.
    public static func luminance(red: Double, green: Double, blue: Double) -> Double {
        func linear(_ c: Double) -> Double { c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    public static func luminance(_ rgb: (Int, Int, Int)) -> Double {
        luminance(red: Double(rgb.0) / 255, green: Double(rgb.1) / 255, blue: Double(rgb.2) / 255)
    }

    /// xterm's colour `index` (0–255): its 16 standard colours, then the
    /// 6×6×6 cube (levels 0, 95, 135, 175, 215, 255) and 24 greys (8 + 10n).
    public static func xterm(_ index: Int) -> (Int, Int, Int)? {
        let standard = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
                        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
                        (255, 0, 255), (0, 255, 255), (255, 255, 255)]
        switch index {
        case 0..<16: return standard[index]
        case 16..<232:
            let levels = [0, 95, 135, 175, 215, 255]
            let cube = index - 16
            return (levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
        case 232..<256: return (8 + 10 * (index - 232), 8 + 10 * (index - 232), 8 + 10 * (index - 232))
        default: return nil
        }
    }

    /// (lighter + 0.05) ÷ (darker + 0.05): 1 to 21.
    public static func ratio(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }
}
