import MIGACore

/// An emulator installed here that the pause's window may open in, and why
/// it comes where it does in MIGA's order.
///
/// The order: the emulator `$TERMINAL` names (the person's own choice),
/// then the known ones in `TerminalEmulator.known`'s order, those that
/// speak the session's own display first: on a Wayland desktop a Wayland
/// terminal goes before an X11-only one (Debian's `x-terminal-emulator` is
/// often uxterm, which cannot open a window there without Xwayland), and
/// one that can reach no display of the session goes last. Each program is
/// tried once, whatever names lead to it.
public struct TerminalChoice: Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        /// `$TERMINAL` names it.
        case named
        /// The first known emulator installed, in MIGA's order.
        case first
        /// It speaks the session's display, and `over` (first in MIGA's
        /// order) speaks only another.
        case speaksTheDisplay(DisplayServer, over: TerminalEmulator)
        /// A later one, tried when those before it opened no window.
        case next
    }

    public let path: String
    public let emulator: TerminalEmulator
    public let reason: Reason

    /// Every known emulator installed on `searchPath`, in the order a
    /// window is tried in, for `session`.
    public static func installed(searchPath: String?, preferred: String? = nil,
                                 session: DisplaySession) -> [TerminalChoice] {
        let resolver = ProgramResolver(searchPath: searchPath)
        let found: [(path: String, emulator: TerminalEmulator)] = TerminalEmulator.known.compactMap { known in
            guard let path = resolver.resolve(known.name) else { return nil }
            var emulator = known
            if emulator.name == "x-terminal-emulator" { emulator.actual = TerminalEmulator.alternative(at: path) }
            return (path, emulator)
        }
        let named = preferred.map(baseName(of:)).flatMap { name in found.first { $0.emulator.name == name } }
        // A stable sort: within a rank, MIGA's own order.
        let ranked = found.enumerated()
            .sorted { (rank($0.element.emulator, in: session), $0.offset) < (rank($1.element.emulator, in: session), $1.offset) }
            .map(\.element)
        var choices: [TerminalChoice] = []
        var programs: Set<String> = []
        for (path, emulator) in (named.map { [$0] } ?? []) + ranked {
            // uxterm and xterm are one program: a second try would fail as the first did.
            let program = TerminalEmulator.xtermFamily.contains(emulator.actual) ? "xterm" : emulator.actual
            guard programs.insert(program).inserted else { continue }
            let reason: Reason
            if choices.isEmpty, named != nil {
                reason = .named
            } else if choices.isEmpty {
                let passed = found.first.map(\.emulator)
                if let passed, passed != emulator, let server = session.preferred,
                   emulator.reaches.contains(server), !passed.reaches.contains(server) {
                    reason = .speaksTheDisplay(server, over: passed)
                } else {
                    reason = .first
                }
            } else {
                reason = .next
            }
            choices.append(TerminalChoice(path: path, emulator: emulator, reason: reason))
        }
        return choices
    }

    /// 0 for one that speaks the session's own display, 1 for one that
    /// reaches it another way (X11 through Xwayland), 2 for one that can
    /// open no window in this session (tried last: it fails at once).
    static func rank(_ emulator: TerminalEmulator, in session: DisplaySession) -> Int {
        guard let preferred = session.preferred else { return 0 }
        if emulator.reaches.contains(preferred) { return 0 }
        return emulator.reaches.isDisjoint(with: session.servers) ? 2 : 1
    }

    /// Whether its window can open on a display of `session`.
    public func canOpen(in session: DisplaySession) -> Bool {
        !emulator.reaches.isDisjoint(with: session.servers)
    }

    /// Why it comes first, in a few words after its name (for `miga doctor`).
    public var why: String {
        switch reason {
        case .named:
            "named by $TERMINAL"
        case .first where emulator.name == "xdg-terminal-exec":
            "the desktop's launcher of the terminal you chose"
        case .first where emulator.name == "x-terminal-emulator":
            "Debian's default terminal"
        case .first, .next:
            "the first terminal MIGA knows that is installed"
        case .speaksTheDisplay(let server, let over):
            "the first installed terminal that speaks \(server.rawValue), before \(over.described), "
                + "which speaks only \(over.reaches.map(\.rawValue).sorted().joined(separator: " and "))"
        }
    }
}
