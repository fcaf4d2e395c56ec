import FoundationEssentials

/// Where the effect's counts come from. Every question is about counted
/// sessions (ended: exit, proceed, abandoned or pass-through) of one program,
/// or of all of them when `program` is nil, on local days up to `today`;
/// and, beside them, the launches that went around the pause (leaks).
public protocol EffectCounting {
    associatedtype Failure: Error
    /// The programs with a counted session up to `today`.
    func programs(through today: LocalDay) throws(Failure) -> [String]
    /// The day of the earliest counted session, if it is `today` or before.
    func firstDay(_ program: String?, through today: LocalDay) throws(Failure) -> LocalDay?
    /// Counts over `days` (local day numbers, both ends included), leaks among them.
    func counts(_ program: String?, days: ClosedRange<Int>) throws(Failure) -> Effect.Counts
    /// Counts over every day up to and including `today`.
    func totals(_ program: String?, through today: LocalDay) throws(Failure) -> Effect.Counts
    /// The latest run of `Effect.shortestGap` or more days without any
    /// session of any program, between two days with one, up to `today`.
    func latestGap(through today: LocalDay) throws(Failure) -> (start: LocalDay, days: Int)?
}

/// Counts from a list of day tallies: the definitions, written plainly
/// (the store's answers are tested against these).
public struct TallyCounts: EffectCounting {
    public typealias Failure = Never
    let tallies: [DayTally]
    /// The days that held a counted session: leaks alone make none.
    private var sessionTallies: [DayTally] { tallies.filter { $0.attempts > 0 } }

    public init(_ tallies: [DayTally]) {
        self.tallies = tallies.filter { $0.attempts > 0 || $0.leaks > 0 }
    }

    private func matching(_ program: String?) -> [DayTally] {
        program.map { program in tallies.filter { $0.program == program } } ?? tallies
    }

    private static func sum(_ tallies: [DayTally]) -> Effect.Counts {
        tallies.reduce(into: Effect.Counts()) { $0.add(Effect.Counts($1)) }
    }

    public func programs(through today: LocalDay) -> [String] {
        Set(sessionTallies.filter { $0.day <= today }.map(\.program)).sorted()
    }

    public func firstDay(_ program: String?, through today: LocalDay) -> LocalDay? {
        matching(program).filter { $0.attempts > 0 }.map(\.day).filter { $0 <= today }.min()
    }

    public func counts(_ program: String?, days: ClosedRange<Int>) -> Effect.Counts {
        Self.sum(matching(program).filter { days.contains($0.day.number) })
    }

    public func totals(_ program: String?, through today: LocalDay) -> Effect.Counts {
        Self.sum(matching(program).filter { $0.day <= today })
    }

    public func latestGap(through today: LocalDay) -> (start: LocalDay, days: Int)? {
        Effect.latestGap(in: Set(sessionTallies.filter { $0.day <= today }.map(\.day)))
    }
}
