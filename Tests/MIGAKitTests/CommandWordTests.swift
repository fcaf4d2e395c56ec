import Testing
@testable import MIGAKit

/// What a run of miga does before its command is the command's to say.
@Suite struct CommandWordTests {
    @Test func a_command_that_only_looks_help_and_the_version_do_no_chores() {
        for words in [["stats"], ["stats", "--json"], ["history"], ["list"], ["doctor"], ["--help"], ["-h"], ["--version"],
                      ["help"], ["protect", "--help"], ["sync", "-h"], ["gate", "firefox"], ["uninstall"]] {
            #expect(CommandWord.chores(of: words) == .none, "\(words)")
        }
    }

    @Test func commands_that_act_refresh_the_routes_and_send_the_look_back() {
        for words in [[], ["hub"], ["setup"], ["protect", "steam"], ["quotes", "add", "x"], ["sync", "/tmp/s"], ["export"]] {
            #expect(CommandWord.chores(of: words) == .both, "\(words)")
        }
        // Those that refresh the routes themselves only send the look back.
        for words in [["refresh"], ["doctor", "--fix"]] {
            #expect(CommandWord.chores(of: words) == CommandWord.Chores(refreshesRoutes: false, sendsLookBack: true), "\(words)")
        }
    }
}
