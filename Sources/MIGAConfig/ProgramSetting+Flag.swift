import FoundationEssentials
import MIGACore

/// A type whose words a setting takes (`"pass"`, `"terminal"`, `"deny"`):
/// its flag on `miga protect` offers them, and help and completions list
/// them from the type.
public protocol SettingChoice: CaseIterable, RawRepresentable<String>, Sendable {}

extension NonInteractivePolicy: SettingChoice {}
extension LoginPolicy: SettingChoice {}
extension Rotation: SettingChoice {}

extension ProgramSetting {
    /// How `miga protect` takes the setting on its command line. The command
    /// declares its options from these, so a setting's flag, its help and its
    /// completions come with its entry.
    public struct Flag: Sendable {
        /// What follows the flag on the command line.
        public enum Value: Sendable {
            /// Nothing: `--escalate` turns it on, `--no-escalate` off.
            case toggle
            case integer
            case number
            case text
            /// Comma-separated words, written as a list: `breathe,type`.
            case list
            /// One of a type's words.
            case choice(any SettingChoice.Type)
        }

        /// The flag's name after `--`; nil: the key, with hyphens.
        let long: String?
        public let value: Value
        /// What help calls the value: `--pause <seconds>`.
        public let valueName: String?
        public let help: String

        static func toggle(_ help: String) -> Flag {
            Flag(long: nil, value: .toggle, valueName: nil, help: help)
        }

        static func option(_ value: Value, named long: String? = nil, valueName: String? = nil, _ help: String) -> Flag {
            Flag(long: long, value: value, valueName: valueName, help: help)
        }

        /// The words of a `.list` value: `"a, b"` → `["a", "b"]`.
        public static func words(_ text: String) -> [String] {
            text.split(separator: ",").map { $0.trimmingWhitespace() }
        }
    }

    /// The name of its flag on `miga protect`, after `--`.
    public var flagName: String? {
        flag.map { $0.long ?? key.replacingOccurrences(of: "_", with: "-") }
    }
}
