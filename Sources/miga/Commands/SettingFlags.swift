import ArgumentParser
import MIGACore
import MIGAKit
import MIGAConfig

/// `miga protect`'s options for a program's settings: one for each entry of
/// `ProgramSetting.all` that has a flag, in the table's order, so a new
/// setting's flag, help and completions come with its entry. The argument
/// parser finds options by reflecting on a value; the mirror here hands it
/// the table's, and reading them back goes by the same keys.
struct SettingFlags: ParsableArguments, CustomReflectable {
    /// What the flags given ask to change; a setting not named stays as it is.
    private(set) var changes = ProgramChanges()

    init() {}

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: SettingKey.self)
        for (key, option) in Self.options {
            changes[key] = try option.read(container, SettingKey(stringValue: key))
        }
    }

    var customMirror: Mirror {
        Mirror(self, children: Self.options.map { (label: $0.key, value: $0.option.declaration) })
    }

    /// Each setting's option, by its key.
    static var options: [(key: String, option: SettingOption)] {
        ProgramSetting.all.compactMap { setting in
            guard let flag = setting.flag, let name = setting.flagName else { return nil }
            return (setting.key, SettingOption(flag, name: .customLong(name)))
        }
    }
}

/// A setting's key, as the parser files its value.
struct SettingKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// One setting's option as the parser takes it: the property wrapper it
/// reflects on, and how the value given becomes the config's.
struct SettingOption {
    typealias Container = KeyedDecodingContainer<SettingKey>

    let declaration: Any
    let read: (Container, SettingKey) throws -> TOMLLiteral?

    init(_ flag: ProgramSetting.Flag, name: NameSpecification) {
        let help = ArgumentHelp(flag.help, valueName: flag.valueName)
        switch flag.value {
        case .toggle:
            self.init(declaration: Flag<Bool?>(name: name, inversion: .prefixedNo, help: help)) { container, key in
                try container.decode(Flag<Bool?>.self, forKey: key).wrappedValue.map { .boolean($0) }
            }
        case .integer: self.init(name, help, Int.self) { .integer($0) }
        case .number: self.init(name, help, Double.self) { .number($0) }
        case .text: self.init(name, help, String.self) { .string($0) }
        case .list: self.init(name, help, String.self) { .strings(ProgramSetting.Flag.words($0)) }
        case .choice(let type):
            guard let type = type as? any (SettingChoice & ExpressibleByArgument).Type else {
                preconditionFailure("\(type) takes no command-line argument")
            }
            self.init(name, help, choice: type)
        }
    }

    /// An option whose value is one of a type's words, listed in help and completions.
    private init<Value: SettingChoice & ExpressibleByArgument>(_ name: NameSpecification, _ help: ArgumentHelp, choice: Value.Type) {
        self.init(name, help, Value.self) { .string($0.rawValue) }
    }

    private init<Value: ExpressibleByArgument>(_ name: NameSpecification, _ help: ArgumentHelp, _: Value.Type,
                                               literal: @escaping (Value) -> TOMLLiteral) {
        self.init(declaration: Option<Value?>(wrappedValue: nil, name: name, help: help)) { container, key in
            try container.decode(Option<Value?>.self, forKey: key).wrappedValue.map(literal)
        }
    }

    private init(declaration: Any, read: @escaping (Container, SettingKey) throws -> TOMLLiteral?) {
        self.declaration = declaration
        self.read = read
    }
}

/// The words of a setting, as its option takes them: help, the manual and
/// the completions list them from the type itself.
extension NonInteractivePolicy: ExpressibleByArgument {}
extension LoginPolicy: ExpressibleByArgument {}
extension Rotation: ExpressibleByArgument {}
