import Foundation
import Testing
@testable import MIGACore

/// The effect over many simulated people whose use never changes: whatever
/// the rhythm of their days, the figure must not lean toward a drop (which
/// would tell them MIGA works when it does not), and a real fall must read
/// as the fall it is. Seeded: the same people every run.
@Suite struct EffectSimulationTests {
    /// How a simulated person uses a program, day by day.
    enum Rhythm: String, CaseIterable {
        case everyDay, everyOtherDay, weekdaysOnly, bursts, randomDays

        /// The attempts on each of `days` days, from a random phase of the rhythm.
        func attempts(days: Int, using generator: inout SeededGenerator) -> [Int] {
            let phase = Int(generator.next() % 14)
            var inBurst = uniform(&generator) < 3.0 / 7
            return (0..<days).map { index in
                let day = phase + index
                switch self {
                case .everyDay: return 2
                case .everyOtherDay: return day % 2 == 0 ? 2 : 0
                case .weekdaysOnly: return day % 7 < 5 ? 2 : 0
                case .bursts:
                    // Runs of days in use (3 on average) between runs without (4 on average), 2.5 attempts a day in a run.
                    defer { inBurst = uniform(&generator) < (inBurst ? 2.0 / 3 : 1.0 / 4) }
                    return inBurst ? 1 + poisson(1.5, &generator) : 0
                case .randomDays:
                    // Two days in five, 2.5 attempts each on average: one a day, at random.
                    return uniform(&generator) < 0.4 ? 1 + poisson(1.5, &generator) : 0
                }
            }
        }
    }

    static func uniform(_ generator: inout SeededGenerator) -> Double { BetaDistribution.uniform(using: &generator) }

    static func poisson(_ mean: Double, _ generator: inout SeededGenerator) -> Int {
        // Knuth's method: small means only.
        let limit = exp(-mean)
        var (count, product) = (0, uniform(&generator))
        while product > limit {
            count += 1
            product *= uniform(&generator)
        }
        return count
    }

    /// Each of `n` people's effect on one program after 6 to 10 weeks of
    /// `rhythm`, the first day partial (MIGA set up at a random hour), and
    /// from the day after the first two weeks on each attempt kept with the
    /// chance `keep` (1: no change; 2/3: a fall of a third).
    static func people(_ rhythm: Rhythm, count n: Int = 600, keep: Double = 1, seed: UInt64) -> [Effect] {
        var generator = SeededGenerator(seed: seed)
        let start = 20_000
        return (0..<n).map { _ in
            let days = 42 + Int(generator.next() % 29)
            var attempts = rhythm.attempts(days: days, using: &generator)
            // The first day of use is partial: only the hours after setup count.
            let share = uniform(&generator)
            attempts[0] = (0..<attempts[0]).filter { _ in uniform(&generator) < share }.count
            if keep < 1, let first = attempts.firstIndex(where: { $0 > 0 }) {
                for day in attempts.indices where day > first + Effect.spanDays {
                    attempts[day] = (0..<attempts[day]).filter { _ in uniform(&generator) < keep }.count
                }
            }
            let tallies = attempts.enumerated().filter { $0.element > 0 }.map { day, count in
                DayTally(program: "firefox", day: LocalDay(number: start + day), attempts: count, pauses: count,
                         openings: count)
            }
            return Effect.measure(tallies, today: LocalDay(number: start + days)).overall
        }
    }

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(1, values.count)) }

    static func standardError(_ values: [Double]) -> Double {
        let average = mean(values)
        let variance = values.reduce(0) { $0 + ($1 - average) * ($1 - average) } / Double(max(1, values.count - 1))
        return (variance / Double(max(1, values.count))).squareRoot()
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    @Test(arguments: Rhythm.allCases)
    func steady_use_reads_no_change_whatever_its_rhythm(rhythm: Rhythm) {
        let effects = Self.people(rhythm, seed: 41)
        let shown = effects.compactMap { $0.attempts?.change }
        // Nearly everyone is shown a figure: one a day is enough use to compare.
        #expect(shown.count > effects.count * 9 / 10, "\(rhythm): \(shown.count) of \(effects.count) shown")

        // As many are told of a drop as of a rise, within chance (a sign test at about 3 σ).
        let drops = shown.filter { $0 < 0 }.count, rises = shown.filter { $0 > 0 }.count
        #expect(Double(abs(drops - rises)) <= 3 * Double(drops + rises).squareRoot() + 1,
                "\(rhythm): \(drops) told of a drop, \(rises) of a rise")
        #expect(abs(Self.median(shown)) < 0.1, "\(rhythm): median \(Self.median(shown))")

        // The two spans measure the same rate: their per-day figures differ by noise alone.
        let differences = effects.compactMap { effect in
            effect.attempts.flatMap { $0.change == nil ? nil : $0.recentPerDay - $0.firstPerDay }
        }
        #expect(abs(Self.mean(differences)) <= 3.5 * Self.standardError(differences) + 1e-9,
                "\(rhythm): recent − first a day, mean \(Self.mean(differences)) ± \(Self.standardError(differences))")

        // The mean change never leans toward a drop. (Noise leans the mean of a
        // ratio of two noisy spans up, never down: docs/STATS.md says how far.)
        #expect(Self.mean(shown) >= -3 * Self.standardError(shown) - 1e-9,
                "\(rhythm): mean change \(Self.mean(shown)) ± \(Self.standardError(shown))")
        if [.everyDay, .everyOtherDay, .weekdaysOnly].contains(rhythm) {
            // The same count on the same days of each week: exactly no change, for everyone.
            #expect(shown.allSatisfy { $0 == 0 }, "\(rhythm): \(Set(shown).sorted())")
        }
    }

    @Test(arguments: Rhythm.allCases)
    func a_real_fall_of_a_third_reads_as_about_a_third(rhythm: Rhythm) {
        let effects = Self.people(rhythm, keep: 2.0 / 3, seed: 43)
        let shown = effects.compactMap { $0.attempts?.change }
        #expect(shown.count > effects.count * 9 / 10, "\(rhythm): \(shown.count) of \(effects.count) shown")
        #expect(abs(Self.median(shown) + 1.0 / 3) < 0.08, "\(rhythm): median \(Self.median(shown))")
        let first = effects.compactMap { $0.attempts.flatMap { $0.change == nil ? nil : $0.firstPerDay } }
        let recent = effects.compactMap { $0.attempts.flatMap { $0.change == nil ? nil : $0.recentPerDay } }
        let pooled = Self.mean(recent) / Self.mean(first) - 1
        #expect(abs(pooled + 1.0 / 3) < 0.05, "\(rhythm): recent a day ÷ first a day − 1 = \(pooled)")
    }

    @Test func two_weeks_with_little_use_are_not_compared_at_all() {
        // One attempt every third day, 4 or 5 in each span: too little use for a
        // change to mean anything, and no later, busier span is picked instead.
        let tallies = stride(from: 0, to: 60, by: 3).map { day in
            DayTally(program: "firefox", day: LocalDay(number: 20_000 + day), attempts: 1, pauses: 1)
        }
        let effect = Effect.measure(tallies, today: LocalDay(number: 20_060)).overall
        #expect(effect.attempts?.comparable == true)
        #expect(effect.attempts?.change == nil)
        #expect(effect.attempts?.enoughUse == false)
    }
}
