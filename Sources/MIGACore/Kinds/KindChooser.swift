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

    /// The kind of the next pause among `kinds`, from the program's journal,
    /// which is read only when there is a choice to make.
    public static func choose(among kinds: [PauseKind], rotation: Rotation, journal: () throws -> KindJournal,
                              using generator: inout some RandomNumberGenerator) rethrows -> KindChoice {
        guard kinds.count > 1 else { return KindChoice(kind: kinds.first ?? .breathe, why: nil) }
        let read = try journal()
        return choose(among: kinds, rotation: rotation, evidence: read.evidence, last: read.last, using: &generator)
    }

    /// The same from plain records, every pause weighing one.
    public static func choose(among kinds: [PauseKind], rotation: Rotation, records: [PauseKind: KindRecord],
                              last: PauseKind?, using generator: inout some RandomNumberGenerator) -> KindChoice {
        choose(among: kinds, rotation: rotation, evidence: records.mapValues(KindEvidence.init), last: last, using: &generator)
    }

    public static func choose(among kinds: [PauseKind], rotation: Rotation, evidence records: [PauseKind: KindEvidence],
                              last: PauseKind?, using generator: inout some RandomNumberGenerator) -> KindChoice {
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
            let kind = adaptive(among: kinds, records: records, using: &generator)
            return KindChoice(kind: kind, why: kind == last ? nil : adaptiveReason(kind, records[kind]))
        }
    }

    /// Thompson sampling: one draw from each kind's posterior, the largest wins,
    /// except for the `explorationFloor` share of choices, which go to any kind.
    private static func adaptive(among kinds: [PauseKind], records: [PauseKind: KindEvidence],
                                 using generator: inout some RandomNumberGenerator) -> PauseKind {
        if BetaDistribution.uniform(using: &generator) < explorationFloor {
            let index = Int(BetaDistribution.uniform(using: &generator) * Double(kinds.count))
            return kinds[min(index, kinds.count - 1)]
        }
        var best = kinds[0]
        var bestDraw = -Double.infinity
        for kind in kinds {
            let draw = (records[kind] ?? KindEvidence()).posterior.sample(using: &generator)
            if draw > bestDraw { (best, bestDraw) = (kind, draw) }
        }
        return best
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
