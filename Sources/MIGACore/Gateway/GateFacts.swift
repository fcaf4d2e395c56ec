import FoundationEssentials

/// Everything a launch of a protected program, or a visit of a protected
/// site, is decided on, the store's answer included: `GateVerdict` is a
/// function of this value alone. Nothing here says which program or site it
/// is, so the same facts are decided the same way for either.
public struct GateFacts: Equatable, Sendable {
    /// Where the pause would be shown.
    public enum Front: Equatable, Sendable {
        /// Here: a terminal, or the browser's tab.
        case here
        /// Nowhere at hand (a script, the menu, a login start); `window` is
        /// what became of a window opened for the pause.
        case elsewhere(window: WindowTry)
    }

    /// What became of a terminal window opened for the pause.
    public enum WindowTry: Equatable, Sendable {
        /// None was tried yet.
        case untried
        /// None could be opened: no display, or no terminal emulator.
        case impossible
        /// One was started, and its gateway never checked in.
        case neverOpened
    }

    /// What the store answers: when the latest Proceed of this program (or
    /// site) on this machine ended, if one did. Read only when the verdict
    /// asks for it (`GateVerdict.askStore`), inside the transaction that acts
    /// on the verdict.
    public enum StoreAnswer: Equatable, Sendable {
        case unread
        case lastProceed(endedAt: Date?)
    }

    /// Gateways this launch has passed through before this one (none for a visit).
    public var hops: Int
    public var now: Date
    /// Protected only inside these hours, read on `zone`'s wall clock; nil: always.
    public var focusHours: FocusHours?
    public var zone: LocalZone
    public var front: Front
    /// `--window`: the person is there (the menu, a login); without a
    /// terminal the pause opens in a window whatever `withoutTerminal` says.
    public var wantsWindow: Bool
    /// A start at login, which `loginPolicy` decides.
    public var loginStart: Bool
    /// What a launch without a terminal does.
    public var withoutTerminal: NonInteractivePolicy
    /// What a start at login does.
    public var loginPolicy: LoginPolicy
    /// How long a Proceed opens the program again without a pause, in seconds; nil: never.
    public var allowance: TimeInterval?
    public var store: StoreAnswer

    public init(hops: Int = 0, now: Date, focusHours: FocusHours? = nil, zone: LocalZone = .utc, front: Front,
                wantsWindow: Bool = false, loginStart: Bool = false, withoutTerminal: NonInteractivePolicy = .pass,
                loginPolicy: LoginPolicy = .pause, allowance: TimeInterval? = nil, store: StoreAnswer = .unread) {
        self.hops = hops
        self.now = now
        self.focusHours = focusHours
        self.zone = zone
        self.front = front
        self.wantsWindow = wantsWindow
        self.loginStart = loginStart
        self.withoutTerminal = withoutTerminal
        self.loginPolicy = loginPolicy
        self.allowance = allowance
        self.store = store
    }

    /// These facts with the store's answer.
    public func answered(lastProceedEndedAt endedAt: Date?) -> GateFacts {
        var facts = self
        facts.store = .lastProceed(endedAt: endedAt)
        return facts
    }

    /// These facts once a window for the pause was tried and did not open.
    public func without(window: WindowTry) -> GateFacts {
        var facts = self
        facts.front = .elsewhere(window: window)
        return facts
    }
}
