import Testing
@testable import MIGACore

@Suite struct BetaDistributionTests {
    @Test func the_uniform_quantile_is_p_itself() {
        let uniform = BetaDistribution(alpha: 1, beta: 1)
        for p in [0, 0.001, 0.05, 0.3, 0.5, 0.77, 0.95, 1] {
            #expect(uniform.quantile(p) == p)
        }
    }

    @Test func the_variance_is_that_of_the_shapes() {
        // αβ / ((α + β)² (α + β + 1)): 1/12 for the uniform, 10/392 for Beta(2, 5).
        #expect(abs(BetaDistribution(alpha: 1, beta: 1).variance - 1.0 / 12) < 1e-15)
        #expect(abs(BetaDistribution(alpha: 2, beta: 5).variance - 10.0 / 392) < 1e-15)
    }

    @Test func a_symmetric_belief_has_its_median_at_one_half() {
        #expect(abs(BetaDistribution(alpha: 2, beta: 2).quantile(0.5) - 0.5) < 1e-10)
        #expect(abs(BetaDistribution(alpha: 40, beta: 40).quantile(0.5) - 0.5) < 1e-10)
    }

    /// Reference values from SciPy 1.17 (`scipy.stats.beta.ppf`).
    @Test(arguments: [
        (2.0, 5.0, 0.5, 0.26444998329566005),
        (2.0, 5.0, 0.05, 0.06284989170835438),
        (2.0, 5.0, 0.95, 0.5818034092520259),
        (13.0, 29.0, 0.05, 0.1988289013315322),
        (13.0, 29.0, 0.95, 0.43065164313415527),
        (0.5, 0.5, 0.1, 0.024471741852423214),
        (0.5, 0.5, 0.9, 0.9755282581475768),
        (91.0, 11.0, 0.05, 0.837845428126821),
        (3.0, 1.0, 0.3, 0.6694329500821695),
        (1.0, 4.0, 0.6, 0.20472927123294932),
        (500.0, 1500.0, 0.5, 0.24991665330124854),
    ])
    func quantiles_match_reference_values(alpha: Double, beta: Double, p: Double, expected: Double) {
        let quantile = BetaDistribution(alpha: alpha, beta: beta).quantile(p)
        #expect(abs(quantile - expected) < 1e-9, "Beta(\(alpha), \(beta)) at \(p): \(quantile)")
    }

    @Test func the_quantile_inverts_the_cumulative() {
        for (alpha, beta) in [(2.0, 5.0), (0.7, 3.0), (12.0, 24.0), (1.5, 1.5), (300.0, 20.0)] {
            let distribution = BetaDistribution(alpha: alpha, beta: beta)
            for p in stride(from: 0.01, through: 0.99, by: 0.07) {
                #expect(abs(distribution.cumulative(distribution.quantile(p)) - p) < 1e-9)
            }
        }
    }

    @Test func the_credible_interval_is_central() {
        let interval = BetaDistribution(alpha: 2, beta: 5).credibleInterval()
        #expect(abs(interval.low - 0.06284989170835438) < 1e-9)
        #expect(abs(interval.high - 0.5818034092520259) < 1e-9)
        let half = BetaDistribution(alpha: 1, beta: 1).credibleInterval(0.5)
        #expect(half.low == 0.25 && half.high == 0.75)
    }

    @Test(arguments: [(1.0, 1.0), (2.0, 5.0), (0.5, 0.5), (0.3, 3.0), (91.0, 11.0), (40.0, 40.0)])
    func the_mean_of_many_draws_is_the_mean(alpha: Double, beta: Double) {
        let distribution = BetaDistribution(alpha: alpha, beta: beta)
        var generator = SeededGenerator(seed: 7)
        let count = 20_000
        var total = 0.0
        for _ in 0..<count { total += distribution.sample(using: &generator) }
        #expect(abs(total / Double(count) - distribution.mean) < 0.01)
    }

    @Test func draws_stay_between_zero_and_one_even_for_tiny_shapes() {
        var generator = SeededGenerator(seed: 1)
        for (alpha, beta) in [(0.001, 0.001), (0.001, 1e6), (1e6, 0.001), (0.01, 0.02)] {
            let distribution = BetaDistribution(alpha: alpha, beta: beta)
            for _ in 0..<500 {
                let draw = distribution.sample(using: &generator)
                #expect(draw >= 0 && draw <= 1)
            }
        }
    }

    @Test func the_same_seed_gives_the_same_draws() {
        let distribution = BetaDistribution(alpha: 3, beta: 8)
        var a = SeededGenerator(seed: 99), b = SeededGenerator(seed: 99)
        let first = (0..<50).map { _ in distribution.sample(using: &a) }
        let second = (0..<50).map { _ in distribution.sample(using: &b) }
        #expect(first == second)
    }

    @Test func impossible_shapes_are_clamped() {
        let unknown = BetaDistribution(alpha: .nan, beta: .nan)
        #expect(unknown == BetaDistribution(alpha: 1, beta: 1))
        let broken = BetaDistribution(alpha: -3, beta: 0)
        #expect(broken.alpha == BetaDistribution.minimumShape && broken.beta == BetaDistribution.minimumShape)
        let endless = BetaDistribution(alpha: .infinity, beta: 2)
        #expect(endless.alpha == BetaDistribution.maximumShape && endless.mean.isFinite)
        // Scaled together, so the rate they describe survives.
        let huge = BetaDistribution(alpha: 3e12, beta: 1e12)
        #expect(huge.alpha == BetaDistribution.maximumShape && abs(huge.mean - 0.75) < 1e-12)
        let interval = huge.credibleInterval()
        #expect(interval.low < 0.75 && interval.high > 0.75 && interval.high - interval.low < 0.01)
    }

    @Test func impossible_probabilities_are_clamped() {
        let distribution = BetaDistribution(alpha: 2, beta: 5)
        #expect(distribution.quantile(-1) == 0)
        #expect(distribution.quantile(.infinity) == 1)
        #expect(distribution.quantile(.nan) == distribution.quantile(0.5))
        let interval = distribution.credibleInterval(.nan)
        #expect(interval == distribution.credibleInterval(0.9))
    }
}
