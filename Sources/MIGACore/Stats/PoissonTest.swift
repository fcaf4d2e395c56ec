import FoundationEssentials
import Glibc

/// Whether one count of events is higher than another by more than chance
/// gives: the exact test of two Poisson rates (R's `poisson.test` with two
/// samples). Given all the events of both, each falls in the first span
/// with the chance its share of the days gives, were the rates the same;
/// the test asks how likely as many or more in the first would then be.
public enum PoissonTest {
    /// True when `count` events in `days` are a higher rate than `baseline`
    /// events in `baselineDays`, one-sided, at `level` (0.05: a rise this
    /// large comes by chance less than once in twenty).
    public static func higher(_ count: Int, in days: Int, than baseline: Int, in baselineDays: Int, level: Double) -> Bool {
        guard count >= 0, baseline >= 0, days > 0, baselineDays > 0,
              count * baselineDays > baseline * days else { return false }
        let share = Double(days) / Double(days + baselineDays)
        return upperTail(atLeast: count, of: count + baseline, chance: share) < level
    }

    /// P(X ≥ k) for X binomial with n trials of chance p, summed in logarithms
    /// so that thousands of attempts neither overflow nor lose the tail.
    static func upperTail(atLeast k: Int, of n: Int, chance p: Double) -> Double {
        guard k > 0 else { return 1 }
        guard k <= n, p > 0 else { return 0 }
        guard p < 1 else { return 1 }
        let (logP, logQ) = (log(p), log1p(-p))
        var total = 0.0
        for successes in k...n {
            let logTerm = lgamma(Double(n + 1)) - lgamma(Double(successes + 1)) - lgamma(Double(n - successes + 1))
                + Double(successes) * logP + Double(n - successes) * logQ
            total += exp(logTerm)
        }
        return min(1, total)
    }
}
