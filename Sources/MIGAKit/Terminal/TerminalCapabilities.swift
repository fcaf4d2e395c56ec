#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Whether the terminal's own background is light or dark, when known.
public enum TerminalBackground: Sendable, Equatable {
    case light, dark
    /// Not said by the environment; the terminal may be asked (OSC 11).
    case unknown

    /// From `COLORFGBG` ("15;0", or "15;default;0"), which rxvt, Konsole and
    /// others set: the last field is the background's colour number; 0–6
    /// and 8 are dark in every standard palette, 7 and 9–15 light.
    public static func from(colorFGBG value: String?) -> TerminalBackground {
        guard let last = value?.split(separator: ";").last, let number = Int(last) else { return .unknown }
        switch number {
        case 0...6, 8: return .dark
        case 7, 9...15: return .light
        default: return .unknown
        }
    }

    /// From a terminal's answer to OSC 11 (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB`
    /// ended by BEL or ST; one to four hex digits a channel): dark when its
    /// relative luminance is under a half. Nil when `reply` holds no answer.
    static func from(osc11 reply: [UInt8]) -> TerminalBackground? {
        let text = String(decoding: reply, as: UTF8.self)
        guard let start = text.range(of: "]11;rgb:") else { return nil }
        let channels = text[start.upperBound...].prefix { $0.isHexDigit || $0 == "/" }.split(separator: "/")
        guard channels.count == 3 else { return nil }
        var levels: [Double] = []
        for channel in channels {
            guard (1...4).contains(channel.count), let value = Int(channel, radix: 16) else { return nil }
            levels.append(Double(value) / Double((1 << (4 * channel.count)) - 1))
        }
        return Contrast.luminance(red: levels[0], green: levels[1], blue: levels[2]) < 0.5 ? .dark : .light
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

    public static func detect(environment: [String: String]) -> TerminalCapabilities {
        TerminalCapabilities(colors: ColorMode.detect(environment: environment), unicode: localeIsUTF8(environment),
                             background: .from(colorFGBG: environment["COLORFGBG"]), dumb: environment["TERM"] == "dumb")
    }

    /// The character set of the locale the environment names (`LC_ALL`, then
    /// `LC_CTYPE`, then `LANG`), as the C library sees it (`nl_langinfo_l(CODESET)`).
    /// A UTF-8 locale that is not installed here still means a UTF-8 terminal.
    static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        if name.isEmpty || name == "C" || name == "POSIX" { return false }
        let named = name.lowercased().replacingOccurrences(of: "-", with: "").contains("utf8")
        // A locale object of its own (newlocale), never the process's: setlocale
        // would change it for every thread, if only for a moment.
        guard let locale = newlocale(Int32(1) << LC_CTYPE, name, nil) else { return named }
        defer { freelocale(locale) }
        guard let codeset = nl_langinfo_l(nl_item(truncatingIfNeeded: CODESET), locale) else { return named }
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

    /// (lighter + 0.05) ÷ (darker + 0.05): 1 to 21.
    public static func ratio(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }
}
