import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGATestSupport

@Suite struct ProgramRulesConfigTests {
    /// The settings of `[programs.discord]` with `body` under it, and the problems found.
    func read(_ body: String) -> (settings: ProgramSettings?, problems: [ConfigProblem]) {
        let loaded = ConfigLoader.parse("[programs.discord]\n" + body + "\n", file: "config.toml")
        #expect(loaded.syntaxError == nil)
        return (loaded.config.programs["discord"], loaded.problems)
    }

    // MARK: Reading

    @Test func every_rule_is_read() throws {
        let (settings, problems) = read("""
            allow_minutes = 15
            escalate = true
            escalate_step = 20
            escalate_max = 120
            hours = "Mon-Fri 09:00-17:00"
            hold_when_unfocused = true
            ask_intention = true
            """)
        #expect(problems.isEmpty)
        var expected = ProgramSettings(command: "discord")
        expected.allowMinutes = 15
        expected.escalate = true
        expected.escalateStep = 20
        expected.escalateMax = 120
        expected.hours = try FocusHours("Mon-Fri 09:00-17:00")
        expected.holdWhenUnfocused = true
        expected.askIntention = true
        #expect(settings == expected)
        #expect(settings?.escalation == Escalation(step: 20, maximum: 120))
    }

    @Test func without_rules_a_program_has_none_of_them() throws {
        let settings = try #require(read("").settings)
        #expect(settings.allowMinutes == nil)
        #expect(settings.escalation == nil)
        #expect(settings.hours == nil)
        #expect(!settings.holdWhenUnfocused)
        #expect(!settings.askIntention)
        #expect(settings.features.isEmpty)
    }

    @Test(arguments: [("allow_minutes = 15", 15.0), ("allow_minutes = 0.5", 0.5), ("allow_minutes = 1440", 1440),
                      ("allow_minutes = 2.5e1", 25)])
    func an_allowance_may_be_whole_or_fractional_minutes(line: String, minutes: Double) {
        let (settings, problems) = read(line)
        #expect(problems.isEmpty)
        #expect(settings?.allowMinutes == minutes)
    }

    @Test(arguments: ["allow_minutes = 0", "allow_minutes = 0.0"])
    func an_allowance_of_zero_is_none_as_protect_says(line: String) {
        let (settings, problems) = read(line)
        #expect(problems.isEmpty)
        #expect(settings?.allowMinutes == nil)
    }

    @Test(arguments: ["allow_minutes = -5", "allow_minutes = 1441",
                      "allow_minutes = 1440.5", "allow_minutes = \"15\"", "allow_minutes = true", "allow_minutes = nan",
                      "allow_minutes = inf"])
    func a_bad_allowance_is_reported_by_its_key_and_means_none(line: String) throws {
        let (settings, problems) = read(line)
        #expect(settings?.allowMinutes == nil)
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.line == 2)
        #expect(problem.message.hasPrefix("`programs.discord.allow_minutes` must be a number of minutes from 0 (none) to 1440, not "))
        #expect(problem.description.hasSuffix("; no allowance"))
    }

    @Test(arguments: ["escalate_step = 0", "escalate_step = 3601", "escalate_step = 1.5", "escalate_step = \"30\""])
    func a_bad_escalation_step_is_reported_and_the_default_kept(line: String) throws {
        let (settings, problems) = read("escalate = true\n" + line)
        #expect(settings?.escalation == Escalation(step: 30, maximum: 300))
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.line == 3)
        #expect(problem.message.hasPrefix("`programs.discord.escalate_step` must be a whole number of seconds from 1 to 3600"))
    }

    @Test(arguments: ["escalate_max = 0", "escalate_max = 3601", "escalate_max = -30"])
    func a_bad_escalation_cap_is_reported_and_the_default_kept(line: String) throws {
        let (settings, problems) = read("escalate = true\n" + line)
        #expect(settings?.escalateMax == 300)
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.message.hasPrefix("`programs.discord.escalate_max` must be a whole number of seconds"))
    }

    @Test func step_and_cap_without_escalate_are_kept_but_change_nothing() {
        let (settings, problems) = read("escalate_step = 10\nescalate_max = 60")
        #expect(problems.isEmpty)
        #expect(settings?.escalateStep == 10)
        #expect(settings?.escalateMax == 60)
        #expect(settings?.escalation == nil)
    }

    @Test func bad_hours_are_reported_and_the_program_is_protected_at_all_hours() throws {
        let (settings, problems) = read("pause = 30\nhours = \"mon-fry 09:00-17:00\"")
        #expect(settings?.hours == nil)
        #expect(settings?.pause == 30) // the other settings still count
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.line == 3)
        #expect(problem.message == "`programs.discord.hours`: \"fry\" is not a day; use Mon, Tue, Wed, Thu, Fri, Sat or Sun")
        #expect(problem.consequence == "protecting at all hours")
    }

    @Test func hours_that_are_not_a_string_are_reported() throws {
        let (settings, problems) = read("hours = 9")
        #expect(settings?.hours == nil)
        let problem = try #require(problems.first)
        #expect(problem.message.hasPrefix("`programs.discord.hours` must be a string in quotes"))
    }

    @Test(arguments: ["escalate", "hold_when_unfocused", "ask_intention"])
    func a_flag_that_is_not_true_or_false_is_reported_and_off(key: String) throws {
        let (settings, problems) = read("\(key) = \"yes\"")
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.message.hasPrefix("`programs.discord.\(key)` must be true or false"))
        #expect(settings?.escalate == false)
        #expect(settings?.holdWhenUnfocused == false)
        #expect(settings?.askIntention == false)
    }

    @Test func a_misspelt_rule_is_unknown_with_a_suggestion() throws {
        let (_, problems) = read("alow_minutes = 15")
        let problem = try #require(problems.first)
        #expect(problem.message == "unknown setting `programs.discord.alow_minutes` (ignored); did you mean `allow_minutes`?")
    }

    // MARK: In words

    @Test func the_rules_that_are_on_are_listed_in_words() throws {
        var settings = ProgramSettings(command: "discord")
        settings.allowMinutes = 15
        settings.escalate = true
        settings.escalateStep = 20
        settings.escalateMax = 120
        settings.hours = try FocusHours("Mon-Fri 09:00-17:00; Sat 10:00-12:00")
        settings.holdWhenUnfocused = true
        settings.askIntention = true
        #expect(settings.features == ["allow 15 min", "escalate +20 s to 120 s", "hours Mon-Fri 09:00-17:00; Sat 10:00-12:00",
                                      "hold when unfocused", "ask intention"])
    }

    @Test func a_fractional_allowance_keeps_its_fraction_in_words() {
        var settings = ProgramSettings(command: "discord")
        settings.allowMinutes = 0.5
        #expect(settings.features == ["allow 0.5 min"])
    }

    // MARK: Writing

    let folder = TemporaryDirectory()
    var path: String { folder.path + "/config/miga/config.toml" }
    var editor: ConfigEditor { ConfigEditor(path: path) }
    func contents() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    static let everyRule = ProgramChanges(allowMinutes: 15, escalate: true, escalateStep: 20, escalateMax: 120,
                                          hours: "Mon-Fri 09:00-17:00", holdWhenUnfocused: true, askIntention: true)

    @Test func every_setting_is_in_the_template_and_the_summary_reads_back_as_the_settings() throws {
        for setting in ProgramSetting.all {
            #expect(EditorSession.template.contains("# \(setting.key) = \(setting.example)"), "\(setting.key)")
        }
        #expect(ConfigLoader.parse(EditorSession.template, file: "template").problems.isEmpty)
        // Every setting set, through protect's changes: the summary writes it all, and reads back the same.
        let folder = TemporaryDirectory()
        let path = folder.path + "/config.toml"
        var changes = Self.everyRule
        changes.name = "Chat"
        changes["pause"] = .integer(40)
        changes["icon"] = .string("discord")
        changes["non_interactive"] = .string("deny")
        try ConfigEditor(path: path).setProgram("discord", changes)
        let config = ConfigLoader.load(from: path).config
        let settings = try #require(config.programs["discord"])
        #expect(settings.features.count == 5, "\(settings.features)")
        let summary = ConfigSummary.text(config, path: path)
        let again = ConfigLoader.parse(summary, file: "summary")
        #expect(again.problems.isEmpty, "\(again.problems)")
        #expect(again.config.programs["discord"] == settings)
    }

    @Test func rules_are_written_under_the_persons_comments_and_removed_again() throws {
        let original = """
            # my programs
            pause = 45

            [programs.discord]
            # only the evenings matter
            pause = 30  # shorter for this one
            """
        try folder.write(original + "\n", to: "config/miga/config.toml")
        try editor.setProgram("discord", Self.everyRule)
        #expect(try contents() == original + """

            allow_minutes = 15
            escalate = true
            escalate_step = 20
            escalate_max = 120
            hours = "Mon-Fri 09:00-17:00"
            hold_when_unfocused = true
            ask_intention = true

            """)
        let loaded = ConfigLoader.load(from: path)
        #expect(loaded.problems.isEmpty)
        let settings = try #require(loaded.config.programs["discord"])
        #expect(settings.features == ["allow 15 min", "escalate +20 s to 120 s", "hours Mon-Fri 09:00-17:00",
                                      "hold when unfocused", "ask intention"])

        // Turning them off takes their lines out; the step and cap were not
        // mentioned, so they stay as written.
        try editor.setProgram("discord", ProgramChanges(allowMinutes: 0, escalate: false, hours: ProgramChanges.always,
                                                        holdWhenUnfocused: false, askIntention: false))
        #expect(try contents() == original + "\nescalate_step = 20\nescalate_max = 120\n")
    }

    @Test func changing_a_rule_replaces_its_line_in_place() throws {
        try editor.setProgram("discord", ProgramChanges(allowMinutes: 15, hours: "Mon-Fri 09:00-17:00"))
        try editor.setProgram("discord", ProgramChanges(allowMinutes: 0.5, hours: "Sat,Sun 10:00-12:00"))
        #expect(try contents() == "[programs.discord]\nallow_minutes = 0.5\nhours = \"Sat,Sun 10:00-12:00\"\n")
        #expect(ConfigLoader.load(from: path).config.programs["discord"]?.allowMinutes == 0.5)
    }

    @Test func turning_rules_off_in_a_new_table_writes_only_its_header() throws {
        try editor.setProgram("discord", ProgramChanges(allowMinutes: 0, escalate: false, hours: ProgramChanges.always,
                                                        holdWhenUnfocused: false, askIntention: false))
        #expect(try contents() == "[programs.discord]\n")
    }

    @Test func rules_of_other_programs_are_left_alone() throws {
        try folder.write("[programs.steam]\nallow_minutes = 5\n\n[programs.discord]\nask_intention = true\n",
                         to: "config/miga/config.toml")
        try editor.setProgram("discord", ProgramChanges(allowMinutes: 0, askIntention: false))
        #expect(try contents() == "[programs.steam]\nallow_minutes = 5\n\n[programs.discord]\n")
    }

    // MARK: Problems with changes

    @Test func changes_in_range_have_no_problem() {
        #expect(Self.everyRule.problem == nil)
        #expect(ProgramChanges(allowMinutes: 0, hours: ProgramChanges.always).problem == nil)
        #expect(ProgramChanges(allowMinutes: 1440, escalateStep: 1, escalateMax: 3600).problem == nil)
        #expect(ProgramChanges().problem == nil)
    }

    @Test(arguments: [-1, 1440.5, .nan, .infinity])
    func an_allowance_out_of_range_is_a_problem(minutes: Double) {
        #expect(ProgramChanges(allowMinutes: minutes).problem?.hasPrefix("the allowance must be a number of minutes from 0 (none) to 1440, not ") == true)
    }

    @Test func a_step_or_cap_out_of_range_is_a_problem_naming_which() {
        #expect(ProgramChanges(escalateStep: 0).problem == "the escalation step must be a whole number of seconds from 1 to 3600, not 0")
        #expect(ProgramChanges(escalateMax: 3601).problem == "the escalation cap must be a whole number of seconds from 1 to 3600, not 3601")
    }

    @Test func unreadable_hours_are_a_problem_quoting_them_and_saying_why() {
        #expect(ProgramChanges(hours: "Mon-Fri 9-17").problem
                == "the hours \"Mon-Fri 9-17\" cannot be read: \"9\" in \"9-17\" is not a time of day; use 24-hour HH:MM, like 09:00 or 17:30")
        #expect(ProgramChanges(hours: "").problem == "the hours \"\" cannot be read: no hours given, like \"Mon-Fri 09:00-17:00\"")
    }

    @Test func the_pause_is_checked_first() {
        #expect(ProgramChanges(pause: 0, allowMinutes: -1).problem == "the pause must be a whole number of seconds from 1 to 3600, not 0")
    }
}
