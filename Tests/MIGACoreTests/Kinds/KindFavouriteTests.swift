import Testing
@testable import MIGACore

/// The favourite `miga stats` names: a kind ahead of every other by a margin
/// that matters, beyond reasonable doubt, once every kind in use is known,
/// and kept until that is clearly no longer so.
@Suite struct KindFavouriteTests {
    /// `successes` of `shown` pauses of `kind`, the successes first.
    func pauses(_ kind: PauseKind, _ successes: Int, of shown: Int) -> [LearnedPause] {
        (0..<shown).map { LearnedPause(kind: kind, succeeded: $0 < successes) }
    }

    /// The same with the successes spread evenly among them.
    func spread(_ kind: PauseKind, _ successes: Int, of shown: Int) -> [LearnedPause] {
        (0..<shown).map { LearnedPause(kind: kind, succeeded: ($0 + 1) * successes / shown > $0 * successes / shown) }
    }

    /// Two kinds' pauses taken in turn, as a learner showing both would.
    func alternating(_ one: [LearnedPause], _ other: [LearnedPause]) -> [LearnedPause] {
        (0..<max(one.count, other.count)).flatMap { index in
            [one.indices.contains(index) ? one[index] : nil, other.indices.contains(index) ? other[index] : nil].compactMap { $0 }
        }
    }

    func named(_ pauses: [LearnedPause], _ kinds: [PauseKind] = [.breathe, .type]) -> PauseKind? {
        KindFavourite.named(after: pauses, among: kinds)
    }

    @Test func a_clear_difference_over_enough_pauses_names_the_better_kind() {
        #expect(named(alternating(pauses(.type, 30, of: 50), pauses(.breathe, 10, of: 50))) == .type)
        #expect(named(alternating(pauses(.breathe, 20, of: 40), pauses(.type, 4, of: 40))) == .breathe)
    }

    @Test func a_kind_never_shown_or_shown_too_few_times_is_not_yet_known() {
        // Ten typed pauses, every one a success, against breathing never shown.
        #expect(named(pauses(.type, 10, of: 10)) == nil)
        #expect(named(pauses(.type, 100, of: 100)) == nil)
        // Breathing shown, but once fewer than it takes to be known.
        let few = KindFavourite.knownAfter - 1
        #expect(named(pauses(.type, 100, of: 100) + pauses(.breathe, 0, of: few)) == nil)
        #expect(named(pauses(.type, 100, of: 100) + pauses(.breathe, 0, of: few + 1)) == .type)
        // A third kind in use, never shown: nothing is known of it.
        #expect(named(alternating(pauses(.type, 30, of: 50), pauses(.breathe, 10, of: 50)), [.breathe, .type, .intention]) == nil)
    }

    @Test func a_difference_smaller_than_the_margin_or_not_yet_certain_names_nothing() {
        // 26 in 100 against 24 in 100: ahead, by less than the margin.
        #expect(named(alternating(pauses(.type, 26, of: 100), pauses(.breathe, 24, of: 100))) == nil)
        // Even a great many pauses cannot make a 2-point lead one of 5 points.
        #expect(named(alternating(pauses(.type, 2_600, of: 10_000), pauses(.breathe, 2_400, of: 10_000))) == nil)
        // 12 in 20 against 6 in 20: likely better, not yet beyond doubt.
        #expect(named(alternating(pauses(.type, 12, of: 20), pauses(.breathe, 6, of: 20))) == nil)
    }

    @Test func once_named_it_is_kept_while_the_lead_stays_likely_and_dropped_only_when_it_does_not() throws {
        var favourite = KindFavourite(among: [.breathe, .type])
        for pause in alternating(pauses(.type, 30, of: 50), pauses(.breathe, 10, of: 50)) { favourite.count(pause) }
        #expect(favourite.named == .type)
        // Breathing now succeeds every time: typing's lead shrinks pause by pause.
        var said: [(chance: Double, named: PauseKind?)] = []
        for _ in 0..<40 {
            favourite.count(LearnedPause(kind: .breathe, succeeded: true))
            let beliefs = [try #require(favourite.evidence[.type]).posterior, try #require(favourite.evidence[.breathe]).posterior]
            said.append((KindFavourite.chanceOfLeading(beliefs, 0, by: KindFavourite.margin), favourite.named))
        }
        // Less sure than it takes to be named, still as sure as it takes to stay: kept.
        let between = said.filter { $0.chance < KindFavourite.namingCertainty && $0.chance >= KindFavourite.keepingCertainty }
        #expect(between.count > 5 && between.allSatisfy { $0.named == .type }, "\(said)")
        // Less sure than that: dropped, and not said again while the lead keeps shrinking.
        let below = said.filter { $0.chance < KindFavourite.keepingCertainty }
        #expect(!below.isEmpty && below.allSatisfy { $0.named == nil }, "\(said)")
    }

    @Test func the_same_counts_keep_a_name_already_given_and_give_none_afresh() {
        // Typing 30 in 50, breathing 25 in 65, reached two ways. First a clear lead, named, then breathing catching up:
        let named = alternating(pauses(.type, 30, of: 50), pauses(.breathe, 10, of: 50)) + pauses(.breathe, 15, of: 15)
        // then the same pauses with every kind's successes spread evenly from the start: never clear enough to name.
        let even = alternating(spread(.type, 30, of: 50), spread(.breathe, 25, of: 65))
        #expect(self.named(named) == .type)
        #expect(self.named(even) == nil)
    }

    @Test func around_the_bar_the_name_does_not_flicker() throws {
        // Named, then pauses that take the certainty back and forth across the naming bar, never near the
        // keeping one: the name stays. With one bar it would come and go with them.
        var favourite = KindFavourite(among: [.breathe, .type])
        for pause in alternating(pauses(.type, 30, of: 50), pauses(.breathe, 10, of: 50)) + pauses(.breathe, 9, of: 9) {
            favourite.count(pause)
        }
        #expect(favourite.named == .type)
        let cycle = [LearnedPause(kind: .breathe, succeeded: true), LearnedPause(kind: .type, succeeded: false),
                     LearnedPause(kind: .type, succeeded: true), LearnedPause(kind: .type, succeeded: true),
                     LearnedPause(kind: .breathe, succeeded: false)]
        var above: [Bool] = []
        for index in 0..<40 {
            favourite.count(cycle[index % cycle.count])
            #expect(favourite.named == .type)
            let beliefs = [try #require(favourite.evidence[.type]).posterior, try #require(favourite.evidence[.breathe]).posterior]
            above.append(KindFavourite.chanceOfLeading(beliefs, 0, by: KindFavourite.margin) >= KindFavourite.namingCertainty)
        }
        let crossings = zip(above, above.dropFirst()).filter { $0 != $1 }.count
        #expect(crossings >= 4, "\(above)")
    }

    @Test func a_favourite_is_sought_while_none_is_named_for_a_number_of_pauses_per_kind() {
        let kinds: [PauseKind] = [.breathe, .type, .intention]
        #expect(KindFavourite(among: kinds).isSought)
        #expect(!KindFavourite(among: [.breathe]).isSought)
        // Equal kinds, never named: sought until the kinds have had `soughtFor` pauses each, in all.
        let even = (0..<(KindFavourite.soughtFor * kinds.count)).map { LearnedPause(kind: kinds[$0 % kinds.count], succeeded: $0 % 6 < 3) }
        #expect(KindFavourite.counted(even.dropLast(), among: kinds).isSought)
        let all = KindFavourite.counted(even, among: kinds)
        #expect(all.named == nil && !all.isSought)
        // Pauses of a kind no longer in use count for nothing.
        #expect(KindFavourite.counted(even.dropLast() + pauses(.instead, 0, of: 50), among: kinds).isSought)
        // Named: no longer sought.
        let named = KindFavourite.counted(alternating(pauses(.type, 30, of: 50), pauses(.breathe, 10, of: 50)), among: [.breathe, .type])
        #expect(named.named == .type && !named.isSought)
        // The gateway's shortcut, which does not count a long history pause by pause, says the same.
        let histories: [([LearnedPause], [PauseKind])] = [
            (even.dropLast(), kinds), (even, kinds), (even + pauses(.type, 0, of: 5), kinds),
            (even.dropLast() + pauses(.instead, 0, of: 50), kinds), ([], kinds), (pauses(.type, 3, of: 9), [.type]),
            (alternating(pauses(.type, 30, of: 50), pauses(.breathe, 10, of: 50)), [.breathe, .type, .type]),
            (alternating(pauses(.type, 30, of: 150), pauses(.breathe, 40, of: 150)), [.breathe, .type]),
        ]
        for (history, kinds) in histories {
            #expect(KindFavourite.isSought(after: history, among: kinds) == KindFavourite.counted(history, among: kinds).isSought,
                    "\(history.count) pauses among \(kinds)")
        }
    }

    @Test func pauses_of_a_kind_no_longer_in_use_change_nothing() {
        let pauses = alternating(pauses(.type, 30, of: 50), pauses(.breathe, 10, of: 50))
        #expect(named(pauses + self.pauses(.instead, 0, of: 40)) == named(pauses))
    }

    @Test func the_chance_of_leading_agrees_with_closed_forms_and_with_draws() {
        let uniform = BetaDistribution(alpha: 1, beta: 1)
        // Two uniforms: P(X − Y ≥ d) = (1 − d)² / 2.
        for margin in [0.0, 0.05, 0.3] {
            #expect(abs(KindFavourite.chanceOfLeading([uniform, uniform], 0, by: margin) - (1 - margin) * (1 - margin) / 2) < 1e-4)
        }
        // Against a uniform, P(X ≥ Y) is X's mean.
        #expect(abs(KindFavourite.chanceOfLeading([BetaDistribution(alpha: 11, beta: 1), uniform], 0, by: 0) - 11.0 / 12) < 1e-4)
        // Three kinds with a margin, against 400 000 seeded joint draws.
        let beliefs = [BetaDistribution(alpha: 31, beta: 21), BetaDistribution(alpha: 11, beta: 41), BetaDistribution(alpha: 20, beta: 25)]
        var generator = SeededGenerator(seed: 5)
        let draws = 400_000
        let ahead = (0..<draws).filter { _ in
            let drawn = beliefs.map { $0.sample(using: &generator) }
            return drawn[0] - drawn[1] >= 0.05 && drawn[0] - drawn[2] >= 0.05
        }.count
        #expect(abs(KindFavourite.chanceOfLeading(beliefs, 0, by: 0.05) - Double(ahead) / Double(draws)) < 0.003)
    }

    @Test func the_bounds_that_spare_the_integral_decide_as_the_integral_would() {
        // Beliefs from a few pauses to many, near the margin and far from it, at both certainties.
        for (leading, trailing) in [(30, 10), (60, 40), (12, 6), (300, 240), (26, 24), (9, 1), (500, 380)] {
            for shown in [40, 100, 1_000] where leading <= shown {
                let beliefs = [BetaDistribution(alpha: 1 + Double(leading), beta: 1 + Double(shown - leading)),
                               BetaDistribution(alpha: 1 + Double(trailing), beta: 1 + Double(shown - trailing))]
                for certainty in [KindFavourite.keepingCertainty, KindFavourite.namingCertainty] {
                    let exact = KindFavourite.chanceOfLeading(beliefs, 0, by: KindFavourite.margin) >= certainty
                    #expect(KindFavourite.leads(beliefs, 0, by: KindFavourite.margin, certainty: certainty) == exact,
                            "\(leading)/\(trailing) of \(shown) at \(certainty)")
                }
            }
        }
    }
}
