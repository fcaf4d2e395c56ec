import FoundationEssentials
import Glibc

/// One UTC day's pauses of one kind for one program, as the learner counts
/// them: how many ended, and how many of those were successes (a conscious
/// exit that held: see the README's definitions).
public struct LearnedDay: Equatable, Sendable {
    public let kind: PauseKind
    /// Days since 1970-01-01 UTC.
    public let day: Int
    public let shown: Int
    public let successes: Int

    public init(kind: PauseKind, day: Int, shown: Int, successes: Int) {
        self.kind = kind
        self.day = day
        self.shown = shown
        self.successes = successes
    }
}

/// What the learner believes of a kind: its pauses and successes, each
/// weighted by its age, so that a change in how a person responds shows
/// within weeks instead of being outvoted by months of old habit.
public struct KindEvidence: Equatable, Sendable {
    /// The weighted number of pauses that ended.
    public var shown: Double
    /// The weighted number of them that were successes.
    public var successes: Double
    /// How many pauses there were, unweighted: a rate is quoted only after a few.
    public var pauses: Int

    public init(shown: Double = 0, successes: Double = 0, pauses: Int = 0) {
        self.shown = shown
        self.successes = successes
        self.pauses = pauses
    }

    /// A record taken at face value, every pause weighing one.
    public init(_ record: KindRecord) {
        let shown = max(0, record.shown)
        self.init(shown: Double(shown), successes: Double(min(max(0, record.exits), shown)), pauses: shown)
    }

    /// The weighted share of successes; nil before any pause.
    public var rate: Double? { shown > 0 ? successes / shown : nil }

    /// Beta(1 + successes, 1 + failures), from a uniform prior.
    public var posterior: BetaDistribution {
        BetaDistribution(alpha: 1 + successes, beta: 1 + max(0, shown - successes))
    }

    /// The default half-life of a pause's weight, in days (`learn_half_life_days`).
    /// Simulated (LearnerSimulationTests), two weeks finds a kind that has
    /// become the better one on most pauses within three weeks of the change,
    /// and knows the better one as well as a longer memory while nothing changes;
    /// with 30 days, one person in three would still be shown the old kind.
    public static let defaultHalfLifeDays = 14.0

    /// Each kind's evidence from `days` as of `now`: a pause's weight halves
    /// every `halfLifeDays` (counted from the middle of its day), so old
    /// evidence fades but never flips. An infinite half-life weighs all alike.
    public static func discounted(_ days: [LearnedDay], now: Date, halfLifeDays: Double) -> [PauseKind: KindEvidence] {
        let today = now.timeIntervalSince1970 / 86_400
        var evidence: [PauseKind: KindEvidence] = [:]
        for entry in days {
            let shown = max(0, entry.shown)
            let age = max(0, today - (Double(entry.day) + 0.5))
            let weight = halfLifeDays.isFinite && halfLifeDays > 0 ? pow(0.5, age / halfLifeDays) : 1
            evidence[entry.kind, default: KindEvidence()].shown += weight * Double(shown)
            evidence[entry.kind, default: KindEvidence()].successes += weight * Double(min(max(0, entry.successes), shown))
            evidence[entry.kind, default: KindEvidence()].pauses += shown
        }
        return evidence
    }
}
