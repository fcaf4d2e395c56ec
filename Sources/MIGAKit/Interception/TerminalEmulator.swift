#if canImport(Glibc)
import Glibc
#endif

/// A terminal emulator that can open a window running a command, and how to
/// hand it that command as separate arguments (never one shell string).
///
/// They differ: gnome-terminal wants `--` before the command, xfce4-terminal
/// `-x`, xterm, konsole, alacritty, ghostty, kgx and tilix `-e` followed by
/// the command and its arguments, wezterm `start --`, kitty and foot the
/// command alone.
public struct TerminalEmulator: Equatable, Sendable {
    public let name: String
    /// The words that come before the command.
    public let prefix: [String]

    public init(name: String, prefix: [String]) {
        self.name = name
        self.prefix = prefix
    }

    /// Known emulators, in the order they are tried: the desktop's own
    /// launcher first, then Debian's alternative, then the emulators people
    /// install, with xterm (often there only as a fallback) last.
    public static let known: [TerminalEmulator] = [
        TerminalEmulator(name: "xdg-terminal-exec", prefix: []),
        TerminalEmulator(name: "x-terminal-emulator", prefix: ["-e"]),
        TerminalEmulator(name: "kitty", prefix: []),
        TerminalEmulator(name: "alacritty", prefix: ["-e"]),
        TerminalEmulator(name: "foot", prefix: []),
        TerminalEmulator(name: "wezterm", prefix: ["start", "--"]),
        TerminalEmulator(name: "ghostty", prefix: ["-e"]),
        TerminalEmulator(name: "konsole", prefix: ["-e"]),
        TerminalEmulator(name: "gnome-terminal", prefix: ["--"]),
        TerminalEmulator(name: "kgx", prefix: ["-e"]),
        TerminalEmulator(name: "xfce4-terminal", prefix: ["-x"]),
        TerminalEmulator(name: "mate-terminal", prefix: ["-x"]),
        TerminalEmulator(name: "tilix", prefix: ["-e"]),
        TerminalEmulator(name: "terminator", prefix: ["-x"]),
        TerminalEmulator(name: "xterm", prefix: ["-e"]),
    ]

    /// The argument vector (without the emulator itself) that runs `command`.
    public func arguments(running command: [String]) -> [String] {
        prefix + command
    }

    /// The first known emulator installed on `searchPath`; `$TERMINAL` goes
    /// first when it names a known one.
    public static func find(searchPath: String?, preferred: String? = nil) -> (path: String, emulator: TerminalEmulator)? {
        let resolver = ProgramResolver(searchPath: searchPath)
        var candidates = known
        if let preferred = preferred.map(baseName(of:)),
           let index = candidates.firstIndex(where: { $0.name == preferred }) {
            candidates.insert(candidates.remove(at: index), at: 0)
        }
        for emulator in candidates {
            if let path = resolver.resolve(emulator.name) { return (path, emulator) }
        }
        return nil
    }
}
