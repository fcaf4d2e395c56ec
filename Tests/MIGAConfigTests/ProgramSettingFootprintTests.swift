import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGATestSupport

/// A per-program setting is one entry of `ProgramSetting.all`, its property
/// on `ProgramSettings`, and the code that does what it says: the loader,
/// `protect`'s flags, the editor, the summary, the list and the template
/// follow from the entry. Read from the sources themselves, so a setting
/// spelt out again in plumbing shows here.
@Suite struct ProgramSettingFootprintTests {
    static let sources = ProductSources.folder
    static let code = ProductSources.code

    /// The property a key is held in: `hold_when_unfocused` → `holdWhenUnfocused`.
    static func property(of key: String) -> String {
        let words = key.split(separator: "_")
        return String(words[0]) + words.dropFirst().map(\.capitalized).joined()
    }

    /// Keys that name another setting too, whose files are that setting's:
    /// the top-level `pause_kinds` (everyone's kinds, read by the loader,
    /// written by the summary, counted by the stats). Nothing else: every
    /// per-program setting is its entry, its property, and one file that
    /// uses it.
    static let namesakes: [String: Set<String>] = [
        "pause_kinds": ["MIGAConfig/ConfigLoader.swift", "MIGAConfig/ConfigSummary.swift", "MIGAKit/Stats/StatsReport.swift"],
    ]

    /// The files that spell `setting`: its key in quotes, or its property.
    /// A one-word key (`name`, `pause`, `also`) is an everyday word in code
    /// too, so for those only the forms that can mean the setting count: the
    /// key as the table and the changes spell it (`key: "pause"`,
    /// `changes["pause"]`), the property read from a program's settings
    /// (`settings.pause`); and ProgramSettings' own file, always.
    static func files(spelling setting: ProgramSetting) -> Set<String> {
        let key = setting.key, property = property(of: key)
        let patterns: [String] = key.contains("_")
            ? ["\"\(key)\"", "\\b\(property)\\b"]
            : ["key: \"\(key)\"", "\\b(changes|self)\\[\"\(key)\"\\]", "\\bsettings\\??\\.\(property)\\b"]
        // Simple word boundaries: by default "settings.pause" would be one word.
        let expressions = patterns.map { try! Regex($0).wordBoundaryKind(.simple) }
        // The plain words first: a regular expression over every file is slow.
        let candidates = code.filter { _, text in text.contains(key) || text.contains(property) }
        var found = Set(candidates.filter { _, text in expressions.contains { text.contains($0) } }.keys)
        found.insert("MIGAConfig/Config.swift")
        return found
    }

    @Test func each_key_names_a_property_of_the_settings() {
        let properties = Set(Mirror(reflecting: ProgramSettings(command: "firefox")).children.compactMap(\.label))
        for setting in ProgramSetting.all {
            #expect(properties.contains(Self.property(of: setting.key)), "\(setting.key) has no property \(Self.property(of: setting.key))")
        }
    }

    @Test func the_sources_are_found() {
        #expect(Self.code["MIGAConfig/ProgramSetting.swift"] != nil, "no sources under \(Self.sources.path)")
        #expect(Self.code.count > 50)
    }

    @Test func each_setting_lives_in_its_entry_its_property_and_its_use() {
        for setting in ProgramSetting.all {
            let found = Self.files(spelling: setting)
            let own = found.subtracting(Self.namesakes[setting.key] ?? [])
            #expect(own.count <= 3, "\(setting.key) is spelt in \(own.sorted())")
        }
    }

    @Test func the_namesakes_name_only_files_that_spell_the_key() {
        for (key, files) in Self.namesakes {
            let setting = try! #require(ProgramSetting.named(key))
            #expect(files.isSubset(of: Self.files(spelling: setting)), "\(key): \(files.subtracting(Self.files(spelling: setting)).sorted())")
        }
    }

    /// The kinds of pause are named once, by `PauseKind`: help, the template
    /// and messages list them from `allCases`, so none spells the list again.
    @Test func no_text_lists_the_kinds_of_pause_by_hand() throws {
        let names = PauseKind.allCases.map(\.rawValue)
        // Two kinds in a row, as prose or as code in a comment writes a list: "breathe, type", "`breathe`, `type`".
        let pairs = zip(names, names.dropFirst()).flatMap { ["\($0), \($1)", "`\($0)`, `\($1)`"] }
        for path in Self.code.keys.sorted() {
            // The whole file, comments too: a comment that lists them is as stale the day a kind is added.
            let text = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
            let listed = pairs.filter { text.contains($0) }
            #expect(listed.isEmpty, "\(path) lists the kinds of pause by hand: \(listed)")
        }
    }
}
