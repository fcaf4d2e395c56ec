/// Counts over a set of rows, by the definitions of the design.
public struct Totals: Equatable, Sendable {
    /// Gateway runs that showed the pause: exit, proceed or abandoned.
    public var sessions = 0
    /// Conscious exits: Exit to Focus.
    public var exits = 0
    public var proceeds = 0
    public var abandoned = 0
    /// Launches without a pause; never counted as sessions.
    public var passThroughs = 0
    public var pausedSeconds = 0.0

    public init(sessions: Int = 0, exits: Int = 0, proceeds: Int = 0, abandoned: Int = 0, passThroughs: Int = 0,
                pausedSeconds: Double = 0) {
        self.sessions = sessions
        self.exits = exits
        self.proceeds = proceeds
        self.abandoned = abandoned
        self.passThroughs = passThroughs
        self.pausedSeconds = pausedSeconds
    }

    /// Conscious exits ÷ sessions × 100, rounded to a whole percent; none without sessions.
    public var intentionalityScore: Int? {
        sessions == 0 ? nil : wholeNumber(Double(exits) / Double(sessions) * 100)
    }

    /// Total seconds spent in pauses ÷ 3600.
    public var hoursReclaimed: Double { pausedSeconds / 3600 }

    package mutating func add(_ other: Totals) {
        sessions += other.sessions
        exits += other.exits
        proceeds += other.proceeds
        abandoned += other.abandoned
        passThroughs += other.passThroughs
        pausedSeconds += other.pausedSeconds
    }
}

extension Effect.Counts {
    /// The counts of the effect, from the totals of the report.
    package init(_ totals: Totals) {
        self.init(attempts: totals.sessions + totals.passThroughs, pauses: totals.sessions, exits: totals.exits,
                  openings: totals.proceeds + totals.passThroughs)
    }
}
