import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAConfig

/// `miga protect`'s options come from the table of per-program settings:
/// each setting with a flag is an option in help and in every shell's
/// completions, and its template example given on the command line is the
/// line the config file gets.
@Suite(.endToEnd) struct ProtectOptionsEndToEndTests {
    let sandbox = Sandbox()

    static let flagged = ProgramSetting.all.filter { $0.flag != nil }

    /// The command-line words for a setting's template example: `true` is
    /// the bare flag, `"pass"` is `pass`, `["breathe", "type"]` is `breathe,type`.
    static func arguments(for setting: ProgramSetting) throws -> [String] {
        let flag = try #require(setting.flag), name = "--" + (try #require(setting.flagName))
        if case .toggle = flag.value { return [name] }
        let words = setting.example.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            .split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }
        return [name, words.joined(separator: ",")]
    }

    @Test func every_flagged_setting_is_an_option_in_help_and_completions() throws {
        #expect(Self.flagged.count >= 13)
        let help = try run(migaBinary, ["protect", "--help"], environment: sandbox.environment).output
        let options = try #require(help.components(separatedBy: "OPTIONS:").last)
        let scripts = try ["bash", "zsh"].map { try run(migaBinary, ["--generate-completion-script", $0]).output }
        let fish = try run(migaBinary, ["--generate-completion-script", "fish"]).output
        for setting in Self.flagged {
            let name = try #require(setting.flagName)
            let toggle = if case .toggle = setting.flag?.value { true } else { false }
            #expect(options.contains(toggle ? "--\(name)/--no-\(name)" : "--\(name) <"), "help lists no --\(name)")
            for script in scripts {
                #expect([" ", ")", "[", "'"].contains { script.contains("--\(name)" + $0) }, "a completion script has no --\(name)")
            }
            #expect(fish.contains("-l '\(name)'"), "fish's completions have no --\(name)")
        }
    }

    @Test func each_option_writes_its_setting() throws {
        let arguments = try Self.flagged.flatMap(Self.arguments(for:))
        let protected = try run(migaBinary, ["protect", "argv-dump"] + arguments, environment: sandbox.environment)
        #expect(protected.status == 0, "\(arguments): \(protected.error)")
        let config = try #require(sandbox.read("config/miga/config.toml"))
        let lines = Set(config.split(separator: "\n").map(String.init))
        for setting in Self.flagged {
            let line = "\(setting.key) = \(setting.example)"
            // A value that turns a setting off (at_login's "pause") leaves no line.
            let isOff = setting.isOff(TOMLLiteral(text: setting.example))
            #expect(lines.contains(line) != isOff, "\(line) in\n\(config)")
        }
    }
}
