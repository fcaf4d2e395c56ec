import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAConfig
@testable import MIGADesktop
@testable import MIGATestSupport

/// Setup's program list has a second section, the protected sites: one is
/// added by typing it, one removed by unticking it, and setup's end puts
/// both into the config as `miga protect --site` and `unprotect --site` do.
@Suite struct SetupSitesTests {
    let home = TemporaryDirectory()

    func flow(sites: [String] = ["youtube.com"]) -> SetupFlow {
        SetupFlow(firstRun: false, programs: SetupFlowTests.programs, sites: sites, tags: SetupFlowTests.tags,
                  hook: nil, check: { _ in nil })
    }

    func press(_ keys: [Key], on flow: inout SetupFlow) {
        for key in keys { _ = flow.handle(key) }
    }

    func typed(_ text: String) -> [Key] { Array(text).map(Key.character) }

    @Test func the_protected_sites_are_a_second_section_after_the_programs() {
        let setup = flow()
        let text = setup.frame(size: TerminalSize(columns: 80, rows: 24)).text
        let lines = text.split(separator: "\n").map(String.init)
        let heading = lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "Sites" }
        let anotherCommand = lines.firstIndex { $0.contains("+ another command…") }
        #expect(heading != nil && anotherCommand != nil && anotherCommand! < heading!, "\(text)")
        #expect(lines.contains { $0.contains("[✓] ◌ youtube.com") }, "\(text)")
        #expect(lines.contains { $0.contains("+ another site…") }, "\(text)")
        #expect(text.contains("Continue with 1 site"), "\(text)")
    }

    @Test func the_summary_names_the_sites_beside_the_programs() {
        var setup = flow()
        press([.space, .enter, .enter, .enter], on: &setup)
        #expect(setup.step == .ready)
        let text = setup.frame(size: TerminalSize(columns: 80, rows: 24)).text
        #expect(text.contains("Ready when you are"), "\(text)")
        #expect(text.split(separator: "\n").contains { $0.contains("Sites") && $0.contains("youtube.com") }, "\(text)")
    }

    /// Ctrl-U clears the field, as in a shell; a pasted address keeps its host
    /// and path, and setup says the query was left out.
    @Test func ctrl_u_clears_the_site_field_and_a_pasted_address_loses_its_query_saying_so() {
        var setup = flow()
        press(Array(repeating: .down, count: 5) + [.enter] + typed("not a site at all"), on: &setup)
        press([.control("u")], on: &setup)
        #expect(setup.field == "")
        press(typed("https://www.youtube.com/watch?v=x") + [.enter], on: &setup)
        #expect(setup.sites.map(\.name) == ["youtube.com", "youtube.com/watch"])
        #expect(setup.message == "youtube.com/watch: a site is a host and a path, so what followed it (?…, #…) was left out.")
    }

    @Test func a_typed_site_is_made_plain_and_what_is_no_site_is_refused_saying_why() {
        var setup = flow()
        // Three programs, "another command", youtube.com, then "another site".
        press(Array(repeating: .down, count: 5) + [.enter], on: &setup)
        #expect(setup.field == "" && setup.typingSite)
        #expect(setup.frame(size: TerminalSize(columns: 80, rows: 24)).text.contains("+ site: "))
        press(typed("you tube.com") + [.enter], on: &setup)
        #expect(setup.message?.contains("is not a website to protect") == true, "\(setup.message ?? "")")
        #expect(setup.field == "you tube.com", "what was typed stays to be corrected")
        press(Array(repeating: .backspace, count: 12) + typed("https://www.Reddit.com/r/all/") + [.enter], on: &setup)
        #expect(setup.field == nil && !setup.typingSite && setup.message == nil)
        #expect(setup.sites == [SetupSite(name: "youtube.com"), SetupSite(name: "reddit.com/r/all")])
        #expect(setup.cursor == setup.siteRow(1))
        // Typed again, as another address of it: the same site, not a second row.
        press([.down, .enter] + typed("reddit.com/r/all") + [.enter], on: &setup)
        #expect(setup.sites.count == 2)
        // Typing a command is as it was.
        press([.up, .up, .enter] + typed("newsboat") + [.enter], on: &setup)
        #expect(setup.programs.last?.command == "newsboat" && setup.sites.count == 2)
    }

    @Test func unticking_a_site_leaves_it_out_and_sites_alone_are_enough_to_continue() {
        var setup = flow(sites: ["news.example", "youtube.com"])
        press(Array(repeating: .down, count: 5) + [.space], on: &setup)
        #expect(setup.sites[1].selected == false)
        press([.enter], on: &setup)
        #expect(setup.step == .interests, "a site chosen is something to continue with")
        #expect(setup.answers.sites == ["news.example"])
        var none = flow()
        press(Array(repeating: .down, count: 4) + [.space, .enter], on: &none)
        #expect(none.step == .programs && none.message == "Choose at least one program with Space.")
    }

    @Test func setups_end_protects_the_new_sites_and_unprotects_the_unticked_in_the_config() throws {
        let environment = ["HOME": home.path, "PATH": home.path + "/bin", "SHELL": "/bin/bash"]
        let protection = Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: "/usr/bin/true")
        try protection.protectSite("youtube.com", ProgramChanges(pause: 45))
        try protection.protectSite("news.example")
        try protection.protectSite("kept.example")
        let answers = SetupAnswers(programs: [], interests: [], pause: Config.defaultPause, addHook: false,
                                   sites: ["youtube.com", "reddit.com/r/all"])
        let applied = SetupApplier(protection: protection).apply(answers, keeping: ["site:kept.example"])
        #expect(applied.problems.isEmpty, "\(applied.problems)")
        #expect(applied.done.contains("Protected reddit.com/r/all.") && applied.done.contains("No longer protected: news.example."))
        let config = protection.config
        #expect(config.sites.keys.sorted() == ["kept.example", "reddit.com/r/all", "youtube.com"])
        #expect(config.sites["youtube.com"]?.pause == 45, "a site protected already keeps its settings")
    }
}
