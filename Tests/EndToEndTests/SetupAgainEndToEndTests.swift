import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAConfig

/// `miga setup` run again, in a real terminal, by someone who set things up
/// before: what setup cannot show is kept, and unticking a program is a
/// switch-off like `miga unprotect`, with its pause and its record.
@Suite(.serialized, .endToEnd) struct SetupAgainEndToEndTests {
    let sandbox = Sandbox()

    init() throws {
        try sandbox.program("firefox", "#!/bin/sh\nexit 0\n")
        try sandbox.program("steam", "#!/bin/sh\nexit 0\n")
    }

    var environment: [String: String] { sandbox.environment.merging(["SHELL": "/bin/bash"]) { $1 } }

    func miga(_ arguments: String...) throws -> (status: Int32, output: String, error: String) {
        try run(migaBinary, arguments, environment: environment)
    }

    /// Setup in tmux, up to its program list.
    func openSetup() throws -> Tmux {
        let tmux = try Tmux(command: try sandbox.migaScript(["setup"]), environment: environment)
        try tmux.waitForScreen("the program list") { $0.contains("Which programs should pause first?") }
        return tmux
    }

    /// From the program list to the end, the pause length shown as it is, no hook line.
    func finish(_ tmux: Tmux, pauseShown: String) throws {
        try tmux.finishSetup(pauseShown: pauseShown, hookKey: "n")
    }

    @Test func setup_shows_and_keeps_what_it_cannot_choose() throws {
        try sandbox.config("# mine\npause = 3\ninterests = [\"Tea\"]\n")
        #expect(try miga("protect", "steam", "--name", "Steam Store").status == 0)
        let before = try #require(sandbox.read("config/miga/config.toml"))
        let tmux = try openSetup()
        try tmux.waitForScreen("the name as the person gave it") { $0.contains("Steam Store") }
        try finish(tmux, pauseShown: "0:03")
        try tmux.waitForScreen("the hub") { $0.contains("s stats") }
        try tmux.send("q")
        #expect(try sandbox.status() == 0)
        #expect(sandbox.read("config/miga/config.toml") == before, "setup changed what it was not asked to")
        let config = ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config
        #expect(config.pause == 3)
        #expect(config.interests == ["Tea"])
        #expect(config.programs["steam"]?.name == "Steam Store")
    }

    @Test func unticking_a_program_pauses_first_and_exit_to_focus_keeps_it() throws {
        try sandbox.config("pause = 60\n")
        #expect(try miga("protect", "firefox", "steam").status == 0)
        let tmux = try openSetup()
        try untickSteam(tmux)
        try finish(tmux, pauseShown: "1:00")
        try tmux.waitForScreen("the switch-off pause") { $0.contains("a pause before unprotecting Steam") && $0.contains("Exit to Focus") }
        try tmux.send("e")
        try tmux.waitForScreen("the hub, saying so") { $0.contains("s stats") && $0.contains("Nothing switched off: Steam stays protected.") }
        try tmux.send("q")
        #expect(try sandbox.status() == 0)
        #expect(ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config.programs["steam"] != nil)
        #expect(FileManager.default.fileExists(atPath: sandbox.root + "/data/miga/shims/steam"))
        #expect(try miga("history").output.contains("steam  kept protected"))
    }

    @Test func unticking_a_program_and_proceeding_unprotects_it_and_records_it() throws {
        try sandbox.config("pause = 1\n")
        #expect(try miga("protect", "firefox", "steam").status == 0)
        let tmux = try openSetup()
        try untickSteam(tmux)
        try finish(tmux, pauseShown: "0:01")
        try tmux.waitForScreen("the switch-off pause at zero") { $0.contains("a pause before unprotecting Steam") && $0.contains("the choice is yours") }
        try tmux.send("p")
        try tmux.waitForScreen("the hub") { $0.contains("s stats") }
        try tmux.send("q")
        #expect(try sandbox.status() == 0)
        #expect(ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config.programs["steam"] == nil)
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/data/miga/shims/steam"))
        #expect(try miga("history").output.contains("steam  unprotected"))
    }

    @Test func the_hub_says_on_its_screen_when_a_program_is_gone_and_stays_where_it_was() throws {
        try sandbox.program("zapp", "#!/bin/sh\nexit 0\n")
        #expect(try miga("protect", "steam", "zapp").status == 0)
        unlink(sandbox.root + "/bin/zapp")
        let tmux = try Tmux(command: try sandbox.migaScript([]), environment: environment)
        try tmux.waitForScreen("the hub") { $0.contains("s stats") && $0.contains("Zapp") }
        try tmux.send("Right")
        try tmux.send("Enter")
        try tmux.waitForScreen("the reason, on the hub") { $0.contains("Please install Zapp first.") && $0.contains("s stats") }
        // Still on Zapp: Enter again says the same, rather than opening Steam's pause.
        try tmux.send("Enter")
        try tmux.waitForScreen("the reason again") { $0.contains("Please install Zapp first.") }
        #expect(!(try tmux.screen()).contains("a pause before Steam"))
        // The second answer looks like the first, so the hub may still be giving
        // it: q again until it has quit (a q after that reaches only the script's sleep).
        let status = try eventually("the hub to quit", timeout: 60) { () -> Int32? in
            try tmux.send("q")
            return try? sandbox.status(timeout: 2)
        }
        #expect(status == 0)
        #expect(try sandbox.sessions().isEmpty)
    }

    @Test func a_site_is_added_and_another_unticked_in_setups_list_and_the_config_follows() throws {
        try sandbox.config("pause = 1\n")
        #expect(try miga("protect", "firefox").status == 0)
        #expect(try miga("protect", "--site", "youtube.com", "--pause", "30").status == 0)
        let tmux = try openSetup()
        try tmux.waitForScreen("the site counted") { $0.contains("Continue with 1 program and 1 site") }
        // Down stops on Continue; "another site" is the row above it.
        for _ in 0..<40 { try tmux.send("Down") }
        try tmux.send("Up")
        try tmux.waitForScreen("the sites' section") { $0.contains("Sites") && $0.contains("[✓] ◌ youtube.com") }
        try tmux.send("Enter")
        try tmux.waitForScreen("a site to type") { $0.contains("+ site:") }
        try tmux.send("-l", "https://www.Reddit.com/r/all")
        try tmux.send("Enter")
        try tmux.waitForScreen("reddit.com added") { $0.contains("[✓] ◌ reddit.com/r/all") }
        try tmux.send("Up")
        try tmux.send("Space")
        try tmux.waitForScreen("youtube.com unticked") { $0.contains("[ ] ◌ youtube.com") && $0.contains("Continue with 1 program and 1 site") }
        try finish(tmux, pauseShown: "0:01")
        try tmux.waitForScreen("the switch-off pause at zero") {
            $0.contains("a pause before unprotecting youtube.com") && $0.contains("the choice is yours")
        }
        try tmux.send("p")
        // The hub shows the site beside the programs.
        try tmux.waitForScreen("the hub, with the site") { $0.contains("s stats") && $0.contains("Firefox") && $0.contains("reddit.com/") }
        try tmux.send("q")
        #expect(try sandbox.status() == 0)
        let config = ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config
        #expect(config.sites.keys.sorted() == ["reddit.com/r/all"])
        #expect(config.programs["firefox"] != nil)
        #expect(try miga("history").output.contains("youtube.com (site)  unprotected"))
    }

    /// Steam is the second chosen program (chosen ones come first, in the catalog's order).
    func untickSteam(_ tmux: Tmux) throws {
        try tmux.send("Down")
        try tmux.send("Space")
        try tmux.waitForScreen("Steam unticked") { $0.contains("Continue with 1 program") }
    }
}
