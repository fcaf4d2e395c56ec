/// A kind of pause's record for one program: how many pauses of that kind
/// ended (in a conscious exit, a proceed or abandoned) and how many of them
/// were conscious exits.
public struct KindRecord: Equatable, Sendable {
    public var shown: Int
    public var exits: Int

    public init(shown: Int = 0, exits: Int = 0) {
        self.shown = shown
        self.exits = exits
    }

    /// The share of pauses that ended in a conscious exit; nil before any.
    public var rate: Double? {
        guard shown > 0 else { return nil }
        return Double(countedExits) / Double(shown)
    }

    /// The belief about the rate: Beta(1 + exits, 1 + shown − exits), from a
    /// uniform prior, so an unseen kind is Beta(1, 1).
    public var posterior: BetaDistribution {
        // In Doubles: a damaged store may hold counts whose sum overflows an Int.
        BetaDistribution(alpha: 1 + Double(countedExits), beta: 1 + Double(max(0, shown)) - Double(countedExits))
    }

    /// Counts `other`'s pauses and exits in with these.
    public mutating func add(_ other: KindRecord) {
        shown += other.shown
        exits += other.exits
    }

    /// `exits`, within 0…shown whatever the store held.
    private var countedExits: Int { min(max(0, exits), max(0, shown)) }
}

extension KindRecord {
    /// Each kind's record summed over the programs of `byProgram`, or only
    /// `program`'s when it is given.
    public static func total(of byProgram: [String: [PauseKind: KindRecord]], program: String? = nil) -> [PauseKind: KindRecord] {
        var sum: [PauseKind: KindRecord] = [:]
        for (name, records) in byProgram where program == nil || name == program {
            for (kind, record) in records { sum[kind, default: KindRecord()].add(record) }
        }
        return sum
    }
}

extension KindRecord {
    /// How many joint draws `chancesOfBeingBest` makes: the chance it finds
    /// is within about a percentage point of the true one.
    static let draws = 2_000

    /// For each of `kinds`, the chance that its rate of conscious exits is the
    /// highest of them: the share of joint draws from their posteriors in
    /// which it came out on top. A kind never shown draws from its uniform
    /// prior, so it may well be best. The draws are seeded: the same records
    /// always give the same chances, and `miga stats` says the same twice.
    package static func chancesOfBeingBest(_ records: [PauseKind: KindRecord], among kinds: [PauseKind]) -> [PauseKind: Double] {
        chancesOfBeingBest(records.mapValues(KindEvidence.init), among: kinds)
    }

    /// The same from the learner's evidence, older pauses weighing less.
    package static func chancesOfBeingBest(_ evidence: [PauseKind: KindEvidence], among kinds: [PauseKind]) -> [PauseKind: Double] {
        let kinds = kinds.reduce(into: [PauseKind]()) { if !$0.contains($1) { $0.append($1) } }
        guard !kinds.isEmpty else { return [:] }
        let posteriors = kinds.map { (evidence[$0] ?? KindEvidence()).posterior }
        var generator = SeededGenerator(seed: 0x4D49_4741)
        var wins = [Int](repeating: 0, count: kinds.count)
        for _ in 0..<draws {
            let drawn = posteriors.map { $0.sample(using: &generator) }
            wins[drawn.indices.max { drawn[$0] < drawn[$1] }!] += 1
        }
        return Dictionary(uniqueKeysWithValues: zip(kinds, wins.map { Double($0) / Double(draws) }))
    }
}
