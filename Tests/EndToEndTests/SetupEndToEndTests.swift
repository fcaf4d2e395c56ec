import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAConfig

/// The first run as a newcomer meets it, under tmux with a temporary home.
@Suite(.serialized, .endToEnd) struct SetupEndToEndTests {
    let sandbox = Sandbox()

    init() throws {
        // Two programs of the catalog, "installed" here.
        try sandbox.program("firefox", "#!/bin/sh\nexit 0\n")
        try sandbox.program("steam", "#!/bin/sh\nexit 0\n")
    }

    func firstRun() throws -> Tmux {
        let script = sandbox.root + "/home.sh"
        try "cd \(shellQuoted(sandbox.root))\n\(shellQuoted(migaBinary))\necho \"$?\" > home.status\nsleep 600\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        return try Tmux(command: "sh " + shellQuoted(script), environment: sandbox.environment.merging(["SHELL": "/bin/bash"]) { $1 })
    }

    @Test func a_first_run_walks_through_setup_to_the_hub_and_a_pause() throws {
        let tmux = try firstRun()
        try tmux.waitForScreen("page 1 of 12") { $0.contains("1 / 12") && $0.contains("Welcome to MIGA") }
        try tmux.send("Right")
        try tmux.waitForScreen("page 2") { $0.contains("2 / 12") && $0.contains("The pull is ordinary") }
        try tmux.send("Left")
        try tmux.waitForScreen("page 1 again") { $0.contains("1 / 12") }
        for _ in 0..<12 { try tmux.send("Enter") }
        let list = try tmux.waitForScreen("the program list") { $0.contains("Which programs should pause first?") }
        #expect(list.contains { _ in true } && list.split(separator: "\n").contains { $0.contains("Firefox") && $0.contains("installed") && !$0.contains("not installed") })
        #expect(list.split(separator: "\n").contains { $0.contains("Chromium") && $0.contains("not installed") })
        try tmux.send("Enter")
        try tmux.waitForScreen("Continue refused with nothing chosen") { $0.contains("Choose at least one program with Space.") }
        try tmux.send("Space")                       // Firefox, first and installed
        try tmux.send("Down")
        try tmux.send("Space")                       // Steam
        try tmux.waitForScreen("two chosen") { $0.contains("Continue with 2 programs") }
        try tmux.send("Enter")
        try tmux.waitForScreen("interests") { $0.contains("What would you like to read") }
        try tmux.send("Space")                       // the first tag
        try tmux.send("Enter")
        try tmux.waitForScreen("pause length") { $0.contains("1:30") }
        try tmux.send("Left")
        try tmux.send("Left")
        try tmux.waitForScreen("a shorter pause") { $0.contains("1:00") }
        try tmux.send("Enter")
        // miga is not on this PATH: the line names it by its path. It wraps at
        // a space that depends on how long that path is, so it is read unwrapped.
        let offered = "eval \"$(\(migaBinary) init bash)\"".filter { !$0.isWhitespace }
        try tmux.waitForScreen("the hook offer") { $0.filter { !$0.isWhitespace }.contains(offered) }
        try tmux.send("y")
        try tmux.waitForScreen("the summary") { $0.contains("Ready when you are") }
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/config/miga/config.toml"), "nothing is written before the end")
        try tmux.send("Enter")
        try tmux.waitForScreen("the hub") { $0.contains("Firefox") && $0.contains("Steam") && $0.contains("s stats") }

        let config = ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config
        #expect(config.pause == 60)
        #expect(config.interests == [QuoteBank.builtIn.tagCounts[0].tag])
        #expect(Set(config.programs.keys) == ["firefox", "steam"])
        #expect(config.programs["firefox"]?.name == "Firefox")
        for command in ["firefox", "steam"] {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.root + "/data/miga/shims/" + command) == migaBinary)
        }
        #expect(sandbox.read(".bashrc") == "eval \"$(\(migaBinary) init bash)\"\n")

        // The hub is a launcher too: Enter opens the chosen program's pause.
        try tmux.send("Enter")
        try tmux.waitForScreen("the pause") { $0.contains("a pause before Firefox") && $0.contains("1:0") }
        try tmux.send("e")
        try tmux.waitForScreen("the hub again") { $0.contains("s stats") && $0.contains("1-day streak") }
        try tmux.send("q")
        #expect(try sandbox.status(of: "home") == 0)
    }

    @Test func leaving_setup_midway_writes_nothing_and_the_next_run_starts_over() throws {
        let tmux = try firstRun()
        try tmux.waitForScreen("page 1 of 12") { $0.contains("1 / 12") }
        try tmux.send("Escape")
        try tmux.waitForScreen("no skipping on the first run") { $0.contains("Ctrl-C leaves without saving anything") }
        for _ in 0..<12 { try tmux.send("Enter") }
        try tmux.waitForScreen("the program list") { $0.contains("Which programs should pause first?") }
        try tmux.send("Space")
        try tmux.send("Enter")
        try tmux.waitForScreen("interests") { $0.contains("What would you like to read") }
        try tmux.send("C-c")
        #expect(try sandbox.status(of: "home") == 130)
        #expect(try tmux.screen().contains("Nothing was saved."))
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/config/miga/config.toml"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/data/miga/shims"))
        #expect(sandbox.read(".bashrc") == nil)
    }

    @Test func after_a_good_setup_for_bash_doctor_is_well_and_a_shell_nobody_uses_is_information() throws {
        // A desktop with a notification server; zsh and fish installed, with no start-up file of theirs.
        let server = try NotificationServer(folder: sandbox.root + "/server")
        let environment = sandbox.environment.merging(["SHELL": "/bin/bash", "XDG_DATA_DIRS": sandbox.root + "/system",
                                                       "DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress]) { $1 }
        for shell in ["zsh", "fish"] { #expect(ProgramResolver(searchPath: environment["PATH"]).resolve(shell) != nil, "\(shell) is installed") }
        let setup = try Tmux(command: shellQuoted(migaBinary), environment: environment)
        for _ in 0..<12 { try setup.send("Enter") }
        try setup.waitForScreen("the program list") { $0.contains("Which programs should pause first?") }
        try setup.send("Space")                       // Firefox
        try setup.waitForScreen("one chosen") { $0.contains("Continue with 1 program") }
        try setup.finishSetup(hookKey: "y")
        try setup.waitForScreen("the hub") { $0.contains("Firefox") && $0.contains("s stats") }
        try setup.send("q")

        // A new terminal: bash reads ~/.bashrc, which now runs the hook; there the person asks doctor.
        let shell = try Tmux(command: "bash -i", environment: environment)
        func doctor(_ name: String) throws -> (status: Int32, output: String) {
            try shell.send("-l", "cd \(shellQuoted(sandbox.root)) && miga doctor > \(name).out 2>&1; echo $? > \(name).status")
            try shell.send("Enter")
            return (try sandbox.status(of: name), sandbox.read(name + ".out") ?? "")
        }
        let well = try doctor("doctor")
        #expect(well.status == 0, "\(well.output)")
        #expect(!well.output.contains("✗"), "\(well.output)")
        #expect(well.output.contains("✓ shell: \(sandbox.root)/.bashrc runs miga init"), "\(well.output)")
        #expect(well.output.contains("✓ firefox: 2 of 2 routes reach the pause"), "\(well.output)")
        #expect(well.output.contains("· shell: zsh is installed but not in use here (no ~/.zshrc)"), "\(well.output)")
        #expect(well.output.contains("· shell: fish is installed but not in use here (no ~/config/fish/config.fish)"), "\(well.output)")

        // A ~/.zshrc: zsh is in use, and without the hook typing a name there walks around the pause.
        try "setopt autocd\n".write(toFile: sandbox.root + "/.zshrc", atomically: true, encoding: .utf8)
        let unhooked = try doctor("again")
        #expect(unhooked.status == 1, "\(unhooked.output)")
        #expect(unhooked.output.contains("✗ firefox: 2 of 3 routes reach the pause (not: shell hook zsh: ~/.zshrc does not run miga init)\n"
                                         + "    fix: add this line to ~/.zshrc:  eval \"$(miga init zsh)\""), "\(unhooked.output)")
        #expect(!unhooked.output.contains("· shell: zsh"), "\(unhooked.output)")
        #expect(unhooked.output.contains("· shell: fish is installed but not in use here"), "\(unhooked.output)")
    }

    @Test func without_a_terminal_miga_says_what_it_is() throws {
        let result = try run(migaBinary, [], environment: sandbox.environment)
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE: miga <subcommand>"))
    }
}

/// The quote bank's commands, interests and config, through the binary.
@Suite(.serialized, .endToEnd) struct QuotesEndToEndTests {
    let sandbox = Sandbox()

    func miga(_ arguments: String...) throws -> (status: Int32, output: String, error: String) {
        try run(migaBinary, arguments, environment: sandbox.environment)
    }

    @Test func a_real_fortune_file_keeps_every_entry_and_its_tag() throws {
        let path = "/usr/share/games/fortunes/fortunes"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // Counted here independently: the stretches between lines of "%" that hold any text.
        let expected = text.components(separatedBy: "\n%\n").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }.count
        let imported = try miga("quotes", "import", path)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output == "Imported \(expected) quotes tagged Fortunes.\n")
        let listed = try miga("quotes", "list", "--tag", "fortunes")
        #expect(listed.output.split(separator: "\n").count == expected)
        #expect(try miga("quotes", "tags").output.split(separator: "\n").contains { $0.split(separator: " ") == ["Fortunes", "\(expected)"] })
        // Again: the same number, not twice as many.
        _ = try miga("quotes", "import", path)
        #expect(try miga("quotes", "list", "--tag", "Fortunes").output.split(separator: "\n").count == expected)
    }

    @Test func malformed_fortune_input_is_refused_with_a_line_number() throws {
        #expect(FileManager.default.createFile(atPath: sandbox.root + "/notes", contents: Data("fine\n%\nbad \u{FF}".utf8.dropLast(2)) + Data([0xFF, 0x0A])))
        let result = try miga("quotes", "import", sandbox.root + "/notes")
        #expect(result.status == 65)
        #expect(result.error.contains("notes:3: not UTF-8 text"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/config/miga/quotes/notes.txt"))
    }

    @Test func own_quotes_interests_and_config() throws {
        #expect(try miga("quotes", "add", "Somewhere a kettle is singing.", "--tag", "Tea").output == "Added mine-001.\n")
        #expect(try miga("quotes", "show", "mine-001").output.contains("from: \(sandbox.root)/config/miga/quotes/mine.txt"))
        #expect(try miga("quotes", "remove", "zen-001").status == 64)
        #expect(try miga("interests", "set", "tea", "nature").output == "Interests: Tea, Nature.\n")
        #expect(try miga("interests", "set", "Knitting").status == 64)
        let shown = try miga("config")
        #expect(shown.output.contains("interests = [\"Tea\", \"Nature\"]") && shown.output.contains("pause = 90"))
        #expect(try miga("quotes", "remove", "mine-001").status == 0)
        #expect(try miga("interests").output.contains("Interests: Tea, Nature."))
    }

    @Test func help_teaches_and_completions_load_in_bash() throws {
        // Every command and subcommand: an abstract, and an example in its discussion.
        let commands = [[], ["hub"], ["setup"], ["gate"], ["stats"], ["history"], ["protect"], ["unprotect"], ["list"], ["init"],
                        ["quotes"], ["quotes", "list"], ["quotes", "tags"], ["quotes", "show"], ["quotes", "add"],
                        ["quotes", "import"], ["quotes", "remove"], ["interests"], ["interests", "show"], ["interests", "set"],
                        ["config"], ["config", "show"], ["config", "edit"], ["doctor"], ["export"], ["import"], ["sync"], ["uninstall"]]
        for command in commands {
            let help = try run(migaBinary, command + ["--help"], environment: sandbox.environment)
            #expect(help.status == 0)
            #expect(help.output.contains("OVERVIEW:"), "miga \(command.joined(separator: " ")) has no abstract")
            #expect(help.output.contains("Example"), "miga \(command.joined(separator: " ")) has no example")
        }
        let top = try miga("--help").output
        for command in commands.compactMap(\.first) { #expect(top.contains(command), "miga --help does not list \(command)") }
        let script = try miga("--generate-completion-script", "bash")
        #expect(script.output.contains("protect") && script.output.contains("quotes"))
        let loaded = try run("/bin/bash", ["-c", script.output + "\ncomplete -p miga"])
        #expect(loaded.status == 0, "\(loaded.error)")
        for shell in ["zsh", "fish"] {
            #expect(try miga("--generate-completion-script", shell).output.contains("miga"))
        }
    }
}
