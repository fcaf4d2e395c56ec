import Foundation

/// How a gateway run ended (or that it has not yet).
public enum SessionOutcome: String, Sendable, CaseIterable {
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
    /// The machine it happened on: empty for this one, else the id of the
    /// device whose synced file it came from.
    public var device: String
    /// Why a pass-through had no pause: nil (no terminal), or a `PassReason`.
    public var reason: PassReason?
    /// What the person said they opened the program for (`ask_intention`).
    public var intention: String?

    public init(id: String, program: String, startedAt: Date, endedAt: Date? = nil,
                outcome: SessionOutcome, pausedSeconds: Double = 0, deepenCount: Int = 0,
                quotes: [String] = [], device: String = "", reason: PassReason? = nil, intention: String? = nil) {
        self.id = id
        self.program = program
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.outcome = outcome
        self.pausedSeconds = pausedSeconds
        self.deepenCount = deepenCount
        self.quotes = quotes
        self.device = device
        self.reason = reason
        self.intention = intention
    }
}

/// Why a launch went straight through although a terminal was there.
public enum PassReason: String, Sendable, CaseIterable {
    /// Inside an allowance after a Proceed (`allow_minutes`).
    case allowed
    /// Outside the program's focus hours (`hours`).
    case outsideHours = "outside-hours"
}

/// What a pause has gathered so far, written when it deepens and when it ends.
public struct PauseProgress: Equatable, Sendable {
    public var pausedSeconds: Double
    public var deepenCount: Int
    public var quotes: [String]

    public init(pausedSeconds: Double, deepenCount: Int, quotes: [String]) {
        self.pausedSeconds = pausedSeconds
        self.deepenCount = deepenCount
        self.quotes = quotes
    }
}
