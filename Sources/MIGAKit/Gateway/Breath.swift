import FoundationEssentials
import Glibc

/// The gentle motion of the pause: a slow breath, in for 4 seconds and out
/// for 6, that the ring follows. Derived from time on screen alone, so a
/// frame at a given moment is always the same frame.
enum Breath {
    static let inhale = 4.0
    static let exhale = 6.0

    /// How full the breath is, 0…1, eased so it never jerks.
    static func level(at seconds: Double) -> Double {
        let t = seconds.truncatingRemainder(dividingBy: inhale + exhale)
        let ease = { (x: Double) in (1 - cos(Double.pi * x)) / 2 }
        return t < inhale ? ease(t / inhale) : 1 - ease((t - inhale) / exhale)
    }

    static func isInhaling(at seconds: Double) -> Bool {
        seconds.truncatingRemainder(dividingBy: inhale + exhale) < inhale
    }
}
