#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Where the gateway reads time from. Injected so that countdowns, streaks and
/// timestamps are deterministic in tests.
public protocol TimeSource: Sendable {
    /// Wall-clock time, for timestamps that are stored and compared across runs.
    func now() -> Date
    /// Seconds on a monotonic clock, for measuring durations on screen; never jumps
    /// when the wall clock is changed.
    func monotonic() -> Double
}

/// The real clocks of this machine.
public struct SystemTime: TimeSource {
    public init() {}

    public func now() -> Date { Date() }

    public func monotonic() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}
