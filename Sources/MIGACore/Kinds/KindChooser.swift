/// The kind of the next pause, and the line that says why it changed.
public struct KindChoice: Equatable, Sendable {
    public let kind: PauseKind
    /// One quiet line for the pause screen; nil when the kind is the same as last time.
    public let why: String?

    public init(kind: PauseKind, why: String?) {
        self.kind = kind
        self.why = why
    }
}

/// Picks the kind of each pause among those a person chose, by their `rotate`
/// setting.
public enum KindChooser {
    /// The chance that an adaptive choice ignores the records and picks any
    /// kind, so that a kind which started badly still gets the occasional
    /// chance to show it works now.
    public static let explorationFloor = 0.1
    /// How many pauses of a kind must have ended before its rate is quoted.
    public static let quotedAfter = 5
    /// While a favourite is sought, the share of choices that go to the kind
    /// drawn highest; the others go to the challenger (top-two Thompson
    /// sampling, which is built to tell which kind is best rather than to
    /// show it most). With two kinds, each then has half the pauses.
    public static let leaderShareWhileSeeking = 0.5
    /// How many times a challenger is drawn for before the runner-up of the
    /// last draw stands in, so that a kind far ahead cannot make the choice loop long.
    static let challengerDraws = 16

    /// The kind of the next pause among `kinds`, from the program's journal,
    /// which is read only when there is a choice to make.
    public static func choose(among kinds: [PauseKind], rotation: Rotation, journal: () throws -> KindJournal,
                              using generator: inout some RandomNumberGenerator) rethrows -> KindChoice {
        guard kinds.count > 1 else { return KindChoice(kind: kinds.first ?? .breathe, why: nil) }
        let read = try journal()
        let seeking = rotation == .adaptive && read.seekingFavourite
        return choose(among: kinds, rotation: rotation, evidence: read.evidence, last: read.last, seekingFavourite: seeking,
                      using: &generator)
    }

    /// The same from plain records, every pause weighing one.
    public static func choose(among kinds: [PauseKind], rotation: Rotation, records: [PauseKind: KindRecord],
                              last: PauseKind?, using generator: inout some RandomNumberGenerator) -> KindChoice {
        choose(among: kinds, rotation: rotation, evidence: records.mapValues(KindEvidence.init), last: last, using: &generator)
    }

    /// The same from weighed evidence. `seekingFavourite`: whether no
    /// favourite is named yet and the learner should still seek one
    /// (`KindFavourite.isSought`).
    public static func choose(among kinds: [PauseKind], rotation: Rotation, evidence records: [PauseKind: KindEvidence],
                              last: PauseKind?, seekingFavourite: Bool = false,
                              using generator: inout some RandomNumberGenerator) -> KindChoice {
        var seen = Set<PauseKind>()
        let kinds = kinds.filter { seen.insert($0).inserted }
        guard let first = kinds.first else { return KindChoice(kind: .breathe, why: nil) }
        guard kinds.count > 1 else { return KindChoice(kind: first, why: nil) }

        switch rotation {
        case .off:
            // The first kind is the natural default: a line only when it replaces another.
            guard let last, last != first else { return KindChoice(kind: first, why: nil) }
            return KindChoice(kind: first, why: "\(capitalized(first.described)): the first of the kinds you chose")
        case .cycle:
            let next = last.flatMap { kinds.firstIndex(of: $0) }.map { kinds[($0 + 1) % kinds.count] } ?? first
            return KindChoice(kind: next, why: next == last ? nil
                : "\(capitalized(next.described)) this time: MIGA takes the kinds you chose in turn")
        case .adaptive:
            let kind = adaptive(among: kinds, records: records, seekingFavourite: seekingFavourite, using: &generator)
            return KindChoice(kind: kind, why: kind == last ? nil : adaptiveReason(kind, records[kind]))
        }
    }

    /// Thompson sampling: one draw from each kind's posterior, the largest wins,
    /// except for the `explorationFloor` share of choices, which go to any kind.
    /// While a favourite is sought, top-two Thompson sampling: the winner
    /// only for `leaderShareWhileSeeking` of the choices, else the first
    /// other kind to win a fresh draw.
    private static func adaptive(among kinds: [PauseKind], records: [PauseKind: KindEvidence], seekingFavourite: Bool,
                                 using generator: inout some RandomNumberGenerator) -> PauseKind {
        if BetaDistribution.uniform(using: &generator) < explorationFloor {
            let index = Int(BetaDistribution.uniform(using: &generator) * Double(kinds.count))
            return kinds[min(index, kinds.count - 1)]
        }
        let beliefs = kinds.map { (records[$0] ?? KindEvidence()).posterior }
        let leader = drawnOrder(beliefs, using: &generator)[0]
        guard seekingFavourite, BetaDistribution.uniform(using: &generator) >= leaderShareWhileSeeking else { return kinds[leader] }
        var order: [Int] = []
        for _ in 0..<challengerDraws {
            order = drawnOrder(beliefs, using: &generator)
            if order[0] != leader { return kinds[order[0]] }
        }
        return kinds[order[1]]
    }

    /// The indices of `beliefs`, highest draw first, one draw from each.
    private static func drawnOrder(_ beliefs: [BetaDistribution], using generator: inout some RandomNumberGenerator) -> [Int] {
        let draws = beliefs.map { $0.sample(using: &generator) }
        return draws.indices.sorted { draws[$0] > draws[$1] }
    }

    private static func adaptiveReason(_ kind: PauseKind, _ record: KindEvidence?) -> String {
        let lead = "Trying \(kind.described): "
        guard let record, record.pauses >= quotedAfter, let rate = record.rate else {
            return lead + "MIGA is still learning how it suits you"
        }
        return lead + "\(wholeNumber(rate * 100)) % of yours end in a conscious exit"
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
