import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGATestSupport

/// Commands whose names TOML must quote (`python3.11`, `café`) are found
/// again by the editor: updated in place, and removed whole.
@Suite struct QuotedTableNameTests {
    let folder = TemporaryDirectory()
    var path: String { folder.path + "/config/miga/config.toml" }

    @Test(arguments: ["python3.11", "café", "a\"b", "x.y.z", "back\\slash"])
    func a_quoted_name_is_updated_and_removed_whole(command: String) throws {
        let editor = ConfigEditor(path: path)
        try editor.setProgram("firefox", ProgramChanges(pause: 30))
        try editor.setProgram(command, ProgramChanges(pause: 20))
        try editor.setProgram(command, ProgramChanges(pause: 25))
        var loaded = ConfigLoader.load(from: path)
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        #expect(loaded.config.programs[command]?.pause == 25)
        try editor.removeProgram(command)
        loaded = ConfigLoader.load(from: path)
        #expect(loaded.config.programs[command] == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "[programs.firefox]\npause = 30\n")
    }

    @Test func headers_are_read_as_toml_reads_them() {
        #expect(headerPath(of: "[programs.\"python3.11\"]") == ["programs", "python3.11"])
        #expect(headerPath(of: " [ programs . 'lit.eral' ]  # note") == ["programs", "lit.eral"])
        #expect(headerPath(of: "[programs.\"a\\\"b\\u00e9\"]") == ["programs", "a\"bé"])
        #expect(headerPath(of: "[programs.\"x]y\"]") == ["programs", "x]y"])
        #expect(headerPath(of: "[[array.of.tables]]") == nil)
        #expect(headerPath(of: "pause = 3") == nil)
    }
}

/// The keys of a table header line, as the editor's line reader sees it.
private func headerPath(of line: String) -> [String]? {
    if case .header(let path)? = TOMLText(line).lines.first { return path }
    return nil
}
