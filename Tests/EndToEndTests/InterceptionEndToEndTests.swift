import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGAConfig

/// Protected programs reached the ordinary ways: by name in bash, zsh and
/// fish after the generated hook, from scripts, through shims.
@Suite(.serialized, .endToEnd) struct InterceptionEndToEndTests {
    let sandbox = Sandbox()
    var shims: String { sandbox.root + "/data/miga/shims" }

    func protect(_ arguments: String...) throws {
        let result = try run(migaBinary, ["protect"] + arguments, environment: sandbox.environment)
        #expect(result.status == 0, "\(result.error)")
    }

    /// Runs `script` in `shell` under its strictest settings, from the sandbox.
    func runScript(_ shell: String, _ script: String) throws -> (status: Int32, output: String, error: String) {
        let file = sandbox.root + "/script"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        let arguments: [String] = switch shell {
        case "bash": ["--noprofile", "--norc", "-euo", "pipefail", file]
        case "zsh": ["-f", "-o", "err_exit", "-o", "no_unset", "-o", "pipe_fail", file]
        default: ["--no-config", file]
        }
        return try run("/usr/bin/" + shell, arguments, environment: sandbox.environment.merging(["SHELL": "/usr/bin/" + shell]) { $1 })
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func the_hook_puts_the_shims_first_once_and_the_name_reaches_the_gateway(shell: String) throws {
        try protect("argv-dump")
        let miga = shellQuoted(migaBinary)
        let script = shell == "fish" ? """
            \(miga) init fish | source
            \(miga) init fish | source
            cd \(shellQuoted(sandbox.root))
            string join \\n $PATH > path.txt
            command -v argv-dump > which.txt
            argv-dump 'a b' 'c$d' '' </dev/null
            echo $status > status.txt
            """ : """
            eval "$(\(miga) init \(shell))"
            eval "$(\(miga) init \(shell))"
            cd \(shellQuoted(sandbox.root))
            printf '%s\\n' "$PATH" | tr ':' '\\n' > path.txt
            command -v argv-dump > which.txt
            code=0
            argv-dump 'a b' 'c$d' '' </dev/null || code=$?
            echo "$code" > status.txt
            """
        let result = try runScript(shell, script)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.isEmpty && result.error.isEmpty, "the hook printed: \(result.output)\(result.error)")
        let path = try #require(sandbox.read("path.txt")).split(separator: "\n").map(String.init)
        #expect(path.first == shims)
        #expect(path.filter { $0 == shims }.count == 1)
        #expect(sandbox.read("which.txt") == shims + "/argv-dump\n")
        #expect(sandbox.read("status.txt") == "7\n")
        #expect(sandbox.bytes("argv") == Array("a b\u{0}c$d\u{0}\u{0}".utf8))
        #expect(try sandbox.sessions().map(\.outcome) == [.passthrough])
    }

    /// An interactive `shell` in tmux, with nothing of the person's start-up files, at its prompt.
    func interactiveShell(_ shell: String) throws -> Tmux {
        let command = switch shell {
        case "bash": "bash --noprofile --norc -i"
        case "zsh": "zsh -f -i"
        default: "fish --no-config -i -C 'function fish_prompt; echo \"READY$ \"; end'"
        }
        let tmux = try Tmux(command: command, environment: sandbox.environment.merging(["PS1": "READY$ "]) { $1 })
        try tmux.waitForScreen("a prompt") { $0.contains("READY$") }
        return tmux
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func typing_the_name_in_an_interactive_shell_shows_the_pause(shell: String) throws {
        try protect("argv-dump", "--pause", "60")
        let tmux = try interactiveShell(shell)
        let hook = shell == "fish" ? "\(shellQuoted(migaBinary)) init fish | source"
                                   : "eval \"$(\(shellQuoted(migaBinary)) init \(shell))\""
        try tmux.send("-l", hook)
        try tmux.send("Enter")
        try tmux.send("-l", "argv-dump 'typed by hand'")
        try tmux.send("Enter")
        try tmux.waitForScreen("the pause") { $0.contains("a pause before Argv-dump") && $0.contains("Exit to Focus") }
        try tmux.send("e")
        try tmux.waitForScreen("the farewell") { $0.contains("✓ You chose yourself.") }
        #expect(sandbox.read("argv") == nil)
        #expect(try sandbox.sessions().map(\.outcome) == [.exit])
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func protect_and_unprotect_take_effect_at_the_next_command_line_of_an_open_shell(shell: String) throws {
        try sandbox.program("steam", "#!/bin/sh\necho \"real steam $*\" >> \(shellQuoted(sandbox.root + "/steam.log"))\n")
        try sandbox.config("pause = 1\n") // the switch-off pause's length
        let tmux = try interactiveShell(shell)
        let miga = shellQuoted(migaBinary)
        try tmux.send("-l", shell == "fish" ? "\(miga) init fish | source" : "eval \"$(\(miga) init \(shell))\"")
        try tmux.send("Enter")
        // The shell remembers where it found steam...
        try tmux.send("-l", "steam one")
        try tmux.send("Enter")
        try eventually("the real program") { sandbox.read("steam.log")?.contains("real steam one") == true ? true : nil }
        // ...and after protect, the next command line reaches the pause all the same.
        try tmux.send("-l", "\(miga) protect steam --pause 60")
        try tmux.send("Enter")
        try tmux.waitForScreen("protected") { $0.contains("Protected steam.") }
        try tmux.send("-l", "steam two")
        try tmux.send("Enter")
        try tmux.waitForScreen("the pause") { $0.contains("a pause before Steam") && $0.contains("Exit to Focus") }
        try tmux.send("e")
        try tmux.waitForScreen("the farewell") { $0.contains("✓ You chose yourself.") }
        #expect(sandbox.read("steam.log")?.contains("two") == false)
        // After unprotect, the shim it remembered is gone: the next command line runs the program.
        try tmux.send("-l", "\(miga) unprotect steam")
        try tmux.send("Enter")
        try tmux.waitForScreen("the switch-off pause at zero") { $0.contains("a pause before unprotecting Steam") && $0.contains("the choice is yours") }
        try tmux.send("p")
        try tmux.waitForScreen("unprotected") { $0.contains("steam is no longer protected.") }
        try tmux.send("-l", "steam four")
        try tmux.send("Enter")
        try eventually("the real program again") { sandbox.read("steam.log")?.contains("real steam four") == true ? true : nil }
        #expect(!(try tmux.screen()).contains("No such file"))
    }

    @Test func through_the_shim_a_script_gets_the_program_with_exact_arguments_and_status() throws {
        try protect("argv-dump")
        let environment = sandbox.environment.merging(["PATH": shims + ":" + sandbox.root + "/bin:" + Sandbox.systemPath]) { $1 }
        let result = try run(shims + "/argv-dump", ["--flag", "two words", "*", "$HOME", "日本"], environment: environment)
        #expect(result.status == 7)
        #expect(sandbox.bytes("argv") == Array("--flag\u{0}two words\u{0}*\u{0}$HOME\u{0}日本\u{0}".utf8))
    }

    @Test func an_empty_path_entry_means_the_current_folder() throws {
        let script = "cd \(shellQuoted(sandbox.root + "/bin")) && exec \(shellQuoted(migaBinary)) gate argv-dump -- here"
        let result = try run("/bin/sh", ["-c", script], environment: sandbox.environment.merging(["PATH": "/nonexistent::/usr/bin:/bin"]) { $1 })
        #expect(result.status == 7, "\(result.error)")
        #expect(sandbox.bytes("argv") == Array("here\u{0}".utf8))
    }

    @Test func two_gateways_pointing_at_each_other_stop_with_a_message() throws {
        // Two copies of miga (different files), each shimmed as the command, and no real program.
        for copy in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: "\(sandbox.root)/\(copy)", withIntermediateDirectories: true)
            try copyExecutable(from: migaBinary, to: "\(sandbox.root)/\(copy)/miga")
            try FileManager.default.createSymbolicLink(atPath: "\(sandbox.root)/\(copy)/looping", withDestinationPath: "\(sandbox.root)/\(copy)/miga")
        }
        let environment = sandbox.environment.merging(["PATH": "\(sandbox.root)/a:\(sandbox.root)/b:" + Sandbox.systemPath]) { $1 }
        let started = Date()
        let result = try run(sandbox.root + "/a/looping", ["x"], environment: environment)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(result.status == 126)
        #expect(result.error.contains("keeps leading from one gateway to another"), "\(result.error)")
    }

    @Test(arguments: [("pass", Int32(7)), ("deny", Int32(69))])
    func without_a_terminal_each_policy_answers_at_once(policy: String, status: Int32) throws {
        try protect("argv-dump", "--non-interactive", policy)
        let started = Date()
        let result = try run(migaBinary, ["gate", "argv-dump", "--", "piped"], environment: sandbox.environment, input: "input\n")
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(result.status == status)
        #expect((sandbox.read("argv") != nil) == (policy == "pass"))
    }

    @Test func protect_then_unprotect_all_leaves_no_trace() throws {
        try FileManager.default.createDirectory(atPath: sandbox.root + "/config/miga", withIntermediateDirectories: true)
        try "# my own settings\npause = 30\n".write(toFile: sandbox.root + "/config/miga/config.toml", atomically: true, encoding: .utf8)
        try protect("argv-dump", "--name", "Dumper")
        let listed = try run(migaBinary, ["list"], environment: sandbox.environment)
        #expect(listed.output.contains("argv-dump") && listed.output.contains("Dumper") && listed.output.contains("shim ✓"))
        // Without a terminal, switching off needs --now: a script says so on purpose.
        let refused = try run(migaBinary, ["unprotect", "--all"], environment: sandbox.environment)
        #expect(refused.status == 64)
        #expect(refused.error.contains("add --now"))
        #expect(sandbox.read("config/miga/config.toml")?.contains("argv-dump") == true)
        let result = try run(migaBinary, ["unprotect", "--all", "--now"], environment: sandbox.environment)
        #expect(result.status == 0)
        let history = try run(migaBinary, ["history"], environment: sandbox.environment)
        #expect(history.output.contains("argv-dump  unprotected"))
        #expect(sandbox.read("config/miga/config.toml") == "# my own settings\npause = 30\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shims).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/data/miga/manifest"))
    }

    @Test func uninstall_keeps_every_programs_rules_for_the_next_protect() throws {
        try sandbox.config("# mine\npause = 40\n")
        try protect("argv-dump", "--name", "Dumper", "--pause", "20", "--allow", "15", "--hours", "Mon-Fri 09:00-17:00", "--ask-intention")
        let rules = ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config.programs["argv-dump"]
        #expect(rules?.allowMinutes == 15)
        let uninstall = try run(migaBinary, ["uninstall", "--now"], environment: sandbox.environment)
        #expect(uninstall.status == 0, "\(uninstall.error)")
        #expect(uninstall.output.contains("Your settings are kept"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.root + "/data/miga").allSatisfy { $0 != "shims" && $0 != "manifest" })
        try protect("argv-dump")
        #expect(ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config.programs["argv-dump"] == rules)
        let listed = try run(migaBinary, ["list"], environment: sandbox.environment)
        #expect(listed.output.contains("Dumper") && listed.output.contains("allow 15"), "\(listed.output)")
    }

    @Test func unprotecting_a_program_that_is_not_protected_says_so_and_changes_nothing() throws {
        try protect("argv-dump")
        let result = try run(migaBinary, ["unprotect", "--now", "frefox"], environment: sandbox.environment)
        #expect(result.status == 64)
        #expect(result.error == "miga: frefox is not protected; nothing was changed (miga list shows what is)\n")
        #expect(result.output.isEmpty)
        #expect(try SessionStore(path: sandbox.storePath).changes().isEmpty)
        #expect(ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config.programs["argv-dump"] != nil)
    }

    @Test func a_path_that_cannot_be_executed_is_126_and_a_missing_one_127() throws {
        try "not a program".write(toFile: sandbox.root + "/noexec", atomically: true, encoding: .utf8)
        for (path, status, message) in [(sandbox.root + "/noexec", Int32(126), "cannot be executed: it is not executable"),
                                         (sandbox.root + "/bin", Int32(126), "cannot be executed: it is a folder"),
                                         (sandbox.root + "/nothing", Int32(127), "Please install \(sandbox.root)/nothing first.")] {
            let result = try run(migaBinary, ["gate", path], environment: sandbox.environment)
            #expect(result.status == status, "\(path): \(result.error)")
            #expect(result.error.contains(message), "\(result.error)")
        }
        #expect(try sandbox.sessions().isEmpty, "nothing is recorded")
    }

    @Test func refusals_say_why_with_their_statuses() throws {
        let missing = try run(migaBinary, ["protect", "not-installed"], environment: sandbox.environment)
        #expect(missing.status == 127)
        #expect(missing.error == "Please install not-installed first.\n")
        let shell = try run(migaBinary, ["protect", "bash"], environment: sandbox.environment)
        #expect(shell.status == 64)
        #expect(shell.error.contains("is a shell"))
        let unknownShell = try run(migaBinary, ["init", "tcsh"], environment: sandbox.environment)
        #expect(unknownShell.status == 64)
        #expect(unknownShell.error.contains("'bash', 'zsh' or 'fish'"), "\(unknownShell.error)")
    }
}
