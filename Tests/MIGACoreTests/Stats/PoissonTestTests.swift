import Foundation
import Testing
@testable import MIGACore

/// The test behind a rebound, against tails worked out exactly elsewhere
/// (with Python's `math.comb`).
@Suite struct PoissonTestTests {
    @Test func the_tail_is_the_binomial_tail() {
        #expect(abs(PoissonTest.upperTail(atLeast: 34, of: 66, chance: 0.5) - 0.4510792500483496) < 1e-9)
        #expect(abs(PoissonTest.upperTail(atLeast: 35, of: 49, chance: 0.5) - 0.001900827204874389) < 1e-9)
        #expect(abs(PoissonTest.upperTail(atLeast: 16, of: 30, chance: 4.0 / 11) - 0.04283923811502224) < 1e-9)
        #expect(PoissonTest.upperTail(atLeast: 0, of: 10, chance: 0.3) == 1)
        #expect(PoissonTest.upperTail(atLeast: 11, of: 10, chance: 0.3) == 0)
    }

    @Test func a_rise_is_flagged_only_beyond_chance() {
        // 4.57 a day, then 4.86: noise. 2 a day, then 5: a rise.
        #expect(!PoissonTest.higher(34, in: 7, than: 32, in: 7, level: 0.05))
        #expect(PoissonTest.higher(35, in: 7, than: 14, in: 7, level: 0.05))
        // A fall, or the same rate, is never higher.
        #expect(!PoissonTest.higher(10, in: 7, than: 40, in: 7, level: 0.05))
        #expect(!PoissonTest.higher(20, in: 7, than: 20, in: 7, level: 0.05))
        // Nothing to compare: no days on a side.
        #expect(!PoissonTest.higher(5, in: 0, than: 1, in: 7, level: 0.05))
        #expect(!PoissonTest.higher(5, in: 3, than: 0, in: 0, level: 0.05))
        // Thousands of attempts neither overflow nor lose the tail.
        #expect(PoissonTest.higher(5_300, in: 7, than: 5_000, in: 7, level: 0.05))
        #expect(!PoissonTest.higher(5_050, in: 7, than: 5_000, in: 7, level: 0.05))
    }
}
