import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAConfig

/// `miga protect --site` and `miga unprotect --site`: a website is its
/// table in the config, with a program's settings, and switching it off is
/// a choice like any other.
@Suite(.endToEnd) struct SitesCommandsEndToEndTests {
    let sandbox = Sandbox()

    var config: Config { ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config }

    @Test func a_site_is_protected_with_its_settings_beside_a_program() throws {
        let protected = try run(migaBinary, ["protect", "argv-dump", "--site", "https://www.YouTube.com/",
                                             "--site", "reddit.com/r/all", "--pause", "60"],
                                environment: sandbox.environment)
        #expect(protected.status == 0, "\(protected.error)")
        #expect(protected.output.contains("Protected youtube.com, with its subdomains."))
        #expect(protected.output.contains("Protected reddit.com/r/all and the pages under it."))
        #expect(config.sites["youtube.com"]?.pause == 60)
        #expect(config.sites["reddit.com/r/all"]?.pause == 60)
        #expect(config.programs["argv-dump"]?.pause == 60)
        let text = try #require(sandbox.read("config/miga/config.toml"))
        #expect(text.contains("[sites.\"youtube.com\"]\npause = 60\n"))
    }

    @Test func what_is_no_site_or_no_setting_of_a_site_is_refused_with_status_64_and_nothing_written() throws {
        for arguments in [["--site", "you tube.com"], ["--site", "\u{1B}]52;c;aGk=\u{07}"],
                          ["--site", "youtube.com", "--non-interactive", "deny"]] {
            let refused = try run(migaBinary, ["protect"] + arguments, environment: sandbox.environment)
            #expect(refused.status == ExitStatus.usage, "\(arguments)")
            #expect(!refused.error.contains("\u{1B}"))
            #expect(sandbox.read("config/miga/config.toml") == nil)
        }
    }

    @Test func unprotecting_a_site_pauses_in_a_terminal_and_is_immediate_with_now_in_a_script() throws {
        _ = try run(migaBinary, ["protect", "--site", "youtube.com", "--site", "news.example"], environment: sandbox.environment)
        let unknown = try run(migaBinary, ["unprotect", "--now", "--site", "example.org"], environment: sandbox.environment)
        #expect(unknown.status == ExitStatus.usage)
        #expect(unknown.error.contains("example.org is not protected"))
        let withoutNow = try run(migaBinary, ["unprotect", "--site", "youtube.com"], environment: sandbox.environment)
        #expect(withoutNow.status == ExitStatus.usage)
        #expect(config.sites["youtube.com"] != nil)
        let now = try run(migaBinary, ["unprotect", "--now", "--site", "www.youtube.com"], environment: sandbox.environment)
        #expect(now.status == 0, "\(now.error)")
        #expect(now.output.contains("youtube.com is no longer protected."))
        #expect(config.sites.keys.sorted() == ["news.example"])
    }

    @Test func list_shows_the_protected_sites_after_the_programs_with_their_settings() throws {
        _ = try run(migaBinary, ["protect", "argv-dump"], environment: sandbox.environment)
        _ = try run(migaBinary, ["protect", "--site", "youtube.com", "--pause", "45", "--allow", "20"], environment: sandbox.environment)
        _ = try run(migaBinary, ["protect", "--site", "reddit.com/r/all"], environment: sandbox.environment)
        let listed = try run(migaBinary, ["list"], environment: sandbox.environment)
        #expect(listed.status == 0, "\(listed.error)")
        let lines = listed.output.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Sites"), "\(listed.output)")
        #expect(lines[..<heading].contains { $0.hasPrefix("argv-dump") }, "the programs come first: \(listed.output)")
        let youtube = try #require(lines[heading...].first { $0.hasPrefix("youtube.com") }, "\(listed.output)")
        #expect(youtube.contains("45 s") && youtube.contains("20 min"), "\(youtube)")
        #expect(lines[heading...].contains { $0.hasPrefix("reddit.com/r/all") && $0.contains("default") }, "\(listed.output)")
        #expect(!lines[heading...].contains { $0.contains("no terminal") }, "a site has no setting of how a program starts: \(listed.output)")

        // Only sites: they are listed, not "no programs".
        _ = try run(migaBinary, ["unprotect", "--now", "argv-dump"], environment: sandbox.environment)
        let onlySites = try run(migaBinary, ["list"], environment: sandbox.environment)
        #expect(onlySites.output.contains("youtube.com") && !onlySites.output.contains("No programs are protected"), "\(onlySites.output)")
    }
}
