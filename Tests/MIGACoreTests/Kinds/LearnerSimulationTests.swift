import Foundation
import Testing
@testable import MIGACore

/// The learner over a person's months, simulated: each pause's kind chosen
/// by `KindChooser` from the evidence as the store would weigh it that day,
/// seeking a favourite while none is named as the gateway's does, its end
/// drawn from the person's true rates. Seeded and on a made clock: the same every run.
@Suite struct LearnerSimulationTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static let pausesPerDay = 6
    static let swapDay = 30

    /// The share of pauses each day that showed the kind working better then,
    /// when breathing ends in an exit half the time and typing a fifth of it
    /// for the first `swapDay` days, and the other way round after.
    /// `seeking`: whether the learner seeks a favourite while none is named,
    /// as the gateway's does; without, the ordinary learner.
    static func betterShown(halfLifeDays: Double, days: Int, seed: UInt64 = 7, seeking: Bool = true) -> [Double] {
        var generator = SeededGenerator(seed: seed)
        var history: [Int: [PauseKind: (shown: Int, exits: Int)]] = [:]
        var last: PauseKind?
        var favourite = KindFavourite(among: [.breathe, .type])
        var shares: [Double] = []
        let firstDay = Int(start.timeIntervalSince1970 / 86_400)
        for day in 0..<days {
            let better: PauseKind = day < swapDay ? .breathe : .type
            var betterCount = 0
            for pause in 0..<pausesPerDay {
                let now = start.addingTimeInterval(Double(day) * 86_400 + Double(pause) * 7_200)
                let learned = history.flatMap { day, kinds in
                    kinds.map { LearnedDay(kind: $0.key, day: firstDay + day, shown: $0.value.shown, successes: $0.value.exits) }
                }
                let evidence = KindEvidence.discounted(learned, now: now, halfLifeDays: halfLifeDays)
                let kind = KindChooser.choose(among: [.breathe, .type], rotation: .adaptive, evidence: evidence,
                                              last: last, seekingFavourite: seeking && favourite.isSought, using: &generator).kind
                let exits = BetaDistribution.uniform(using: &generator) < (kind == better ? 0.5 : 0.2)
                favourite.count(LearnedPause(kind: kind, succeeded: exits))
                history[day, default: [:]][kind, default: (0, 0)].shown += 1
                history[day, default: [:]][kind, default: (0, 0)].exits += exits ? 1 : 0
                if kind == better { betterCount += 1 }
                last = kind
            }
            shares.append(Double(betterCount) / Double(pausesPerDay))
        }
        return shares
    }

    static func mean(_ values: ArraySlice<Double>) -> Double { values.reduce(0, +) / Double(values.count) }

    /// Twelve people, each with their own draws.
    static let people = 1...12 as ClosedRange<UInt64>
    /// A hundred and twenty, where a share of people or a difference between two learners is asserted: with
    /// twelve, one person more or less moves a share by 8 points.
    static let morePeople = 1...120 as ClosedRange<UInt64>

    /// The share of pauses in the third week after the change that showed the better kind, per person.
    static func thirdWeek(halfLifeDays: Double, people: ClosedRange<UInt64> = people, seeking: Bool = true) -> [Double] {
        people.map {
            mean(betterShown(halfLifeDays: halfLifeDays, days: swapDay + 21, seed: $0, seeking: seeking)[(swapDay + 14)..<(swapDay + 21)])
        }
    }

    @Test func after_a_change_in_response_the_better_kind_is_shown_on_most_pauses_within_three_weeks() {
        let before = Self.people.map { Self.mean(Self.betterShown(halfLifeDays: KindEvidence.defaultHalfLifeDays, days: Self.swapDay,
                                                                  seed: $0)[20..<Self.swapDay]) }
        #expect(Self.mean(before[...]) > 0.8, "\(before)")
        let after = Self.thirdWeek(halfLifeDays: KindEvidence.defaultHalfLifeDays, people: Self.morePeople)
        #expect(Self.mean(after[...]) > 0.6, "\(after)")
        #expect(after.filter { $0 > 0.5 }.count >= Self.morePeople.count * 3 / 4, "\(after)")
        // Seeking a favourite in the first weeks leaves the learner about as quick after a change as without it.
        let ordinary = Self.thirdWeek(halfLifeDays: KindEvidence.defaultHalfLifeDays, people: Self.morePeople, seeking: false)
        #expect(abs(Self.mean(after[...]) - Self.mean(ordinary[...])) < 0.05, "\(after) against \(ordinary)")
    }

    @Test func pooled_for_ever_or_slowly_forgotten_the_same_history_keeps_the_old_kind_too_long() {
        // Every pause weighing one: a month of habit outvotes three weeks of change.
        let pooled = Self.thirdWeek(halfLifeDays: .infinity)
        #expect(Self.mean(pooled[...]) < 0.5, "\(pooled)")
        // A 30-day half-life: for about a third of the people the old kind still wins most pauses.
        let slow = Self.thirdWeek(halfLifeDays: 30)
        #expect(slow.filter { $0 > 0.5 }.count < 10, "\(slow)")
    }

    @Test func a_pause_weighs_half_after_the_half_life_and_an_infinite_one_weighs_all_alike() throws {
        let now = Date(timeIntervalSince1970: Double(20_000) * 86_400 + 43_200)
        let days = [LearnedDay(kind: .type, day: 20_000, shown: 4, successes: 2),
                    LearnedDay(kind: .type, day: 19_970, shown: 4, successes: 0)]
        let weighed = try #require(KindEvidence.discounted(days, now: now, halfLifeDays: 30)[.type])
        #expect(abs(weighed.shown - 6) < 1e-9 && abs(weighed.successes - 2) < 1e-9 && weighed.pauses == 8)
        let pooled = try #require(KindEvidence.discounted(days, now: now, halfLifeDays: .infinity)[.type])
        #expect(pooled.shown == 8 && pooled.successes == 2)
    }
}

