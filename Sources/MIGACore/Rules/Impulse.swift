import FoundationEssentials

/// What the store knows about a program at the moment it is reached for, so
/// the pause can make the impulse visible ("3rd time today").
public struct LaunchHistory: Equatable, Sendable {
    /// Launches of the program since local midnight before this one: pauses
    /// and openings inside an allowance.
    public var earlierToday: Int
    /// When the one before this was, if any.
    public var lastAttempt: Date?
    /// Pauses within the last hour and since the last Exit to Focus: the rungs
    /// of the escalation ladder.
    public var recentPauses: Int

    public init(earlierToday: Int = 0, lastAttempt: Date? = nil, recentPauses: Int = 0) {
        self.earlierToday = earlierToday
        self.lastAttempt = lastAttempt
        self.recentPauses = recentPauses
    }
}

/// The quiet lines under the pause's header: how often, how recently, and
/// why the pause is longer than usual. Facts, never reproach.
public enum ImpulseWords {
    /// "3rd time today · the last was 12 minutes ago". The second part only
    /// within the hour, where it says something about the impulse.
    public static func attempts(_ history: LaunchHistory, now: Date) -> String {
        let count = history.earlierToday + 1
        var text = count == 1 ? "first time today" : "\(ordinal(count)) time today"
        if let last = history.lastAttempt, now.timeIntervalSince(last) < Escalation.window {
            text += " · the last was \(timeAgo(now.timeIntervalSince(last)))"
        }
        return text
    }

    /// "A longer pause (+1:00): the 3rd try within the hour".
    public static func escalation(base: Int, length: Int, earlierAttempts: Int) -> String? {
        guard length > base else { return nil }
        return "A longer pause (+\(clock(length - base))): the \(ordinal(earlierAttempts + 1)) try within the hour"
    }

    /// 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st, 22nd.
    package static func ordinal(_ number: Int) -> String {
        let suffix = (11...13).contains(number % 100) ? "th"
            : number % 10 == 1 ? "st" : number % 10 == 2 ? "nd" : number % 10 == 3 ? "rd" : "th"
        return "\(number)\(suffix)"
    }
}
