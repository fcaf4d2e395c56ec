import TOMLKit

/// Settings of one program to change, as `miga protect` and setup ask: a
/// setting not named stays as it is. A value that turns an optional rule
/// off removes its line, so the file says only what differs from the
/// defaults. Each value is checked by the same reading as the config file's
/// (`ProgramSetting`), so a value `protect` accepts is one the file accepts.
public struct ProgramChanges: Equatable, Sendable {
    /// The new values, by key, as they would be written.
    public private(set) var values: [String: TOMLLiteral] = [:]

    /// The word that turns focus hours off.
    public static let always = "always"

    public init() {}

    /// The new value of the setting `key`, or nil to leave it. A key that is
    /// no setting is a programming error.
    public subscript(key: String) -> TOMLLiteral? {
        get { values[key] }
        set {
            precondition(ProgramSetting.named(key) != nil, "\(key) is not a program setting")
            values[key] = newValue
        }
    }

    /// The display name asked for, if any.
    public var name: String? {
        get { values["name"]?.value?.string }
        set { self["name"] = newValue.map { .string($0) } }
    }

    /// The first value the config would not take, in words for the person; nil when all are good.
    public var problem: String? {
        for setting in ProgramSetting.all {
            guard let literal = values[setting.key], !setting.isOff(literal) else { continue }
            var scratch = ProgramSettings(command: "")
            guard let value = literal.value else {
                return "\(setting.noun) cannot be written as \(literal.text)"
            }
            if let problem = setting.read(value, &scratch) {
                // "the pause must be …", "the hours "Mon 9-17" cannot be read: …"
                return setting.noun + (problem.text.hasPrefix(":") ? " \(literal.text) cannot be read" : " ") + problem.text
            }
        }
        return nil
    }

    /// The first change a site cannot take (a setting only a program has), in words; nil when there is none.
    public var siteProblem: String? {
        ProgramSetting.all.first { $0.programsOnly && values[$0.key] != nil }
            .map { "\($0.noun) is a setting of a program, not of a site" }
    }

    /// The lines to write, in the order a new table lists them.
    var edits: [(key: String, change: SettingChange)] {
        ProgramSetting.all.compactMap { setting in
            values[setting.key].map { (setting.key, setting.isOff($0) ? .remove : .set($0)) }
        }
    }
}

/// One line of a table to write or to take out.
enum SettingChange: Equatable {
    case set(TOMLLiteral)
    case remove
}

extension TOMLLiteral {
    /// The value as TOML reads it back.
    var value: TOMLValueConvertible? { (try? TOMLTable(string: "v = " + text))?["v"] }
}
