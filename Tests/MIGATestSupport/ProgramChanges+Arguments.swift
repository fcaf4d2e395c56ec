import MIGACore
import MIGAConfig

extension ProgramChanges {
    /// Changes named one argument each, as tests spell them out; nil leaves
    /// a setting as it is. (`miga protect` builds its changes from its
    /// options, which come from `ProgramSetting.all`.)
    public init(name: String? = nil, pause: Int? = nil, nonInteractive: NonInteractivePolicy? = nil,
                allowMinutes: Double? = nil, escalate: Bool? = nil, escalateStep: Int? = nil, escalateMax: Int? = nil,
                hours: String? = nil, holdWhenUnfocused: Bool? = nil, askIntention: Bool? = nil, atLogin: LoginPolicy? = nil,
                pauseKinds: [String]? = nil, rotate: Rotation? = nil) {
        self.init()
        self["name"] = name.map { .string($0) }
        self["pause"] = pause.map { .integer($0) }
        self["non_interactive"] = nonInteractive.map { .string($0.rawValue) }
        self["allow_minutes"] = allowMinutes.map { .number($0) }
        self["escalate"] = escalate.map { .boolean($0) }
        self["escalate_step"] = escalateStep.map { .integer($0) }
        self["escalate_max"] = escalateMax.map { .integer($0) }
        self["hours"] = hours.map { .string($0) }
        self["hold_when_unfocused"] = holdWhenUnfocused.map { .boolean($0) }
        self["ask_intention"] = askIntention.map { .boolean($0) }
        self["at_login"] = atLogin.map { .string($0.rawValue) }
        self["pause_kinds"] = pauseKinds.map { .strings($0) }
        self["rotate"] = rotate.map { .string($0.rawValue) }
    }
}
