import MIGACore
import MIGAConfig

/// What a launch calls for, decided from what is known of it alone: no
/// file, terminal or store is read here, so every rule of the choice is
/// tested with plain values. `Gateway` gathers the facts and carries it out.
enum GateVerdict: Equatable {
    /// A later gateway of a launch that had its pause (or its pass-through): start the program.
    case launch
    /// Start the program without a pause, recorded with why (nil: there was no terminal).
    case passThrough(PassReason?)
    /// No terminal, inside an allowance: start it, as a terminal would have.
    case allowed
    /// No terminal, and the program wants its pause anyway: open it in a terminal window.
    case pauseInWindow
    /// No terminal, and the program is not to start without its pause.
    case deny
    /// A start at login of a program set to skip such starts: not started.
    case skipAtLogin
    /// Show the pause.
    case pause

    /// - Parameters:
    ///   - hops: gateways this launch has passed through before this one.
    ///   - insideFocusHours: the program is protected now (always, without focus hours).
    ///   - insideAllowance: asked only when it matters (no terminal, a policy
    ///     other than pass, an allowance set), since it reads the store.
    ///   - wantsWindow: `--window`: the person is there (the menu, a login);
    ///     without a terminal the pause opens in a window whatever the policy.
    ///   - loginStart: a start at login, which the program's setting for such starts decides.
    static func decide(hops: Int, settings: ProgramSettings, insideFocusHours: Bool, hasTerminal: Bool,
                       wantsWindow: Bool = false, loginStart: Bool = false, insideAllowance: () -> Bool) -> GateVerdict {
        // This launch has had its pause (or its pass-through) already: no second one.
        if hops > 0 { return .launch }
        if !insideFocusHours { return .passThrough(.outsideHours) }
        if loginStart {
            switch settings.atLogin {
            case .skip: return .skipAtLogin
            case .pass: return .passThrough(.autostart)
            case .pause: break
            }
        }
        if hasTerminal { return .pause }
        let policy = wantsWindow || loginStart ? NonInteractivePolicy.terminal : settings.nonInteractive
        // Inside an allowance the program opens as it would from a terminal:
        // no window for a pause, no refusal.
        if policy != .pass, settings.allowance != nil, insideAllowance() { return .allowed }
        switch policy {
        case .pass: return .passThrough(nil)
        case .terminal: return .pauseInWindow
        case .deny: return .deny
        }
    }

    /// A pause was due in a window, and no window can be opened: a start the
    /// person is there for (the menu, a login) refuses when the program's
    /// policy is deny; anything else starts the program directly.
    static func withoutWindow(_ settings: ProgramSettings, wantsWindow: Bool, loginStart: Bool) -> GateVerdict {
        (wantsWindow || loginStart) && settings.nonInteractive == .deny ? .deny : .passThrough(nil)
    }
}
