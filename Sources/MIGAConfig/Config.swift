import MIGACore

/// What a person has chosen: protected programs, interests, the pause length.
///
/// Read from `$XDG_CONFIG_HOME/miga/config.toml`; every field has the default
/// of the design, so a missing or broken file still gives a working gateway.
public struct Config: Equatable, Sendable {
    /// Seconds of the pause (seed D-003).
    public var pause: Int = Config.defaultPause
    /// Quote tags the person cares about (seed D-002); empty means all.
    public var interests: [String] = []
    public var notifications = true
    /// No breathing, no bloom: the screen changes only when the seconds do.
    public var reducedMotion = false
    /// Protected programs by command name (seed D-001).
    public var programs: [String: ProgramSettings] = [:]
    /// Protected websites by their plain name (`youtube.com`, `reddit.com/r/all`),
    /// each with a program's settings, which hold the site as read once, at load.
    public var sites: [String: ProgramSettings] = [:]
    /// The kinds of pause to show, and how to choose among them (each
    /// program may have its own).
    public var pauseKinds: [PauseKind] = PauseKind.defaults
    public var rotate: Rotation = .adaptive
    /// A notification once a week with the week in one line.
    public var weeklyReview = true

    public static let defaultPause = 90
    public static let pauseRange = PauseLength.seconds

    public init() {}

    /// The settings for `command`, matched on its last path component so that
    /// `/usr/bin/firefox` finds `[programs.firefox]`.
    /// A command that is another name of a protected program (`firefox-esr`
    /// for `[programs.firefox]` with `also = ["firefox-esr"]`) finds that program.
    /// A site's history name finds the site's.
    public func settings(for command: String) -> ProgramSettings {
        if let site = Protected(historyName: command)?.site { return sites[site.name] ?? ProgramSettings(.site(site)) }
        let name = baseName(of: command)
        return program(named: name) ?? program(flatpak: name) ?? ProgramSettings(command: name)
    }

    /// The protected program `command` starts: by its own name, or one of its `also`.
    public func program(named command: String) -> ProgramSettings? {
        programs[command] ?? programs.values.sorted { $0.command < $1.command }.first { $0.also.contains(command) }
    }

    /// A name a program goes by on PATH: no path, no option, no blank, nothing unprintable.
    package static func isCommandName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 255 && !name.contains("/") && !name.hasPrefix("-")
            && !name.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }
    }

    /// How long `settings`' program pauses: its own pause, or everyone's.
    package func pause(for settings: ProgramSettings) -> Int {
        settings.pause ?? pause
    }

    /// The kinds of pause `settings`' program is set to show: its own, or everyone's.
    public func kinds(for settings: ProgramSettings) -> [PauseKind] {
        settings.pauseKinds ?? pauseKinds
    }

    /// The kinds `settings`' pauses are chosen among, and how: what the
    /// gateway chooses by, and what the stats say MIGA favours. A kind with
    /// nothing to show is left out of the draw (`KindsInUse.leftOut`), so that
    /// its empty record, never added to, does not win draws for ever, and
    /// "cycle" goes on to the next kind. The checks are asked only when they
    /// matter (each reads files):
    ///   - hasAlternatives: whether there is an alternative to offer (`instead`).
    ///   - hasLinesToType: whether the person's lines or the quotes give a line to type (`type`).
    public func kindsInUse(for settings: ProgramSettings, hasLinesToType: () -> Bool = { true },
                           hasAlternatives: () -> Bool) -> KindsInUse {
        let chosen = kinds(for: settings)
        var leftOut: [PauseKind] = []
        if chosen.count > 1 {
            if chosen.contains(.instead), !hasAlternatives() { leftOut.append(.instead) }
            if chosen.contains(.type), !hasLinesToType() { leftOut.append(.type) }
        }
        var kinds = chosen.filter { !leftOut.contains($0) }
        // Nothing left: the first kind, which its pause turns into a breathing one, saying why.
        if kinds.isEmpty, let first = chosen.first { (kinds, leftOut) = ([first], leftOut.filter { $0 != first }) }
        return KindsInUse(kinds: kinds, rotation: settings.rotate ?? rotate,
                          halfLifeDays: settings.learnHalfLifeDays ?? KindEvidence.defaultHalfLifeDays, leftOut: leftOut)
    }

    /// The settings of the protected site the address `url` pauses as, if any.
    public func site(covering url: String) -> ProgramSettings? {
        Site.covering(url, among: protectedSites).flatMap { sites[$0.name] }
    }

    /// The protected websites, in the order of their names.
    public var protectedSites: [Site] {
        sites.values.compactMap(\.protected.site).sorted { $0.name < $1.name }
    }

    /// The protected program that is the Flatpak app `appID`, if any.
    public func program(flatpak appID: String) -> ProgramSettings? {
        programs.values.sorted { $0.command < $1.command }.first { $0.flatpak == appID }
    }
}

extension ProgramChanges {
    /// The change that gives a program `kinds` of its own.
    public static func kinds(_ kinds: [PauseKind]) -> ProgramChanges {
        var changes = ProgramChanges()
        changes["pause_kinds"] = .strings(kinds.map(\.rawValue))
        return changes
    }
}

/// One protected program (or site) and its own settings.
public struct ProgramSettings: Equatable, Sendable {
    /// The program or the site these settings are of.
    public var protected: Protected
    /// Its name in the history: a program's command, or a site's history name.
    public var command: String { protected.historyName }
    /// How the program is called on screen ("Proceed to Firefox").
    public var name: String?
    public var icon: String?
    /// Overrides the default pause for this program.
    public var pause: Int?
    /// What to do when launched without a terminal (from a script, another program).
    public var nonInteractive: NonInteractivePolicy = .pass
    /// After a Proceed, minutes in which the program opens again without a pause.
    public var allowMinutes: Double?
    /// The allowance in seconds; nil when the program has none.
    public var allowance: Double? { allowMinutes.map { $0 * 60 } }
    /// Each further attempt within the hour lengthens the pause.
    public var escalate = false
    public var escalateStep = Escalation.defaultStep
    public var escalateMax = Escalation.defaultMaximum
    /// Protected only inside these hours; nil means always.
    public var hours: FocusHours?
    /// The countdown holds while the terminal window is not focused.
    public var holdWhenUnfocused = false
    /// "What are you opening NAME for?" before Proceed.
    public var askIntention = false
    /// What a start at login does: pause in a window, not start, or start unpaused.
    public var atLogin: LoginPolicy = .pause
    /// The Flatpak app this program is, when it is one: `flatpak run` of it,
    /// and its exported command, pause as this program.
    public var flatpak: String?
    /// The other commands that start the same program (`firefox-esr` beside
    /// `firefox`): each has its shim, and each pauses as this program.
    public var also: [String] = []
    /// This program's own kinds of pause and rotation; nil: the config's.
    public var pauseKinds: [PauseKind]?
    public var rotate: Rotation?
    /// After how many days a pause weighs half in the learner's choice; nil: `KindEvidence.defaultHalfLifeDays`.
    public var learnHalfLifeDays: Double?

    public static let allowRange = 0.0...1440
    public static let halfLifeRange = 1.0...3650
    public static let escalateRange = 1...3600

    public init(_ protected: Protected, name: String? = nil, icon: String? = nil, pause: Int? = nil,
                nonInteractive: NonInteractivePolicy = .pass) {
        self.protected = protected
        self.name = name
        self.icon = icon
        self.pause = pause
        self.nonInteractive = nonInteractive
    }

    /// The settings of the program `command`.
    public init(command: String, name: String? = nil, icon: String? = nil, pause: Int? = nil,
                nonInteractive: NonInteractivePolicy = .pass) {
        self.init(.program(command), name: name, icon: icon, pause: pause, nonInteractive: nonInteractive)
    }

    /// Every command that starts this program: its own, then its `also`.
    package var commands: [String] { [command] + also }

    /// The ladder, when `escalate` is on.
    public var escalation: Escalation? {
        escalate ? Escalation(step: escalateStep, maximum: escalateMax) : nil
    }

    /// The optional rules that are on, in words, for `miga list`.
    public var features: [String] {
        ProgramSetting.all.compactMap { $0.rule(self) }
    }

    /// `15 min`, `0.5 min`.
    static func minutes(_ value: Double) -> String {
        (value == value.rounded() ? String(Int(value)) : String(value)) + " min"
    }

    /// The configured name, or the command with a capital first letter.
    public var displayName: String {
        if let name, !name.isEmpty { return name }
        switch protected {
        // String + String: `+` of a Substring is a generic whose first use looks types up by name.
        case .program(let command): return command.prefix(1).uppercased() + String(command.dropFirst())
        case .site(let site): return site.name
        }
    }
}

/// The kinds one program's pauses are chosen among, and how.
public struct KindsInUse: Equatable, Sendable {
    /// In the person's order.
    public let kinds: [PauseKind]
    public let rotation: Rotation
    /// After how many days a pause weighs half in choosing (`KindEvidence.discounted`).
    public let halfLifeDays: Double
    /// Kinds chosen but left out of the draw: they have nothing to show (see `whyLeftOut`).
    public let leftOut: [PauseKind]

    public init(kinds: [PauseKind], rotation: Rotation, halfLifeDays: Double = KindEvidence.defaultHalfLifeDays,
                leftOut: [PauseKind] = []) {
        self.kinds = kinds
        self.rotation = rotation
        self.halfLifeDays = halfLifeDays
        self.leftOut = leftOut
    }

    /// Why `kind` has nothing to show, and what gives it something: for the
    /// pause that falls back to breathing, `miga stats` and `miga doctor`.
    public static func whyLeftOut(_ kind: PauseKind) -> String {
        switch kind {
        case .type: "no line to type (miga quotes add \"…\" --tag mine)"
        case .instead: "no alternatives yet (miga instead add \"read ten pages\")"
        case .breathe, .intention: "nothing to show"
        }
    }

    /// MIGA chooses by what has worked: `adaptive`, among two kinds or more.
    public var learns: Bool { rotation == .adaptive && Set(kinds).count > 1 }
}
