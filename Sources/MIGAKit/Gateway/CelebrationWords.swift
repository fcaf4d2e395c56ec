import MIGACore

/// The words of the celebration, on screen and in the notification.
public struct CelebrationWords: Equatable, Sendable {
    public let program: String
    public let streak: Int
    /// A streak length reached for the first time ever (see `Milestones`).
    public let milestone: Int?
    /// The alternative chosen instead of the program, if one was.
    public let alternative: String?
    /// Conscious exits today, this one included: a streak is new only at the first.
    public let exitsToday: Int

    public init(program: String, streak: Int, milestone: Int? = nil, alternative: String? = nil, exitsToday: Int = 1) {
        self.program = program
        self.streak = streak
        self.exitsToday = exitsToday
        self.milestone = milestone
        self.alternative = alternative.map(printable)
    }

    var streakText: String {
        if streak > 1 { return "\(streak)-day streak" }
        return exitsToday > 1 ? "\(ImpulseWords.ordinal(exitsToday)) conscious exit today" : "day 1 of a new streak"
    }

    public var headline: String { "You chose yourself." }
    public var detail: String {
        (alternative.map { "Now: \($0)" } ?? "\(program) can wait") + " · \(streakText)"
    }
    public var summary: String {
        switch milestone {
        case 1: "Your first conscious exit — the start of a streak"
        case 7: "7 days in a row — a week of choosing yourself"
        case 21: "21 days in a row — a habit taking root"
        case 30: "30 days in a row — a month of choosing yourself"
        case .some(let days): "\(days) days in a row — remarkable"
        case nil: "You chose yourself — \(streakText)"
        }
    }
    public var body: String {
        alternative.map { "You chose \"\($0)\" over \(program). This moment is yours." }
            ?? "You stepped away from \(program). This moment is yours."
    }
    /// The line left in the terminal once the pause is gone.
    public var farewell: String { "✓ \(headline) \(detail)." }
}
