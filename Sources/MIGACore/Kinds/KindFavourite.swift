/// A pause as the favourite counts it: its kind, and whether it was a
/// success (a conscious exit that held, as the learner counts it).
public struct LearnedPause: Equatable, Sendable {
    public let kind: PauseKind
    public let succeeded: Bool

    public init(kind: PauseKind, succeeded: Bool) {
        self.kind = kind
        self.succeeded = succeeded
    }
}

/// The kind `miga stats` says MIGA favours for a program: named only once the
/// program's pauses show beyond reasonable doubt that it ends in an exit that
/// held more often than each other kind, by a margin that matters, and
/// dropped again only when that has clearly stopped being so.
///
/// It counts every pause since MIGA began learning there alike, where the
/// learner weighs recent ones most (`KindEvidence.discounted`): the learner
/// soon shows a worse kind on few pauses, and two weeks of those are too few
/// ever to tell that it is worse. In the simulations this rule was chosen by
/// (docs/STATS.md), rules on the learner's weighing that told a third of
/// people of the better of two kinds 20 points apart within six weeks also
/// named a favourite to about one in ten whose kinds were equal.
///
/// What it says after a pause depends on what it said before (the two
/// certainties below), so it is counted pause by pause, in the order they
/// ended. `miga stats`, which writes nothing, counts the program's pauses
/// again each time (`named(after:among:)`), and so does the gateway before
/// each choice, to know whether the learner should still seek a favourite
/// (`isSought`): the pause and the stats never disagree about it.
public struct KindFavourite: Equatable, Sendable {
    /// How much more often, as a share of pauses, the favourite must end in
    /// an exit that held than each other kind: a difference that matters.
    public static let margin = 0.05
    /// How sure MIGA must be of that margin before it names a favourite.
    /// Checked after every pause for months, a lower bar is met by chance
    /// alone: at 98.5 %, 5.6 % of the simulated people whose kinds are equal
    /// (at 50 %) were told of one (docs/STATS.md).
    public static let namingCertainty = 0.99
    /// How sure it must stay for the favourite to keep its name, so that a
    /// pause or two that go the other way do not unsay it.
    public static let keepingCertainty = 0.8
    /// How many pauses each kind in use must have had before any is named:
    /// a kind that could be shown but has had fewer is not yet known, which
    /// does not make it worse. Thirty, so that a lead of a few lucky pauses
    /// at the start is not taken for a real one.
    public static let knownAfter = 30

    /// For how many pauses per kind in use, at most, the learner seeks a
    /// favourite that has not been named (`isSought`): with two kinds, the
    /// first 200 pauses since it began learning there, seven weeks of four a day.
    public static let soughtFor = 100

    /// The kinds compared: the program's kinds in use, in the person's order.
    public let kinds: [PauseKind]
    /// Each kind's pauses and successes so far, every pause weighing one.
    public private(set) var evidence: [PauseKind: KindEvidence] = [:]
    /// The kind named after the latest pause, if any.
    public private(set) var named: PauseKind?

    public init(among kinds: [PauseKind]) {
        self.kinds = kinds.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// The favourite after `pauses`, oldest first.
    public static func named(after pauses: some Sequence<LearnedPause>, among kinds: [PauseKind]) -> PauseKind? {
        counted(pauses, among: kinds).named
    }

    /// The favourite with `pauses` counted, oldest first.
    public static func counted(_ pauses: some Sequence<LearnedPause>, among kinds: [PauseKind]) -> KindFavourite {
        var favourite = KindFavourite(among: kinds)
        for pause in pauses { favourite.count(pause) }
        return favourite
    }

    /// Whether the learner should still seek a favourite (`KindChooser`):
    /// none is named, and the kinds in use have had fewer than `soughtFor`
    /// pauses each, in all. The learner alone soon shows a worse kind on few
    /// pauses, too few ever to tell that it is worse; seeking gives every
    /// kind its share until the answer is known, which costs nothing where
    /// the kinds work alike. It ends after a number of pauses, not when every
    /// kind has had a number, so that an old favourite dropped after a change
    /// in what works does not send the learner back to even shares for weeks.
    public var isSought: Bool {
        named == nil && kinds.count > 1 && kinds.reduce(0) { $0 + (evidence[$1]?.pauses ?? 0) } < Self.soughtFor * kinds.count
    }

    /// `isSought` after `pauses`, oldest first, for the gateway before each
    /// choice: past `soughtFor` pauses per kind in use nothing is sought
    /// whatever is named, so a long history is not counted pause by pause.
    public static func isSought(after pauses: [LearnedPause], among kinds: [PauseKind]) -> Bool {
        let inUse = Set(kinds)
        guard pauses.lazy.filter({ inUse.contains($0.kind) }).count < soughtFor * inUse.count else { return false }
        return counted(pauses, among: kinds).isSought
    }

    /// Counts one more pause and says again which kind is the favourite. A
    /// pause of a kind no longer in use changes nothing.
    public mutating func count(_ pause: LearnedPause) {
        guard kinds.contains(pause.kind) else { return }
        evidence[pause.kind, default: KindEvidence()].shown += 1
        evidence[pause.kind, default: KindEvidence()].successes += pause.succeeded ? 1 : 0
        evidence[pause.kind, default: KindEvidence()].pauses += 1
        named = favourite()
    }

    private func favourite() -> PauseKind? {
        guard kinds.count > 1, kinds.allSatisfy({ (evidence[$0]?.pauses ?? 0) >= Self.knownAfter }) else { return nil }
        // Only the kind that does best so far can be ahead of every other by the margin.
        let posteriors = kinds.map { (evidence[$0] ?? KindEvidence()).posterior }
        let leader = posteriors.indices.max { posteriors[$0].mean < posteriors[$1].mean }!
        let certainty = kinds[leader] == named ? Self.keepingCertainty : Self.namingCertainty
        return Self.leads(posteriors, leader, by: Self.margin, certainty: certainty) ? kinds[leader] : nil
    }

    /// Whether the rate of `posteriors[leader]` is at least `margin` above
    /// each other's with at least `certainty`. Cantelli's inequality bounds
    /// the chance from the means and variances alone, which settles most
    /// questions; the rest are integrated (`chanceOfLeading`).
    static func leads(_ posteriors: [BetaDistribution], _ leader: Int, by margin: Double, certainty: Double) -> Bool {
        var behindBound = 0.0
        for other in posteriors.indices where other != leader {
            let gap = posteriors[leader].mean - posteriors[other].mean - margin
            let variance = posteriors[leader].variance + posteriors[other].variance
            // P(difference ≥ margin) ≤ v / (v + gap²) when the gap is short; P(difference < margin) the same when it is not.
            let bound = variance / (variance + gap * gap)
            if gap <= 0 && bound < certainty { return false }
            behindBound += gap > 0 ? bound : 1
        }
        if 1 - behindBound >= certainty { return true }
        return chanceOfLeading(posteriors, leader, by: margin) >= certainty
    }

    /// The chance that a draw from `posteriors[leader]` is at least `margin`
    /// above a draw from each other: ∫ f(x) · Π F_other(x − margin) dx, the
    /// beliefs being independent. Integrated over the leader's belief (8
    /// standard deviations either side of its mean: a belief of 15 pauses or
    /// more has less than 1e-5 beyond) by four-point Gauss–Legendre rules on
    /// panels three times as wide as the narrowest belief's standard
    /// deviation: within about 1e-4 of the chance, and the nodes are inside
    /// each panel, so a density that does not vanish at 0 or 1 is never read there.
    static func chanceOfLeading(_ posteriors: [BetaDistribution], _ leader: Int, by margin: Double) -> Double {
        let belief = posteriors[leader]
        let deviation = belief.variance.squareRoot()
        let narrowest = posteriors.map { $0.variance.squareRoot() }.min() ?? deviation
        let low = max(margin, belief.mean - 8 * deviation, 0), high = min(1, belief.mean + 8 * deviation)
        guard high > low, narrowest > 0 else { return 0 }
        let panels = min(512, max(8, Int(((high - low) / (3 * narrowest)).rounded(.up))))
        let width = (high - low) / Double(panels)
        var sum = 0.0
        for panel in 0..<panels {
            let middle = low + (Double(panel) + 0.5) * width
            for (node, weight) in gaussLegendre {
                let x = middle + node * width / 2
                var value = belief.density(x)
                for other in posteriors.indices where other != leader && value > 0 { value *= posteriors[other].cumulative(x - margin) }
                sum += weight * value
            }
        }
        return min(1, max(0, sum * width / 2))
    }

    /// The four-point Gauss–Legendre rule on −1…1: nodes and weights.
    private static let gaussLegendre: [(Double, Double)] = [(-0.861_136_311_594_052_6, 0.347_854_845_137_453_9),
                                                            (-0.339_981_043_584_856_3, 0.652_145_154_862_546_1),
                                                            (0.339_981_043_584_856_3, 0.652_145_154_862_546_1),
                                                            (0.861_136_311_594_052_6, 0.347_854_845_137_453_9)]
}
