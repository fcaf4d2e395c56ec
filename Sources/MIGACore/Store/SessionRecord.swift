import FoundationEssentials

/// How a gateway run ended (or that it has not yet).
public enum SessionOutcome: String, Codable, Sendable, CaseIterable {
    /// The pause is on screen right now, or its gateway was killed before settling.
    case open
    /// Exit to Focus: the person chose not to open the program.
    case exit
    /// The countdown ran out and the person opened the program.
    case proceed
    /// The pause ended without a choice: a signal, a closed window, a killed gateway.
    case abandoned
    /// No pause was shown (no terminal): the program ran at once. Not a session.
    case passthrough
}

/// One row of the event store: a gateway run.
public struct SessionRecord: Equatable, Sendable {
    public var id: String
    public var program: String
    public var startedAt: Date
    public var endedAt: Date?
    public var outcome: SessionOutcome
    public var pausedSeconds: Double
    public var deepenCount: Int
    /// Ids of the quotes shown, in order.
    public var quotes: [String]
    /// Whose to publish: empty for this machine (it goes into this machine's
    /// sync file), else the id of the device whose sync file it came from.
    public var device: String
    /// Where it happened, when that is another machine than `device` says:
    /// the device of an imported export. Empty otherwise.
    public var origin: String
    /// The longest a pause can be taken to have lasted when an end is
    /// derived from it (366 days): a figure beyond is no pause, and adding it
    /// to an instant must not overflow.
    public static let longestPause: Double = 31_622_400

    /// The machine it happened on: empty for this one, else a device id.
    public var happenedOn: String { origin.isEmpty ? device : origin }
    /// Why a pass-through had no pause: nil (no terminal), or a `PassReason`.
    public var reason: PassReason?
    /// What the person said they opened the program for (an intention pause, or the program's setting).
    public var intention: String?
    /// The kind of pause shown; nil for a pass-through, and for pauses from
    /// before there were kinds (they were all breathing pauses).
    public var kind: PauseKind?
    /// In a typed pause: whether the line was typed back in full.
    public var typed: Bool?
    /// The alternative chosen instead of the program (`instead`): an Exit to Focus.
    public var alternative: String?
    /// After a Proceed: the program stopped at once, and this is what it
    /// said as it stopped (or how it ended). See `EarlyStop`.
    public var stoppedAtOnce: String?

    public init(id: String, program: String, startedAt: Date, endedAt: Date? = nil,
                outcome: SessionOutcome, pausedSeconds: Double = 0, deepenCount: Int = 0,
                quotes: [String] = [], device: String = "", origin: String = "", reason: PassReason? = nil,
                intention: String? = nil, kind: PauseKind? = nil, typed: Bool? = nil, alternative: String? = nil,
                stoppedAtOnce: String? = nil) {
        self.id = id
        self.program = program
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.outcome = outcome
        self.pausedSeconds = pausedSeconds
        self.deepenCount = deepenCount
        self.quotes = quotes
        self.device = device
        self.origin = origin
        self.reason = reason
        self.intention = intention
        self.kind = kind
        self.typed = typed
        self.alternative = alternative
        self.stoppedAtOnce = stoppedAtOnce
    }

    /// What a pause gathered, as its row keeps it.
    public var progress: PauseProgress {
        PauseProgress(pausedSeconds: pausedSeconds, deepenCount: deepenCount, quotes: quotes, kind: kind, typed: typed,
                      alternative: alternative)
    }
}

/// Why a launch went straight through although a terminal was there.
public enum PassReason: String, Codable, Sendable, CaseIterable {
    /// Inside an allowance after a Proceed.
    case allowed
    /// Outside the program's focus hours (`hours`).
    case outsideHours = "outside-hours"
    /// A start at login of a program set to let such starts pass.
    case autostart
    /// The window for the pause never opened (its gateway did not check in
    /// in time), and the program's policy without a terminal let it start.
    case noWindow = "no-window"
}

/// What a pause has gathered so far, written when it deepens and when it ends.
public struct PauseProgress: Equatable, Sendable {
    public var pausedSeconds: Double
    public var deepenCount: Int
    public var quotes: [String]
    public var kind: PauseKind?
    public var typed: Bool?
    public var alternative: String?

    public init(pausedSeconds: Double, deepenCount: Int, quotes: [String], kind: PauseKind? = nil, typed: Bool? = nil,
                alternative: String? = nil) {
        self.pausedSeconds = pausedSeconds
        self.deepenCount = deepenCount
        self.quotes = quotes
        self.kind = kind
        self.typed = typed
        self.alternative = alternative
    }
}
