import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGATestSupport

@Suite struct ConfigEditorTests {
    let folder = TemporaryDirectory()
    var path: String { folder.path + "/config/miga/config.toml" }
    var editor: ConfigEditor { ConfigEditor(path: path) }

    func contents() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func a_first_program_creates_a_private_file() throws {
        try editor.setProgram("firefox", ProgramChanges(name: "Firefox", pause: 60))
        #expect(try contents() == "[programs.firefox]\nname = \"Firefox\"\npause = 60\n")
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(ConfigLoader.load(from: path).config.programs["firefox"]?.pause == 60)
    }

    @Test func the_persons_comments_and_layout_are_kept() throws {
        let original = """
            # my settings
            pause = 45   # a little shorter

            interests = ["Zen"]
            """
        try folder.write(original + "\n", to: "config/miga/config.toml")
        try editor.setProgram("steam", ProgramChanges(nonInteractive: .deny))
        #expect(try contents() == original + "\n\n[programs.steam]\nnon_interactive = \"deny\"\n")
        try editor.removeProgram("steam")
        #expect(try contents() == original + "\n")
    }

    @Test func an_existing_table_is_updated_in_place() throws {
        try folder.write("""
            [programs.firefox]
            # chosen by hand
            pause = 30
            icon = "firefox"

            [programs.steam]
            pause = 120
            """ + "\n", to: "config/miga/config.toml")
        try editor.setProgram("firefox", ProgramChanges(name: "Firefox", pause: 50))
        #expect(try contents() == """
            [programs.firefox]
            # chosen by hand
            pause = 50
            icon = "firefox"
            name = "Firefox"

            [programs.steam]
            pause = 120
            """ + "\n")
        try editor.removeProgram("firefox")
        #expect(try contents() == "[programs.steam]\npause = 120\n")
    }

    static let commented = """
        # Settings
        pause = 3   # short

        # Chat: evenings only
        [programs.discord]
        name = "Discord"

        # Steam: weekends only
        [programs.steam]
        pause = 120
        """ + "\n"

    @Test func a_comment_goes_with_the_table_under_it() throws {
        try folder.write(Self.commented, to: "config/miga/config.toml")
        try editor.removeProgram("discord")
        #expect(try contents() == """
            # Settings
            pause = 3   # short

            # Steam: weekends only
            [programs.steam]
            pause = 120
            """ + "\n")
    }

    @Test func new_keys_go_into_their_table_not_under_the_next_ones_comment() throws {
        try folder.write(Self.commented, to: "config/miga/config.toml")
        try editor.setProgram("discord", ProgramChanges(allowMinutes: 15))
        #expect(try contents() == Self.commented.replacingOccurrences(of: "name = \"Discord\"\n", with: "name = \"Discord\"\nallow_minutes = 15\n"))
    }

    @Test func a_changed_line_keeps_its_trailing_comment() throws {
        try folder.write(Self.commented.replacingOccurrences(of: "pause = 120", with: "pause = 120 # \"long\" # really"),
                         to: "config/miga/config.toml")
        try editor.setTopLevel("pause", to: .integer(5))
        try editor.setProgram("steam", ProgramChanges(pause: 90))
        let text = try contents()
        #expect(text.contains("\npause = 5   # short\n"))
        #expect(text.contains("\npause = 90 # \"long\" # really\n"))
        #expect(ConfigEditor.trailingComment(of: "name = \"a # b\"  # c") == "  # c")
        #expect(ConfigEditor.trailingComment(of: "name = 'it''s # x'") == "")
    }

    @Test func a_new_top_level_setting_goes_above_the_first_tables_comment() throws {
        try folder.write(Self.commented, to: "config/miga/config.toml")
        try editor.setTopLevel("interests", to: .strings(["Zen"]))
        #expect(try contents() == Self.commented.replacingOccurrences(of: "pause = 3   # short\n", with: "pause = 3   # short\ninterests = [\"Zen\"]\n"))
    }

    @Test func names_with_awkward_characters_are_quoted() throws {
        try editor.setProgram("my.app", ProgramChanges(name: "Say \"hi\" \\ there"))
        let config = ConfigLoader.load(from: path).config
        #expect(config.programs["my.app"]?.name == "Say \"hi\" \\ there")
        #expect(try contents().hasPrefix("[programs.\"my.app\"]"))
    }

    @Test func a_broken_file_is_left_alone() throws {
        let broken = "pause = \n[programs.firefox\n"
        try folder.write(broken, to: "config/miga/config.toml")
        #expect(throws: MigaError.self) { try editor.setProgram("steam", ProgramChanges(pause: 10)) }
        #expect(throws: MigaError.self) { try editor.removeProgram("firefox") }
        #expect(try contents() == broken)
    }

    @Test func removing_what_is_not_there_changes_nothing() throws {
        try folder.write("pause = 20\n", to: "config/miga/config.toml")
        try editor.removeProgram("firefox")
        #expect(try contents() == "pause = 20\n")
    }
}

@Suite struct ConfigTopLevelTests {
    let folder = TemporaryDirectory()
    var path: String { folder.path + "/config.toml" }

    @Test func a_top_level_setting_goes_above_the_tables_or_is_replaced_in_place() throws {
        try folder.write("# mine\nnotifications = false\n\n[programs.firefox]\npause = 30\n", to: "config.toml")
        let editor = ConfigEditor(path: path)
        try editor.setTopLevel("pause", to: .integer(60))
        try editor.setTopLevel("interests", to: .strings(["Zen", "Nature"]))
        try editor.setTopLevel("notifications", to: .boolean(true))
        #expect(try String(contentsOfFile: path, encoding: .utf8)
            == "# mine\nnotifications = true\npause = 60\ninterests = [\"Zen\", \"Nature\"]\n\n[programs.firefox]\npause = 30\n")
        let config = ConfigLoader.load(from: path).config
        #expect(config.pause == 60 && config.interests == ["Zen", "Nature"] && config.programs["firefox"]?.pause == 30)
    }

    @Test func the_summary_is_valid_toml_with_every_setting() throws {
        var config = Config()
        config.programs["steam"] = ProgramSettings(command: "steam", pause: 120)
        config.programs["firefox"] = ProgramSettings(command: "firefox", name: "Firefox")
        let text = ConfigSummary.text(config, path: "/c.toml")
        let read = ConfigLoader.parse(text, file: "summary")
        #expect(read.problems.isEmpty)
        #expect(read.config.programs["steam"]?.pause == 120)
        #expect(read.config.programs["firefox"]?.pause == 90)
        #expect(text.contains("reduced_motion = false"))
    }

    @Test func editing_replaces_the_file_only_when_it_reads_cleanly() throws {
        try folder.write("pause = 40\n", to: "config.toml")
        // An editor that writes what the test says into the copy it is given.
        try folder.writeProgram("#!/bin/sh\ncat \"\(folder.path)/next\" > \"$1\"\n", to: "fake-editor")
        let environment = ["EDITOR": folder.path + "/fake-editor", "PATH": "/usr/bin:/bin"]
        try folder.write("pause = oops\n", to: "next")
        var said: [String] = []
        #expect(throws: MigaError("\(path) was left as it was")) {
            try EditorSession.edit(path: path, environment: environment, askAgain: { false }, report: { said.append($0) })
        }
        // The file is untouched and valid: nothing is "using the defaults".
        #expect(said.first == "miga: your edit was not saved; \(path) is as it was:")
        #expect(said.count == 2 && said[1].contains("config.toml:1") && !said.joined().contains("using the default"), "\(said)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "pause = 40\n")
        try folder.write("pause = 45\n", to: "next")
        #expect(try EditorSession.edit(path: path, environment: environment, askAgain: { false }) == "Saved \(path).")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "pause = 45\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".config.toml.edit") }.isEmpty)
    }
}
