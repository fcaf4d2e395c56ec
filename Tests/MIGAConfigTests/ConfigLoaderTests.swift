import Testing
@testable import MIGAConfig
@testable import MIGATestSupport

@Suite struct ConfigLoaderTests {
    @Test func a_missing_file_means_the_defaults() {
        let loaded = ConfigLoader.load(from: "/nonexistent/miga/config.toml")
        #expect(loaded.config == Config())
        #expect(loaded.problems.isEmpty)
        #expect(loaded.config.pause == 90)
        #expect(loaded.config.notifications)
        #expect(!loaded.config.reducedMotion)
    }

    @Test func every_setting_is_read() {
        let loaded = ConfigLoader.parse("""
            pause = 45
            interests = ["Stoicism", "Nature"]
            notifications = false
            reduced_motion = true

            [programs.firefox]
            name = "Firefox"
            icon = "firefox"
            pause = 30
            non_interactive = "deny"

            [programs.steam]
            """, file: "config.toml")
        #expect(loaded.problems.isEmpty)
        let config = loaded.config
        #expect(config.pause == 45)
        #expect(config.interests == ["Stoicism", "Nature"])
        #expect(!config.notifications)
        #expect(config.reducedMotion)
        #expect(config.programs["firefox"] == ProgramSettings(command: "firefox", name: "Firefox", icon: "firefox",
                                                              pause: 30, nonInteractive: .deny))
        #expect(config.settings(for: "/usr/bin/firefox").displayName == "Firefox")
        #expect(config.settings(for: "steam").displayName == "Steam")
        #expect(config.settings(for: "steam").nonInteractive == .pass)
        #expect(config.settings(for: "unlisted").pause == nil)
    }

    @Test func a_syntax_error_names_line_and_column_and_keeps_the_defaults() {
        let loaded = ConfigLoader.parse("pause = 30\ninterests = [\"Zen\"\nnotifications = false\n", file: "config.toml")
        #expect(loaded.config == Config())
        #expect(loaded.problems.count == 1)
        let problem = loaded.problems[0]
        #expect(problem.line == 3)
        #expect(problem.column != nil)
        #expect(problem.description.hasPrefix("config.toml:3:"))
        #expect(problem.description.contains("using the defaults"))
    }

    @Test func a_wrong_value_is_located_and_only_that_value_is_defaulted() {
        let loaded = ConfigLoader.parse("""
            interests = ["Zen"]

            [programs.firefox]
            name = "Firefox"
              pause = "soon"
            non_interactive = "sometimes"
            """, file: "config.toml")
        #expect(loaded.config.interests == ["Zen"])
        #expect(loaded.config.programs["firefox"]?.name == "Firefox")
        #expect(loaded.config.programs["firefox"]?.pause == nil)
        #expect(loaded.config.programs["firefox"]?.nonInteractive == .pass)
        #expect(loaded.problems.map(\.line) == [5, 6])
        #expect(loaded.problems[0].description.hasPrefix("config.toml:5:3: `programs.firefox.pause` must be a whole number of seconds"))
        #expect(loaded.problems[1].description.contains("must be one of \"pass\", \"terminal\", \"deny\""))
    }

    @Test(arguments: ["pause = 0", "pause = 3601", "pause = 1.5", "pause = -10"])
    func the_pause_must_be_sensible(line: String) {
        let loaded = ConfigLoader.parse(line, file: "config.toml")
        #expect(loaded.config.pause == 90)
        #expect(loaded.problems.count == 1)
    }

    @Test func unknown_keys_are_reported_with_a_suggestion() {
        let loaded = ConfigLoader.parse("pasue = 30\n[programs.firefox]\nnmae = \"Firefox\"\n", file: "config.toml")
        #expect(loaded.problems.map(\.description) == [
            "config.toml:1:1: unknown setting `pasue` (ignored); did you mean `pause`?",
            "config.toml:3:1: unknown setting `programs.firefox.nmae` (ignored); did you mean `name`?",
        ])
    }

    @Test func wrong_shapes_are_reported() {
        let loaded = ConfigLoader.parse("interests = \"Zen\"\nnotifications = \"yes\"\nprograms = 3\n", file: "c.toml")
        #expect(loaded.problems.count == 3)
        #expect(loaded.config == Config())
    }
}
