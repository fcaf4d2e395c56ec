import Foundation
import Testing
import TOMLKit
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGATestSupport

/// The one reading of TOML lines that the loader and the editor share,
/// held to TOMLKit's own reading of the same texts.
@Suite struct TOMLTextTests {
    static let tricky = #"""
        # [not.a.table] in a comment
        pause = 30 # = not a key
        note = """
        [inside.a.string]
        key = "also inside"
        """
        interests = [
          "Zen",   # a comment in an array
          "Rest",
        ]

        [programs."python3.11"]
        name = "Py [3.11]"
        'literal.key' = 1

        [ programs . 'lit.eral' ]  # spaced
        "quoted\u0041" = true

        [[array.of.tables]]
        x = 1
        """#

    @Test func lines_are_classified_outside_strings_only() {
        let kinds = TOMLText(Self.tricky).lines
        #expect(kinds[0] == .comment)
        #expect(kinds[1] == .keyValue(["pause"]))
        #expect(kinds[2] == .keyValue(["note"]))
        #expect(kinds[3] == .other && kinds[4] == .other, "inside a multi-line string")
        #expect(kinds[11] == .header(["programs", "python3.11"]))
        #expect(kinds[13] == .keyValue(["literal.key"]))
        #expect(kinds[15] == .header(["programs", "lit.eral"]))
        #expect(kinds[16] == .keyValue(["quotedA"]))
        #expect(kinds[18] == .arrayHeader(["array", "of", "tables"]))
    }

    /// Every key TOMLKit reads is found, at a line that names it.
    @Test func every_key_tomlkit_reads_is_located() throws {
        let table = try TOMLTable(string: Self.tricky)
        let toml = TOMLText(Self.tricky)
        let locator = KeyLocator(text: Self.tricky, toml: toml)
        func walk(_ table: TOMLTable, _ path: [String]) {
            for key in table.keys {
                let full = path + [key]
                #expect(locator.location(of: full) != nil, "\(full) is not located")
                if let inner = table[key]?.table { walk(inner, full) }
            }
        }
        walk(table, [])
    }

    @Test func a_wrong_value_under_a_quoted_table_name_is_reported_at_its_line() {
        let loaded = ConfigLoader.parse("[programs.\"python3.11\"]\npause = \"x\"\n", file: "config.toml")
        let problem = loaded.problems.first
        #expect(problem?.line == 2 && problem?.column == 1, "\(loaded.problems)")
    }

    @Test func the_editor_finds_tables_as_the_loader_does() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/config.toml"
        try Self.tricky.write(toFile: path, atomically: true, encoding: .utf8)
        let editor = ConfigEditor(path: path)
        try editor.setProgram("python3.11", ProgramChanges(pause: 45))
        try editor.setProgram("lit.eral", ProgramChanges(pause: 50))
        let config = ConfigLoader.load(from: path).config
        #expect(config.programs["python3.11"]?.pause == 45)
        #expect(config.programs["lit.eral"]?.pause == 50)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("[inside.a.string]\nkey = \"also inside\"\n"), "the string is untouched")
        try editor.removeProgram("python3.11")
        #expect(ConfigLoader.load(from: path).config.programs["python3.11"] == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("[[array.of.tables]]\nx = 1"))
    }
}
