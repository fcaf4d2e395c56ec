import FoundationEssentials
import Glibc

/// The Beta distribution, the belief about a rate after counting successes and
/// failures: its mean, quantiles, credible intervals and random draws.
///
/// The shapes come from counts in the store, which a damaged or hostile file
/// can make anything, so they are clamped on the way in: NaN is 1 (no
/// knowledge), anything not above zero is `minimumShape`, and shapes beyond
/// `maximumShape` are scaled down together so that the mean survives.
public struct BetaDistribution: Sendable, Equatable {
    public let alpha: Double
    public let beta: Double

    /// Below this a shape is clamped: smaller ones only make underflow.
    public static let minimumShape = 1e-3
    /// Above this both shapes are scaled down: the continued fraction needs
    /// about √shape steps, and a million pauses already pin the rate down.
    public static let maximumShape = 1e6

    public init(alpha: Double, beta: Double) {
        func sane(_ shape: Double) -> Double {
            if shape.isNaN { return 1 }
            if shape == .infinity { return Self.maximumShape }
            return shape > 0 ? shape : Self.minimumShape
        }
        var (a, b) = (sane(alpha), sane(beta))
        let largest = max(a, b)
        if largest > Self.maximumShape {
            a *= Self.maximumShape / largest
            b *= Self.maximumShape / largest
        }
        self.alpha = min(Self.maximumShape, max(Self.minimumShape, a))
        self.beta = min(Self.maximumShape, max(Self.minimumShape, b))
    }

    public var mean: Double { alpha / (alpha + beta) }

    public var variance: Double {
        let sum = alpha + beta
        return alpha * beta / (sum * sum * (sum + 1))
    }

    /// The x with P(X ≤ x) = p, to within 1e-10. p is clamped to 0…1, and NaN
    /// is taken as the median.
    public func quantile(_ p: Double) -> Double {
        let p = p.isNaN ? 0.5 : min(1, max(0, p))
        if p == 0 { return 0 }
        if p == 1 { return 1 }
        // Closed forms: I_x(1, b) = 1 − (1 − x)^b and I_x(a, 1) = x^a.
        if alpha == 1 && beta == 1 { return p }
        if alpha == 1 { return -expm1(log1p(-p) / beta) }
        if beta == 1 { return exp(log(p) / alpha) }

        // Newton's method on I_x(a, b) − p, kept inside a bracket that shrinks
        // at every step and bisected whenever Newton would leave it.
        var (low, high) = (0.0, 1.0)
        var x = mean
        for _ in 0..<300 {
            let error = cumulative(x) - p
            if error == 0 { return x }
            if error < 0 { low = x } else { high = x }
            var next = x - error / density(x)
            if !next.isFinite || next <= low || next >= high { next = (low + high) / 2 }
            if abs(next - x) < 1e-12 || high - low < 1e-12 { return next }
            x = next
        }
        return x
    }

    /// The central interval holding `mass` of the belief (0.9 by default: 5 % on
    /// either side).
    public func credibleInterval(_ mass: Double = 0.9) -> (low: Double, high: Double) {
        let mass = mass.isNaN ? 0.9 : min(1, max(0, mass))
        return (quantile((1 - mass) / 2), quantile((1 + mass) / 2))
    }

    /// One draw, as X / (X + Y) with X ~ Gamma(alpha) and Y ~ Gamma(beta).
    ///
    /// The gammas are drawn as logarithms, so that small shapes, whose draws
    /// underflow to zero, still give a ratio rather than 0 / 0.
    public func sample(using generator: inout some RandomNumberGenerator) -> Double {
        let logX = Self.logGamma(shape: alpha, using: &generator)
        let logY = Self.logGamma(shape: beta, using: &generator)
        return 1 / (1 + exp(logY - logX))
    }

    // MARK: The regularized incomplete beta function

    private var logBeta: Double { lgamma(alpha) + lgamma(beta) - lgamma(alpha + beta) }

    /// The density at x.
    func density(_ x: Double) -> Double {
        guard x > 0 && x < 1 else { return 0 }
        return exp((alpha - 1) * log(x) + (beta - 1) * log1p(-x) - logBeta)
    }

    /// I_x(alpha, beta) = P(X ≤ x).
    func cumulative(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let front = exp(alpha * log(x) + beta * log1p(-x) - logBeta)
        // The continued fraction converges fast only below (a + 1) / (a + b + 2);
        // above it, the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) is used.
        if x < (alpha + 1) / (alpha + beta + 2) {
            return front * Self.continuedFraction(x, alpha, beta) / alpha
        }
        return 1 - front * Self.continuedFraction(1 - x, beta, alpha) / beta
    }

    /// The continued fraction of I_x(a, b), by the modified Lentz method
    /// (Numerical Recipes, `betacf`).
    private static func continuedFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        func guarded(_ value: Double) -> Double { abs(value) < tiny ? tiny : value }
        var c = 1.0
        var d = 1 / guarded(1 - (a + b) * x / (a + 1))
        var h = d
        for m in 1...20_000 {
            let m = Double(m)
            let even = m * (b - m) * x / ((a - 1 + 2 * m) * (a + 2 * m))
            d = 1 / guarded(1 + even * d)
            c = guarded(1 + even / c)
            h *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 1 + 2 * m))
            d = 1 / guarded(1 + odd * d)
            c = guarded(1 + odd / c)
            let step = d * c
            h *= step
            if abs(step - 1) < 1e-15 { break }
        }
        return h
    }

    // MARK: Drawing

    /// The logarithm of a Gamma(shape, 1) draw, by Marsaglia and Tsang (2000);
    /// a shape below 1 draws Gamma(shape + 1) and multiplies by u^(1/shape).
    private static func logGamma(shape: Double, using generator: inout some RandomNumberGenerator) -> Double {
        if shape < 1 {
            return logGamma(shape: shape + 1, using: &generator) + log(uniform(using: &generator)) / shape
        }
        let d = shape - 1.0 / 3
        let c = 1 / (9 * d).squareRoot()
        while true {
            var z: Double
            var v: Double
            repeat {
                z = normal(using: &generator)
                v = 1 + c * z
            } while v <= 0
            v = v * v * v
            let u = uniform(using: &generator)
            if u < 1 - 0.0331 * z * z * z * z || log(u) < 0.5 * z * z + d * (1 - v + log(v)) {
                return log(d) + log(v)
            }
        }
    }

    /// A standard normal deviate, by Box–Muller.
    private static func normal(using generator: inout some RandomNumberGenerator) -> Double {
        let radius = (-2 * log(uniform(using: &generator))).squareRoot()
        return radius * cos(2 * .pi * uniform(using: &generator))
    }

    /// Uniform in the open interval (0, 1), so its logarithm is finite. Made by
    /// hand from 53 bits rather than `Double.random(in:)`, whose method may
    /// change between Swift releases and with it every seeded test.
    static func uniform(using generator: inout some RandomNumberGenerator) -> Double {
        (Double(generator.next() >> 11) + 0.5) * 0x1p-53
    }
}
