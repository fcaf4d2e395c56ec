#if canImport(Glibc)
import Glibc
#endif
import MIGACore

/// A terminal emulator that can open a window running a command, and how to
/// hand it that command as separate arguments (never one shell string).
///
/// They differ: gnome-terminal and ptyxis want `--` before the command,
/// xfce4-terminal `-x`, xterm, konsole, alacritty, ghostty, kgx and tilix
/// `-e` followed by the command and its arguments, wezterm `start --`, kitty
/// and foot the command alone. Before it go the options that make the window
/// look like the pause (`windowOptions`).
public struct TerminalEmulator: Equatable, Sendable {
    public let name: String
    /// The words that come before the command.
    public let prefix: [String]
    /// The emulator it really is: for Debian's `x-terminal-emulator`, the
    /// program its alternative leads to (`uxterm`, `konsole`); else `name`.
    public var actual: String

    public init(name: String, prefix: [String], actual: String? = nil) {
        self.name = name
        self.prefix = prefix
        self.actual = actual ?? name
    }

    /// Known emulators, in MIGA's order: the desktop's own launcher first,
    /// then Debian's alternative, then the emulators people install, with
    /// xterm (often there only as a fallback) last. `TerminalChoice` tries
    /// them in this order among those that speak the session's display.
    public static let known: [TerminalEmulator] = [
        TerminalEmulator(name: "xdg-terminal-exec", prefix: []),
        TerminalEmulator(name: "x-terminal-emulator", prefix: ["-e"]),
        TerminalEmulator(name: "kitty", prefix: []),
        TerminalEmulator(name: "alacritty", prefix: ["-e"]),
        TerminalEmulator(name: "foot", prefix: []),
        TerminalEmulator(name: "wezterm", prefix: ["start", "--"]),
        TerminalEmulator(name: "ghostty", prefix: ["-e"]),
        TerminalEmulator(name: "konsole", prefix: ["-e"]),
        TerminalEmulator(name: "ptyxis", prefix: ["--"]),
        TerminalEmulator(name: "gnome-terminal", prefix: ["--"]),
        TerminalEmulator(name: "kgx", prefix: ["-e"]),
        TerminalEmulator(name: "xfce4-terminal", prefix: ["-x"]),
        TerminalEmulator(name: "mate-terminal", prefix: ["-x"]),
        TerminalEmulator(name: "tilix", prefix: ["-e"]),
        TerminalEmulator(name: "terminator", prefix: ["-x"]),
        TerminalEmulator(name: "xterm", prefix: ["-e"]),
    ]

    /// The names xterm goes by on Debian: wrappers that take xterm's options.
    static let xtermFamily: Set<String> = ["xterm", "uxterm", "lxterm", "koi8rxterm"]

    /// The argument vector (without the emulator itself) that runs `command`
    /// in a window that looks like `window`.
    public func arguments(running command: [String], in window: PauseWindow) -> [String] {
        windowOptions(window) + prefix + command
    }

    /// The options that give the window its title, room for the pause and a
    /// font with the ring's dots, each as far as this emulator takes it
    /// (from each one's documented command line).
    func windowOptions(_ window: PauseWindow) -> [String] {
        let (title, columns, rows) = (window.title, PauseWindow.columns, PauseWindow.rows)
        let size = "\(columns)x\(rows)"
        switch name {
        case "xterm":
            return Self.xtermOptions(window)
        case "x-terminal-emulator":
            // Debian Policy §11.8.3: every alternative takes -T and -e; only xterm's family takes the rest.
            return Self.xtermFamily.contains(actual) ? Self.xtermOptions(window) : ["-T", title]
        case "kitty":
            // The initial size counts only when kitty is not told to remember the last one.
            return ["--title", title, "-o", "remember_window_size=no",
                    "-o", "initial_window_width=\(columns)c", "-o", "initial_window_height=\(rows)c"]
        case "alacritty":
            return ["--title", title, "-o", "window.dimensions.columns=\(columns)", "-o", "window.dimensions.lines=\(rows)"]
        case "foot":
            return ["--title", title, "--window-size-chars", size]
        case "wezterm":
            // No option for the title; configuration overrides come before `start`.
            return ["--config", "initial_cols=\(columns)", "--config", "initial_rows=\(rows)"]
        case "ghostty":
            return ["--title=\(title)", "--window-width=\(columns)", "--window-height=\(rows)"]
        case "konsole":
            // Profile properties, `name=value;…`: a title format where `%` starts a placeholder.
            let plain = title.filter { $0 != ";" && $0 != "%" }
            return ["-p", "tabtitle=\(plain)", "-p", "TerminalColumns=\(columns)", "-p", "TerminalRows=\(rows)"]
        case "gnome-terminal", "mate-terminal", "tilix":
            return ["--title", title, "--geometry", size]
        case "xfce4-terminal":
            return ["--title=\(title)", "--geometry=\(size)"]
        case "ptyxis", "kgx", "terminator":
            return ["--title", title]
        default:
            // xdg-terminal-exec opens the person's own choice, which takes options of its own.
            return []
        }
    }

    /// xterm at the pause's size, in a scalable font that has the ring's
    /// Braille dots: its default bitmap font has none.
    /// The title goes as UTF-8: xterm in its UTF-8 mode (uxterm, Debian's
    /// default alternative) names a window with a title beyond Latin-1 in
    /// COMPOUND_TEXT, which Xwayland's window manager in wlroots (sway)
    /// does not read, and the window would have no title at all.
    static func xtermOptions(_ window: PauseWindow) -> [String] {
        ["-xrm", "*titleEncoding: UTF8_STRING", "-T", window.title, "-geometry", "\(PauseWindow.columns)x\(PauseWindow.rows)",
         "-fa", PauseWindow.fontFamily, "-fs", String(PauseWindow.fontSize)]
    }

    /// Whether the ring's Braille dots can be counted on in its window: xterm
    /// is given a font that has them, and the other known emulators fall back
    /// to any installed font that has a glyph (fontconfig), as does whatever
    /// the desktop's launcher opens. An `x-terminal-emulator` that leads
    /// elsewhere (rxvt, with bitmap fonts) may show blanks instead.
    public var showsBraille: Bool {
        name != "x-terminal-emulator" || Self.xtermFamily.contains(actual) || Self.known.contains { $0.name == actual }
    }

    /// The display servers its window can open on: foot only on Wayland;
    /// xterm, its kin and an alternative MIGA does not know (rxvt and the
    /// like) only on X11, so through Xwayland on a Wayland desktop; the
    /// others (GTK, Qt, kitty, alacritty, wezterm, ghostty) on either, as
    /// does whatever the desktop's launcher opens.
    public var reaches: Set<DisplayServer> {
        let program = name == "x-terminal-emulator" ? actual : name
        if program == "foot" { return [.wayland] }
        if Self.xtermFamily.contains(program) { return [.x11] }
        return Self.known.contains { $0.name == program && $0.name != "x-terminal-emulator" } ? [.wayland, .x11] : [.x11]
    }

    /// How it is named to a person: Debian's alternative with where it leads.
    public var described: String {
        name == actual ? name : "\(name) (\(actual))"
    }

    /// What Debian's alternative at `path` leads to, through its chain of
    /// links (/etc/alternatives): `uxterm`, `konsole`; a wrapper
    /// (`gnome-terminal.wrapper`) by the emulator it wraps.
    static func alternative(at path: String) -> String {
        guard let resolved = realpath(path, nil) else { return "x-terminal-emulator" }
        defer { free(resolved) }
        let name = baseName(of: String(cString: resolved))
        return name.hasSuffix(".wrapper") ? String(name.dropLast(".wrapper".count)) : name
    }
}

/// How MIGA's own window for the pause looks: titled for the program, with
/// room for the pause (the ring at its usual size, the quote unhurried).
public struct PauseWindow: Equatable, Sendable {
    public static let columns = 90
    public static let rows = 28
    /// A font with the ring's Braille dots, in Debian's fonts-dejavu-core.
    static let fontFamily = "DejaVu Sans Mono"
    static let fontSize = 13
    /// Enough for any window's title bar.
    static let longestName = 60

    public let title: String

    /// The program's name as the person knows it; it comes from a config
    /// file, so no control character reaches the emulator's options.
    public init(programName: String) {
        var name = String(String.UnicodeScalarView(programName.unicodeScalars.filter { scalar in
            // Control characters, and the marks that turn text around to hide what it says.
            scalar.properties.generalCategory != .control && !isBidiControl(scalar)
        })).trimmingWhitespace()
        if name.count > Self.longestName { name = String(name.prefix(Self.longestName - 1)) + "…" }
        title = "MIGA — a pause before " + (name.isEmpty ? "a program" : name)
    }
}
