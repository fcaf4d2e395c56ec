/// Friction that grows (`escalate = true`): each further attempt within the
/// hour adds `step` seconds to the pause, up to `maximum` in all. An Exit to
/// Focus starts the ladder again; so does an hour without attempts.
public struct Escalation: Equatable, Sendable {
    public var step: Int
    /// The longest the pause grows to. A base pause already longer is kept.
    public var maximum: Int

    public static let defaultStep = 30
    public static let defaultMaximum = 300
    /// How far back attempts count.
    public static let window: Double = 3600

    public init(step: Int = Escalation.defaultStep, maximum: Int = Escalation.defaultMaximum) {
        self.step = step
        self.maximum = maximum
    }

    /// The pause for an attempt after `earlierAttempts` pauses of the same
    /// program within the hour (and since its last Exit to Focus).
    public func pause(base: Int, earlierAttempts: Int) -> Int {
        guard earlierAttempts > 0, base < maximum else { return base }
        let (grown, overflow) = step.multipliedReportingOverflow(by: earlierAttempts)
        return overflow || grown >= maximum - base ? maximum : base + grown
    }
}
