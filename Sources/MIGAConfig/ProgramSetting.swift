import MIGACore
import TOMLKit

/// One setting of a program's table, described once: its key, how a value
/// is read and checked, when it counts as off, how `miga config` writes it
/// in effect, how `miga list` shows it (a column, or among the rules), its line in the
/// template, and its option on `miga protect`. The loader, `protect`'s
/// options and changes (and their checks), the editor, the summary, the
/// list and the template all come from `ProgramSetting.all`:
/// a new per-program setting is one entry here, plus what it does.
public struct ProgramSetting: Sendable {
    /// Why a value was not taken: the words after the key ("must be true or
    /// false, not 3"), and what MIGA does instead ("using the default").
    struct Problem: Equatable {
        let text: String
        let consequence: String?
    }

    /// The key in `[programs.NAME]`.
    public let key: String
    /// What it is, to begin a sentence about a bad value: "the pause".
    let noun: String
    /// Its line in the template: an example value, and what it does.
    let example: String
    let comment: String
    /// Takes a value from the file into `settings`, or says what is wrong with it.
    let read: @Sendable (_ value: TOMLValueConvertible, _ settings: inout ProgramSettings) -> Problem?
    /// A value that turns the setting off: its line goes rather than being written.
    let isOff: @Sendable (TOMLLiteral) -> Bool
    /// The right-hand side `miga config` shows for it in effect; nil leaves its line out.
    let effective: @Sendable (_ settings: ProgramSettings, _ config: Config) -> String?
    /// How `miga list` names it among a program's rules, when it is on.
    let rule: @Sendable (ProgramSettings) -> String?
    /// Its option on `miga protect`, if it has one.
    public let flag: Flag?
    /// Its column in `miga list`, if it has one.
    package var column: Column? = nil
    /// A setting only a program has: how it is started (a terminal, a login,
    /// Flatpak, other commands). A site's table has every other one.
    package var programsOnly = false

    /// A column of `miga list`: its header, and the value in effect.
    package struct Column: Sendable {
        package let header: String
        package let value: @Sendable (ProgramSettings) -> String
    }

    /// The columns of `miga list`, in the table's order.
    package static var columns: [Column] { all.compactMap(\.column) }
    /// The columns of a site's row in `miga list`: those of the settings a site has.
    package static var siteColumns: [Column] { all.filter { !$0.programsOnly }.compactMap(\.column) }

    /// Every per-program setting, in the order a new table lists them.
    public static let all: [ProgramSetting] = [
        ProgramSetting(
            key: "name", noun: "the name", example: "\"Firefox\"", comment: "as shown: \"Proceed to Firefox\"",
            read: { value, settings in text(value) { settings.name = $0 } },
            isOff: { _ in false },
            effective: { settings, _ in ConfigEditor.quoted(settings.displayName) },
            rule: { _ in nil },
            flag: .option(.text, "How the program is called on screen (one command only).")),
        ProgramSetting(
            key: "icon", noun: "the icon", example: "\"firefox\"", comment: "an icon name of your own; MIGA keeps it and shows a glyph",
            read: { value, settings in text(value) { settings.icon = $0 } },
            isOff: { _ in false },
            effective: { settings, _ in settings.icon.map(ConfigEditor.quoted) },
            rule: { _ in nil },
            flag: nil,
            programsOnly: true),
        ProgramSetting(
            key: "pause", noun: "the pause", example: "60", comment: "this program's own pause, in seconds",
            read: { value, settings in seconds(value, in: Config.pauseRange) { settings.pause = $0 } },
            isOff: { _ in false },
            effective: { settings, config in settings.pause.map(String.init) ?? "\(config.pause)   # the default" },
            rule: { _ in nil },
            flag: .option(.integer, valueName: "seconds", "This program's own pause, in seconds (1–3600)."),
            column: Column(header: "pause") { settings in settings.pause.map { "\($0) s" } ?? "default" }),
        ProgramSetting(
            key: "non_interactive", noun: "the policy without a terminal", example: "\"pass\"", comment: "or \"terminal\", or \"deny\"",
            read: { value, settings in choice(value, otherwise: NonInteractivePolicy.pass) { settings.nonInteractive = $0 } },
            isOff: { _ in false },
            effective: { settings, _ in ConfigEditor.quoted(settings.nonInteractive.rawValue) },
            rule: { _ in nil },
            flag: .option(.choice(NonInteractivePolicy.self), valueName: "policy",
                "What to do when started without a terminal: pass (run at once), terminal (the pause in a "
                + "terminal window) or deny."),
            column: Column(header: "no terminal") { settings in settings.nonInteractive.rawValue },
            programsOnly: true),
        ProgramSetting(
            key: "allow_minutes", noun: "the allowance", example: "15",
            comment: "after a Proceed, open again without a pause for 15 minutes",
            read: { value, settings in
                let minutes = value.double ?? value.int.map(Double.init)
                guard let minutes, ProgramSettings.allowRange.contains(minutes) else {
                    return Problem(text: "must be a number of minutes from 0 (none) to \(Int(ProgramSettings.allowRange.upperBound)), not \(shown(value))",
                                   consequence: "no allowance")
                }
                settings.allowMinutes = minutes > 0 ? minutes : nil
                return nil
            },
            isOff: { $0 == .integer(0) || $0 == .number(0) },
            effective: { settings, _ in settings.allowMinutes.map { TOMLLiteral.number($0).text } },
            rule: { settings in settings.allowMinutes.map { "allow \(ProgramSettings.minutes($0))" } },
            flag: .option(.number, named: "allow", valueName: "minutes",
                "After a Proceed, open again without a pause for this many minutes (0: off).")),
        ProgramSetting(
            key: "escalate", noun: "escalation", example: "true", comment: "each further try within the hour adds to the pause…",
            read: { value, settings in flag(value) { settings.escalate = $0 } },
            isOff: { $0 == .boolean(false) },
            effective: { settings, _ in settings.escalate ? "true" : nil },
            rule: { settings in settings.escalate ? "escalate +\(settings.escalateStep) s to \(settings.escalateMax) s" : nil },
            flag: .toggle("Lengthen the pause with each further try within the hour.")),
        ProgramSetting(
            key: "escalate_step", noun: "the escalation step", example: "30", comment: "…this many seconds…",
            read: { value, settings in seconds(value, in: ProgramSettings.escalateRange) { settings.escalateStep = $0 } },
            isOff: { _ in false },
            effective: { settings, _ in settings.escalate ? String(settings.escalateStep) : nil },
            rule: { _ in nil },
            flag: .option(.integer, valueName: "seconds", "Seconds each further try adds (default 30).")),
        ProgramSetting(
            key: "escalate_max", noun: "the escalation cap", example: "300", comment: "…up to this long in all",
            read: { value, settings in seconds(value, in: ProgramSettings.escalateRange) { settings.escalateMax = $0 } },
            isOff: { _ in false },
            effective: { settings, _ in settings.escalate ? String(settings.escalateMax) : nil },
            rule: { _ in nil },
            flag: .option(.integer, valueName: "seconds", "The longest the pause grows to, in seconds (default 300).")),
        ProgramSetting(
            key: "hours", noun: "the hours", example: "\"Mon-Fri 09:00-17:00; Sat,Sun 10:00-12:00\"", comment: "protected only then",
            read: { value, settings in
                guard let text = value.string else { return Problem(text: "must be a string in quotes, not \(shown(value))", consequence: nil) }
                do {
                    settings.hours = try FocusHours(text)
                    return nil
                } catch {
                    return Problem(text: ": \(error)", consequence: "protecting at all hours")
                }
            },
            isOff: { $0 == .string(ProgramChanges.always) },
            effective: { settings, _ in settings.hours.map { ConfigEditor.quoted($0.description) } },
            rule: { settings in settings.hours.map { "hours \($0)" } },
            flag: .option(.text, valueName: "hours",
                "Protect only inside these hours, like \"Mon-Fri 09:00-17:00; Sat 10:00-12:00\" (always: off).")),
        ProgramSetting(
            key: "hold_when_unfocused", noun: "holding when unfocused", example: "true",
            comment: "the countdown holds while the window is not focused",
            read: { value, settings in flag(value) { settings.holdWhenUnfocused = $0 } },
            isOff: { $0 == .boolean(false) },
            effective: { settings, _ in settings.holdWhenUnfocused ? "true" : nil },
            rule: { settings in settings.holdWhenUnfocused ? "hold when unfocused" : nil },
            flag: .toggle("Hold the countdown while the terminal window is not focused.")),
        ProgramSetting(
            key: "ask_intention", noun: "asking the intention", example: "true",
            comment: "\"What are you opening Firefox for?\" before it opens",
            read: { value, settings in flag(value) { settings.askIntention = $0 } },
            isOff: { $0 == .boolean(false) },
            effective: { settings, _ in settings.askIntention ? "true" : nil },
            rule: { settings in settings.askIntention ? "ask intention" : nil },
            flag: .toggle("Ask what the program is being opened for before it opens.")),
        ProgramSetting(
            key: "at_login", noun: "the start at login", example: "\"pause\"",
            comment: "when it starts itself at login: or \"skip\" (not started), or \"pass\" (no pause)",
            read: { value, settings in choice(value, otherwise: LoginPolicy.pause) { settings.atLogin = $0 } },
            isOff: { $0 == .string(LoginPolicy.pause.rawValue) },
            effective: { settings, _ in ConfigEditor.quoted(settings.atLogin.rawValue) },
            rule: { settings in settings.atLogin == .pause ? nil : "at login: \(settings.atLogin.rawValue)" },
            flag: .option(.choice(LoginPolicy.self), valueName: "policy",
                "When it starts itself at login: pause (in a window), skip (not started) or pass (no pause)."),
            programsOnly: true),
        ProgramSetting(
            key: "flatpak", noun: "the Flatpak app", example: "\"com.discordapp.Discord\"",
            comment: "the Flatpak app this is (protect finds it); flatpak run of it pauses too",
            read: { value, settings in
                guard let id = value.string, FlatpakRun.isAppID(id) else {
                    return Problem(text: "must be a Flatpak app ID like \"com.discordapp.Discord\", not \(shown(value))", consequence: nil)
                }
                settings.flatpak = id
                return nil
            },
            isOff: { $0 == .string("") },
            effective: { settings, _ in settings.flatpak.map(ConfigEditor.quoted) },
            rule: { settings in settings.flatpak.map { "Flatpak \($0)" } },
            flag: nil,
            programsOnly: true),
        ProgramSetting(
            key: "also", noun: "the other commands", example: "[\"firefox-esr\"]",
            comment: "other commands that start the same program (protect finds them); each pauses as this one",
            read: { value, settings in
                guard let array = value.array else {
                    return Problem(text: "must be a list of command names, like [\"firefox-esr\"], not \(shown(value))", consequence: nil)
                }
                var names: [String] = []
                for element in array {
                    guard let name = element.string, Config.isCommandName(name) else {
                        return Problem(text: "holds \(shown(element)), which is not a command name", consequence: nil)
                    }
                    if name != settings.command, !names.contains(name) { names.append(name) }
                }
                settings.also = names
                return nil
            },
            isOff: { $0 == .strings([]) },
            effective: { settings, _ in settings.also.isEmpty ? nil : TOMLLiteral.strings(settings.also).text },
            rule: { settings in settings.also.isEmpty ? nil : "also " + settings.also.joined(separator: ", ") },
            flag: nil,
            programsOnly: true),
        ProgramSetting(
            key: "pause_kinds", noun: "the list of kinds of pause", example: "[\"breathe\", \"type\"]",
            comment: "this program's own: " + PauseKind.names(glossing: [.type: "a line typed back"]),
            read: { value, settings in kinds(value, otherwise: "using the top-level pause_kinds") { settings.pauseKinds = $0 } },
            isOff: { _ in false },
            // Written only when the program has its own: the summary's top holds everyone's.
            effective: { settings, _ in settings.pauseKinds.map { TOMLLiteral.strings($0.map(\.rawValue)).text } },
            rule: { settings in settings.pauseKinds.map { "kinds " + $0.map(\.rawValue).joined(separator: ", ") } },
            flag: .option(.list, named: "kinds", valueName: "kinds",
                "The kinds of pause to show, comma-separated: "
                            + PauseKind.names(glossing: [.type: "a line typed back", .instead: "one of your alternatives"]) + ".")),
        ProgramSetting(
            key: "rotate", noun: "the rotation", example: "\"adaptive\"",
            comment: "how the kind is chosen: or \"cycle\" (in turn), or \"off\" (the first)",
            read: { value, settings in choice(value, otherwise: Rotation.adaptive) { settings.rotate = $0 } },
            isOff: { _ in false },
            effective: { settings, _ in settings.rotate.map { ConfigEditor.quoted($0.rawValue) } },
            rule: { settings in settings.rotate.map { "rotate \($0.rawValue)" } },
            flag: .option(.choice(Rotation.self), valueName: "rotation",
                "How the kind is chosen: adaptive (learns which ends in an exit for you), cycle (in turn) "
                + "or off (the first).")),
        ProgramSetting(
            key: "learn_half_life_days", noun: "the learner's half-life", example: "14",
            comment: "adaptive: a pause weighs half as much in choosing the kind after this many days",
            read: { value, settings in
                let days = value.double ?? value.int.map(Double.init)
                guard let days, ProgramSettings.halfLifeRange.contains(days) else {
                    let range = ProgramSettings.halfLifeRange
                    return Problem(text: "must be a number of days from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not \(shown(value))",
                                   consequence: "using \(wholeNumber(KindEvidence.defaultHalfLifeDays))")
                }
                settings.learnHalfLifeDays = days
                return nil
            },
            isOff: { _ in false },
            effective: { settings, _ in settings.learnHalfLifeDays.map { TOMLLiteral.number($0).text } },
            rule: { settings in settings.learnHalfLifeDays.map { "learns with a \(TOMLLiteral.number($0).text)-day half-life" } },
            flag: .option(.number, named: "learn-half-life", valueName: "days",
                "Adaptive rotation: after this many days a pause weighs half as much in choosing the kind (1–3650).")),
    ]

    /// The setting of `key`, if there is one.
    static func named(_ key: String) -> ProgramSetting? { all.first { $0.key == key } }
}
