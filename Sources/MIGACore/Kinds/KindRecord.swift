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
