import FoundationEssentials

/// What a launch or a visit calls for: every rule of the choice, for the
/// shim with a terminal, a start without one (a window, a refusal, a
/// pass-through) and the browser's tab alike, as a function of `GateFacts`
/// alone. No file, terminal, clock or store is read here; the gateway, the
/// browser's host and the store gather the facts and carry the verdict out.
public enum GateVerdict: Equatable, Sendable {
    /// A later gateway of a launch that had its pause (or its pass-through): start the program.
    case launch
    /// Start the program without a pause, recorded with why (nil: there was no terminal).
    case passThrough(PassReason?)
    /// Inside the allowance a Proceed began: open at once, as after a pause,
    /// recorded as an `allowed` pass-through. The allowance ends at `until`.
    case allowed(until: Date)
    /// No terminal, and the program wants its pause anyway: open it in a terminal window.
    case pauseInWindow
    /// No terminal, and the program is not to start without its pause.
    case deny
    /// A start at login of a program set to skip such starts: not started.
    case skipAtLogin
    /// Show the pause.
    case pause
    /// An allowance decides, and the store has not answered: ask it, in the
    /// transaction that carries the verdict out, and decide again.
    case askStore

    public init(_ facts: GateFacts) {
        self = Self.decide(facts)
    }

    private static func decide(_ facts: GateFacts) -> GateVerdict {
        // This launch has had its pause (or its pass-through) already: no second one.
        if facts.hops > 0 { return .launch }
        if let hours = facts.focusHours, !hours.contains(facts.now, in: facts.zone) { return .passThrough(.outsideHours) }
        if facts.loginStart {
            switch facts.loginPolicy {
            case .skip: return .skipAtLogin
            case .pass: return .passThrough(.autostart)
            case .pause: break
            }
        }
        guard case .elsewhere(let window) = facts.front else { return allowance(facts) ?? .pause }
        let present = facts.wantsWindow || facts.loginStart
        let policy = present ? NonInteractivePolicy.terminal : facts.withoutTerminal
        // Inside an allowance the program opens as it would from a terminal:
        // no window for a pause, no refusal. A pass-through is one, allowance or not.
        if policy != .pass, let inside = allowance(facts) { return inside }
        switch policy {
        case .pass: return .passThrough(nil)
        case .deny: return .deny
        case .terminal:
            switch window {
            case .untried: return .pauseInWindow
            // No window for the pause: a start the person is there for (the
            // menu, a login) refuses when the program's policy is deny;
            // anything else starts the program directly.
            case .impossible, .neverOpened:
                if present && facts.withoutTerminal == .deny { return .deny }
                return .passThrough(window == .neverOpened ? .noWindow : nil)
            }
        }
    }

    /// `.allowed` while an allowance runs, `.askStore` when only the store
    /// can say, nil when none runs (or the program has none).
    private static func allowance(_ facts: GateFacts) -> GateVerdict? {
        guard let allowance = facts.allowance else { return nil }
        switch facts.store {
        case .unread: return .askStore
        case .lastProceed(let endedAt):
            guard let endedAt else { return nil }
            let end = allowanceEnd(afterProceedAt: endedAt, allowance: allowance)
            return facts.now <= end ? .allowed(until: end) : nil
        }
    }

    /// When the allowance a Proceed ending at `proceed` begins is over. The verdict, the browser's tab told at its
    /// Proceed and the reminder at the allowance's end all count it here.
    public static func allowanceEnd(afterProceedAt proceed: Date, allowance: TimeInterval) -> Date {
        proceed + allowance
    }
}
