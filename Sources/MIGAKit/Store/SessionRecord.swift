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

    public init(id: String, program: String, startedAt: Date, endedAt: Date? = nil,
                outcome: SessionOutcome, pausedSeconds: Double = 0, deepenCount: Int = 0,
                quotes: [String] = [], device: String = "") {
        self.id = id
        self.program = program
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.outcome = outcome
        self.pausedSeconds = pausedSeconds
        self.deepenCount = deepenCount
        self.quotes = quotes
        self.device = device
    }
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
