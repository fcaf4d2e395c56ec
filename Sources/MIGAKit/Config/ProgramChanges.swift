/// Settings of one program to change, as `miga protect` and setup ask:
/// nil leaves a setting as it is. Turning an optional rule off removes its
/// line, so the file says only what differs from the defaults.
public struct ProgramChanges: Equatable, Sendable {
    public var name: String?
    public var pause: Int?
    public var nonInteractive: NonInteractivePolicy?
    /// Minutes of allowance; 0 turns it off.
    public var allowMinutes: Double?
    public var escalate: Bool?
    public var escalateStep: Int?
    public var escalateMax: Int?
    /// Focus hours; "always" turns them off.
    public var hours: String?
    public var holdWhenUnfocused: Bool?
    public var askIntention: Bool?

    public init(name: String? = nil, pause: Int? = nil, nonInteractive: NonInteractivePolicy? = nil,
                allowMinutes: Double? = nil, escalate: Bool? = nil, escalateStep: Int? = nil, escalateMax: Int? = nil,
                hours: String? = nil, holdWhenUnfocused: Bool? = nil, askIntention: Bool? = nil) {
        self.name = name
        self.pause = pause
        self.nonInteractive = nonInteractive
        self.allowMinutes = allowMinutes
        self.escalate = escalate
        self.escalateStep = escalateStep
        self.escalateMax = escalateMax
        self.hours = hours
        self.holdWhenUnfocused = holdWhenUnfocused
        self.askIntention = askIntention
    }

    /// The first value out of range, in words for the person; nil when all are good.
    public var problem: String? {
        if let pause, !Config.pauseRange.contains(pause) {
            return "the pause must be a whole number of seconds from \(Config.pauseRange.lowerBound) to \(Config.pauseRange.upperBound)"
        }
        if let allowMinutes, !(allowMinutes >= 0 && allowMinutes <= ProgramSettings.allowRange.upperBound) {
            return "the allowance must be a number of minutes from 0 (none) to \(Int(ProgramSettings.allowRange.upperBound))"
        }
        for (label, seconds) in [("escalation step", escalateStep), ("escalation cap", escalateMax)] {
            if let seconds, !ProgramSettings.escalateRange.contains(seconds) {
                return "the \(label) must be a whole number of seconds from \(ProgramSettings.escalateRange.lowerBound) to \(ProgramSettings.escalateRange.upperBound)"
            }
        }
        if let hours, hours != Self.always {
            do { _ = try FocusHours(hours) } catch { return "the hours \"\(hours)\" cannot be read: \(error)" }
        }
        return nil
    }

    /// The word that turns focus hours off.
    public static let always = "always"

    /// The lines to write, in the order they appear in a new table.
    var edits: [(key: String, change: SettingChange)] {
        func flag(_ value: Bool?) -> SettingChange? { value.map { $0 ? .set(.boolean(true)) : .remove } }
        let all: [(String, SettingChange?)] = [
            ("name", name.map { .set(.string($0)) }),
            ("pause", pause.map { .set(.integer($0)) }),
            ("non_interactive", nonInteractive.map { .set(.string($0.rawValue)) }),
            ("allow_minutes", allowMinutes.map { $0 == 0 ? .remove : .set(.number($0)) }),
            ("escalate", flag(escalate)),
            ("escalate_step", escalateStep.map { .set(.integer($0)) }),
            ("escalate_max", escalateMax.map { .set(.integer($0)) }),
            ("hours", hours.map { $0 == Self.always ? .remove : .set(.string($0)) }),
            ("hold_when_unfocused", flag(holdWhenUnfocused)),
            ("ask_intention", flag(askIntention)),
        ]
        return all.compactMap { key, change in change.map { (key, $0) } }
    }
}

/// One line of a table to write or to take out.
enum SettingChange: Equatable {
    case set(TOMLLiteral)
    case remove
}
