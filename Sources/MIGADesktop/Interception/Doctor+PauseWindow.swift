extension Doctor {
    /// The terminal the pause's window opens in for a launch without one
    /// (from the menu, at login), and why that one, in one line.
    func pauseWindow() -> Finding {
        let session = DisplaySession(environment: environment)
        let choices = TerminalChoice.installed(searchPath: environment["PATH"], preferred: environment["TERMINAL"], session: session)
        let noDisplay = " (no display in this shell to try it on: DISPLAY and WAYLAND_DISPLAY are unset)"
        guard let first = choices.first else {
            let text = "pause window: no terminal emulator is installed, so a launch from the menu cannot pause"
            // Without a display (a server, an SSH login) there may be no desktop to launch from.
            guard !session.isEmpty else { return Finding(info: text + noDisplay) }
            return Finding(ok: false, text: text, fix: "install one: foot or kitty on Wayland, xterm on X11")
        }
        let line = "pause window: \(first.emulator.described), \(first.why)"
        guard !session.isEmpty else { return Finding(info: line + noDisplay) }
        guard !first.canOpen(in: session) else { return Finding(ok: true, text: line) }
        let lacking = "\(first.emulator.described), \(first.why), speaks only "
            + first.emulator.reaches.map(\.rawValue).sorted().joined(separator: " and ") + ", which this session lacks"
        if let next = choices.first(where: { $0.canOpen(in: session) }) {
            return Finding(ok: true, text: "pause window: \(next.emulator.described), since \(lacking)")
        }
        let wanted = session.servers.map(\.rawValue).sorted().joined(separator: " or ")
        return Finding(ok: false, text: "pause window: none can open: \(lacking)",
                       fix: "install a terminal that speaks \(wanted) (foot or kitty on Wayland, xterm on X11)")
    }
}
