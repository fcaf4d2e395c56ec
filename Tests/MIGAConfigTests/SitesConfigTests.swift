import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGATestSupport

@Suite struct SitesConfigTests {
    let folder = TemporaryDirectory()
    var path: String { folder.path + "/config/miga/config.toml" }
    var editor: ConfigEditor { ConfigEditor(path: path) }

    func contents() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func a_site_has_a_table_of_its_own_with_the_programs_settings() throws {
        let loaded = ConfigLoader.parse("""
            [programs.firefox]
            pause = 30

            [sites."youtube.com"]
            pause = 60
            allow_minutes = 20
            hours = "Mon-Fri 09:00-17:00"

            [sites."reddit.com/r/all"]
            """, file: "config.toml")
        #expect(loaded.problems.isEmpty)
        let youtube = try #require(loaded.config.sites["youtube.com"])
        #expect(youtube.command == "site:youtube.com")
        #expect(youtube.pause == 60)
        #expect(youtube.allowMinutes == 20)
        #expect(youtube.hours != nil)
        #expect(youtube.displayName == "youtube.com")
        #expect(loaded.config.sites["reddit.com/r/all"]?.command == "site:reddit.com/r/all")
        #expect(loaded.config.programs.keys.sorted() == ["firefox"])
    }

    @Test func the_site_an_address_pauses_as_is_the_most_particular() {
        let config = ConfigLoader.parse("""
            [sites."reddit.com"]
            [sites."reddit.com/r/all"]
            pause = 120
            """, file: "config.toml").config
        #expect(config.site(covering: "https://www.reddit.com/r/all/top")?.pause == 120)
        #expect(config.site(covering: "https://www.reddit.com/r/linux")?.command == "site:reddit.com")
        #expect(config.site(covering: "https://example.org/") == nil)
        #expect(config.settings(for: "site:reddit.com/r/all").pause == 120)
    }

    @Test func a_site_written_loosely_is_read_as_its_plain_name() {
        let loaded = ConfigLoader.parse("""
            [sites."https://www.YouTube.com/"]
            pause = 45
            """, file: "config.toml")
        #expect(loaded.problems.isEmpty)
        #expect(loaded.config.sites["youtube.com"]?.pause == 45)
    }

    @Test func what_is_no_site_or_no_setting_of_a_site_is_reported_and_the_rest_kept() {
        let loaded = ConfigLoader.parse("""
            [sites."no site"]
            pause = 45

            [sites."youtube.com"]
            pause = 45
            also = ["yt"]
            non_interactive = "deny"

            [sites."www.youtube.com"]
            pause = 10
            """, file: "config.toml")
        #expect(loaded.config.sites.keys.sorted() == ["youtube.com"])
        #expect(loaded.config.sites["youtube.com"]?.pause == 45)
        #expect(loaded.config.sites["youtube.com"]?.also == [])
        #expect(loaded.config.sites["youtube.com"]?.nonInteractive == .pass)
        let messages = loaded.problems.map(\.message)
        #expect(messages.count == 4)
        #expect(messages.contains { $0.contains("not a website") })
        #expect(messages.contains { $0.contains("sites.youtube.com.also") && $0.contains("not a setting of a site") })
        #expect(messages.contains { $0.contains("non_interactive") })
        #expect(messages.contains { $0.contains("www.youtube.com") && $0.contains("youtube.com") && $0.contains("twice") })
        #expect(loaded.problems.allSatisfy { $0.line != nil })
    }

    @Test func a_site_is_added_changed_and_removed_leaving_the_programs_alone() throws {
        try editor.setProgram("steam", ProgramChanges(pause: 30))
        try editor.setSite("reddit.com/r/all", ProgramChanges(pause: 60))
        #expect(try contents() == "[programs.steam]\npause = 30\n\n[sites.\"reddit.com/r/all\"]\npause = 60\n")
        #expect(ConfigLoader.load(from: path).config.sites["reddit.com/r/all"]?.pause == 60)
        try editor.setSite("reddit.com/r/all", ProgramChanges(pause: 90))
        #expect(ConfigLoader.load(from: path).config.sites["reddit.com/r/all"]?.pause == 90)
        try editor.removeSite("reddit.com/r/all")
        #expect(try contents() == "[programs.steam]\npause = 30\n")
    }

    @Test func a_program_and_a_site_of_the_same_name_are_two_tables() throws {
        try editor.setProgram("example.com", ProgramChanges(pause: 30))
        try editor.setSite("example.com", ProgramChanges(pause: 60))
        let config = ConfigLoader.load(from: path).config
        #expect(config.programs["example.com"]?.pause == 30)
        #expect(config.sites["example.com"]?.pause == 60)
        try editor.removeSite("example.com")
        #expect(ConfigLoader.load(from: path).config.programs["example.com"]?.pause == 30)
    }
}
