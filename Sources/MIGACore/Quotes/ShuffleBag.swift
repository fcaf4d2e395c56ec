/// The order in which quotes are drawn: every quote of the pool once, in a
/// random order, before any comes back (a shuffle bag), remembered across runs.
///
/// The state is a few numbers rather than the whole order: a round's order is
/// the Fisher–Yates shuffle of the pool seeded by `seed`, so the bag fits in one
/// small row of the store even when a user imports thousands of quotes.
public struct ShuffleBag: Equatable, Sendable {
    /// Seeds this round's order.
    public private(set) var seed: UInt64 = 0
    /// How many quotes of this round have been drawn.
    public private(set) var position: Int = 0
    /// Identifies the pool the round was shuffled for; a different pool
    /// (new interests, new quotes) starts a new round.
    public private(set) var fingerprint: UInt64 = 0
    /// Quotes held back to the end of this round because they ended the last one.
    public private(set) var heldBack: [String] = []
    /// The most recent draws, newest last.
    public private(set) var recent: [String] = []

    static let recentLimit = 8

    public init() {}

    /// The next quote id from `pool`, or nil when the pool is empty.
    public mutating func draw(from pool: [String], using generator: inout some RandomNumberGenerator) -> String? {
        guard !pool.isEmpty else { return nil }
        let print = Self.fingerprint(of: pool)
        if print != fingerprint || position >= pool.count {
            startRound(pool: pool, fingerprint: print, using: &generator)
        }
        let id = pool[order(of: pool)[position]]
        position += 1
        recent.append(id)
        if recent.count > Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
        return id
    }

    private mutating func startRound(pool: [String], fingerprint print: UInt64,
                                     using generator: inout some RandomNumberGenerator) {
        seed = generator.next()
        position = 0
        fingerprint = print
        // Up to half the pool (and at most `recentLimit`) of what was just shown
        // waits until the end of the new round, so a round never opens with a
        // quote the person has just read.
        let members = Set(pool)
        let limit = min(Self.recentLimit, pool.count / 2)
        heldBack = Array(recent.reversed().filter { members.contains($0) }.prefix(limit))
    }

    /// This round's order, as indices into `pool`.
    private func order(of pool: [String]) -> [Int] {
        var indices = Array(pool.indices)
        // Fisher–Yates by hand rather than `shuffle(using:)`, whose algorithm may
        // change between Swift releases and would reshuffle a round in progress.
        var generator = SeededGenerator(seed: seed)
        for i in stride(from: indices.count - 1, to: 0, by: -1) {
            indices.swapAt(i, Int(generator.next() % UInt64(i + 1)))
        }
        guard !heldBack.isEmpty else { return indices }
        let held = Set(heldBack)
        return indices.filter { !held.contains(pool[$0]) } + indices.filter { held.contains(pool[$0]) }
    }

    /// FNV-1a over the ids in order.
    static func fingerprint(of pool: [String]) -> UInt64 {
        FNV1a.hash(pool)
    }
}

extension ShuffleBag {
    /// The bag as a few lines of text, as the store keeps it. Quote ids never
    /// contain whitespace, so lists are written space-separated.
    public var encoded: String {
        """
        seed \(seed)
        position \(position)
        fingerprint \(fingerprint)
        held \(heldBack.joined(separator: " "))
        recent \(recent.joined(separator: " "))
        """
    }

    /// A bag read back from `encoded`; nil for text in any other shape.
    public init?(encoded text: String) {
        var fields: [Substring: [Substring]] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let key = words.first else { continue }
            fields[key] = Array(words.dropFirst())
        }
        guard let seed = fields["seed"]?.first.flatMap({ UInt64($0) }),
              let position = fields["position"]?.first.flatMap({ Int($0) }),
              let fingerprint = fields["fingerprint"]?.first.flatMap({ UInt64($0) }) else { return nil }
        self.init()
        self.seed = seed
        self.position = position
        self.fingerprint = fingerprint
        heldBack = (fields["held"] ?? []).map(String.init)
        recent = (fields["recent"] ?? []).map(String.init)
    }
}
