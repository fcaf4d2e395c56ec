import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGADesktop

/// An installation that lasts: miga at a stable path (as `make run` and
/// `make install` leave it), setup's hook line working in the next new login
/// shell of each kind, and `doctor` catching, and `--fix` repairing, routes
/// that point at a miga that is gone.
@Suite(.serialized, .endToEnd) struct InstallationEndToEndTests {
    let sandbox = Sandbox()
    /// The installed miga, outside this shell's PATH, as ~/.local/bin often is at first:
    /// the one a fresh clone's `make run` installed (scripts/check-fresh-clone,
    /// which `make test` runs, passes it in MIGA_INSTALLED), else the built one
    /// copied into a prefix of the sandbox.
    let installed: String

    init() throws {
        if let made = ProcessInfo.processInfo.environment["MIGA_INSTALLED"] {
            installed = made
        } else {
            installed = sandbox.root + "/prefix/bin/miga"
            try FileManager.default.createDirectory(atPath: sandbox.root + "/prefix/bin", withIntermediateDirectories: true)
            try copyExecutable(from: migaBinary, to: installed)
        }
        // A new Debian user's home: ~/.profile reads ~/.bashrc in a login shell.
        for file in [".profile", ".bashrc"] {
            try FileManager.default.copyItem(atPath: "/etc/skel/" + file, toPath: sandbox.root + "/" + file)
        }
    }

    func environment(shell: String) -> [String: String] {
        sandbox.environment.merging(["SHELL": "/usr/bin/" + shell, "PATH": sandbox.root + "/bin:" + Sandbox.systemPath]) { $1 }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func after_setup_a_new_login_shell_reaches_the_pause_and_prints_nothing_at_start(shell: String) throws {
        let environment = environment(shell: shell)
        let protect = try run(installed, ["protect", "argv-dump", "--pause", "60"], environment: environment)
        #expect(protect.status == 0, "\(protect.error)")
        // Setup, from the installed miga, adds the hook line.
        let script = sandbox.root + "/setup.sh"
        try "cd \(shellQuoted(sandbox.root))\n\(shellQuoted(installed)) setup\necho \"$?\" > setup.sh.status\nsleep 600\n".write(toFile: script, atomically: true, encoding: .utf8)
        let setup = try Tmux(command: "sh " + shellQuoted(script), environment: environment)
        try setup.waitForScreen("the program list") { $0.contains("Which programs should pause first?") }
        try setup.finishSetup(hookKey: "y")
        try setup.waitForScreen("the hub") { $0.contains("s stats") }
        try setup.send("q")
        #expect(try sandbox.status(of: "setup.sh") == 0)
        let startup = switch shell {
        case "bash": ".bashrc"
        case "zsh": ".zshrc"
        default: "config/fish/config.fish"
        }
        // miga is not on this PATH, so the line names it by its path.
        let written = try #require(sandbox.read(startup))
        #expect(written.contains("\(installed) init \(shell)"), "\(written)")

        // A new login shell of that kind, as a terminal opens one.
        let login = switch shell {
        case "bash": "bash -l -i"
        case "zsh": "zsh -l -i"
        default: "fish -l -i -C 'function fish_prompt; echo \"READY> \"; end; function fish_greeting; end'"
        }
        // Started in the sandbox: Debian's prompt names the folder, and a checkout's long path would wrap it.
        let tmux = try Tmux(command: "sh -c " + shellQuoted("cd \(shellQuoted(sandbox.root)) && exec " + login), environment: environment.merging(["PS1": "READY> ", "PROMPT": "READY> "]) { $1 })
        // Debian's ~/.bashrc sets a prompt of its own: any prompt will do, alone on the screen.
        let first = try tmux.waitForScreen("a prompt") { screen in
            screen.contains("READY>") || screen.split(whereSeparator: \.isNewline).last.map { $0.hasSuffix("$") || $0.hasSuffix("#") } == true
        }
        #expect(first.split(whereSeparator: \.isNewline).filter { !$0.allSatisfy(\.isWhitespace) }.count == 1, "printed at shell start: \(first)")
        // miga by name: the hook put its folder on PATH.
        try tmux.send("-l", "miga --version > \(shellQuoted(sandbox.root + "/version.txt"))")
        try tmux.send("Enter")
        // (The redirection creates the file before miga writes to it.)
        #expect(try eventually("miga by name") { sandbox.read("version.txt") == "0.1.0\n" ? true : nil } == true)
        try tmux.send("-l", "argv-dump 'from a new shell'")
        try tmux.send("Enter")
        try tmux.waitForScreen("the pause") { $0.contains("a pause before Argv-dump") && $0.contains("Exit to Focus") }
        try tmux.send("e")
        // (The row is written `open` as the pause appears, and settled by the choice.)
        #expect(try eventually("the exit") { try sandbox.sessions().first?.outcome == .exit ? true : nil } == true)
        #expect(sandbox.read("argv") == nil)
    }

    @Test func doctor_catches_and_fix_repairs_a_dangling_shim_and_a_hook_line_naming_a_miga_that_is_gone() throws {
        let environment = environment(shell: "bash")
        // Protected, and the hook line added, by a miga that later moved away.
        try FileManager.default.createDirectory(atPath: sandbox.root + "/old", withIntermediateDirectories: true)
        try copyExecutable(from: migaBinary, to: sandbox.root + "/old/miga")
        #expect(try run(sandbox.root + "/old/miga", ["protect", "argv-dump"], environment: environment).status == 0)
        let protection = Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: sandbox.root + "/old/miga")
        let hook = try #require(protection.hookOffer())
        try protection.addHookLine(hook)
        #expect(hook.line == "eval \"$(\(sandbox.root)/old/miga init bash)\"")
        unlink(sandbox.root + "/old/miga")

        let found = try run(installed, ["doctor"], environment: environment)
        #expect(found.status == 1)
        #expect(found.output.contains("✗ shell: \(sandbox.root)/.bashrc runs \(sandbox.root)/old/miga, which is gone"), "\(found.output)")
        #expect(found.output.contains("✗ argv-dump: its shim points to \(sandbox.root)/old/miga, which is gone"), "\(found.output)")
        // bash's hook (the login shell) and the shim; zsh and fish are installed, but nobody here uses them.
        #expect(found.output.contains("argv-dump: 0 of 2 routes reach the pause"), "\(found.output)")
        #expect(found.output.contains("· shell: zsh is installed but not in use here (no ~/.zshrc); "
                                      + "if you start using it, add this line there:  eval \"$(\(installed) init zsh)\""), "\(found.output)")
        #expect(!found.output.contains("✗ shell hook zsh"), "\(found.output)")
        let fixed = try run(installed, ["doctor", "--fix"], environment: environment)
        #expect(fixed.output.contains("Wrote the hook line in \(sandbox.root)/.bashrc again: eval \"$(\(installed) init bash)\""), "\(fixed.output)")
        #expect(fixed.output.contains("Pointed the shim of argv-dump at \(installed)."), "\(fixed.output)")
        #expect(fixed.output.contains("argv-dump: 2 of 2 routes reach the pause"), "\(fixed.output)")
        // Everything else in the file is as it was.
        let bashrc = try #require(sandbox.read(".bashrc"))
        #expect(bashrc.hasPrefix(try String(contentsOfFile: "/etc/skel/.bashrc", encoding: .utf8)))
        #expect(!bashrc.contains("/old/miga"))
        let routes = try run(installed, ["list", "--routes"], environment: environment)
        #expect(routes.output.contains("✓ PATH shim: \(sandbox.root)/data/miga/shims/argv-dump"), "\(routes.output)")
        let json = try run(installed, ["stats", "--json"], environment: environment).output
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let coverage = try #require(document["coverage"] as? [[String: Any]])
        #expect(coverage.first?["program"] as? String == "argv-dump" && coverage.first?["reaching"] as? Int == 2)
    }

    @Test func doctor_catches_and_fix_repairs_an_override_that_starts_another_miga() throws {
        let environment = environment(shell: "bash").merging(["XDG_DATA_DIRS": sandbox.root + "/system"]) { $1 }
        try FileManager.default.createDirectory(atPath: sandbox.root + "/system/applications", withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Dumper\nExec=argv-dump --from-menu %U\n"
            .write(toFile: sandbox.root + "/system/applications/dumper.desktop", atomically: true, encoding: .utf8)
        // Protected by another miga that is still there (a second installation).
        try FileManager.default.createDirectory(atPath: sandbox.root + "/other", withIntermediateDirectories: true)
        try copyExecutable(from: migaBinary, to: sandbox.root + "/other/miga")
        #expect(try run(sandbox.root + "/other/miga", ["protect", "argv-dump"], environment: environment).status == 0)
        let override = sandbox.root + "/data/applications/dumper.desktop"
        let found = try run(installed, ["doctor"], environment: environment)
        #expect(found.status == 1)
        #expect(found.output.contains("✗ menu: \(override) starts \(sandbox.root)/other/miga, not this miga"), "\(found.output)")
        let fixed = try run(installed, ["doctor", "--fix"], environment: environment)
        #expect(fixed.output.contains("Wrote \(override) again from its source"), "\(fixed.output)")
        let entry = try DesktopEntry(text: try #require(sandbox.read("data/applications/dumper.desktop")))
        #expect(try DesktopExec.split(try #require(entry.value("Exec"))).first == .text(installed))
        #expect(try run(installed, ["list", "--routes"], environment: environment).output.contains("✓ menu: \(override)"))
    }
    @Test func doctor_says_all_is_well_with_status_0_only_when_every_route_reaches_a_live_miga() throws {
        let environment = environment(shell: "bash").merging(["PATH": sandbox.root + "/data/miga/shims:" + sandbox.root + "/bin:" + Sandbox.systemPath]) { $1 }
        #expect(try run(installed, ["protect", "argv-dump"], environment: environment).status == 0)
        try sandbox.config("notifications = false\n[programs.argv-dump]\n")
        let protection = Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: installed)
        for shell in ShellHook.Shell.allCases {
            let file = shell.startupFile(environment: environment, paths: protection.paths).path
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try (((try? String(contentsOfFile: file, encoding: .utf8)) ?? "") + protection.hookLine(for: shell) + "\n")
                .write(toFile: file, atomically: true, encoding: .utf8)
        }
        let well = try run(installed, ["doctor"], environment: environment)
        #expect(well.status == 0, "\(well.output)")
        #expect(!well.output.contains("✗"), "\(well.output)")
        #expect(well.output.contains("argv-dump: 4 of 4 routes reach the pause"), "\(well.output)")
        // A shim pointed at another program: no longer well, and said once, with its fix.
        let shim = sandbox.root + "/data/miga/shims/argv-dump"
        unlink(shim)
        #expect(symlink("/usr/bin/true", shim) == 0)
        let foreign = try run(installed, ["doctor"], environment: environment)
        #expect(foreign.status == 1)
        #expect(foreign.output.contains("✗ argv-dump: its shim points to /usr/bin/true, not this miga\n    fix: miga doctor --fix"), "\(foreign.output)")
        #expect(!foreign.output.contains("✓ argv-dump: reaches the gateway"), "\(foreign.output)")
        #expect(try run(installed, ["doctor", "--fix"], environment: environment).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: shim) == installed)
    }

    @Test func a_shim_folder_that_is_not_a_folder_is_reported_and_left_alone_until_moved() throws {
        let environment = environment(shell: "bash")
        // Something of the person's own holds the shim folder's name.
        try FileManager.default.createDirectory(atPath: sandbox.root + "/data/miga", withIntermediateDirectories: true)
        let folder = sandbox.root + "/data/miga/shims"
        try "notes of mine\n".write(toFile: folder, atomically: true, encoding: .utf8)
        let protect = try run(installed, ["protect", "argv-dump"], environment: environment)
        #expect(protect.status == 1)
        #expect(protect.error.contains("\(folder): is not a folder (move it aside, then: miga doctor --fix)"), "\(protect.error)")
        let found = try run(installed, ["doctor"], environment: environment)
        #expect(found.status == 1)
        #expect(found.output.contains("✗ shell: the shim folder \(folder) is not a folder\n    fix: move it aside (mv \(folder) \(folder).moved), then: miga doctor --fix"), "\(found.output)")
        #expect(found.output.contains("PATH shim \(folder)/argv-dump cannot be written: its folder \(folder) is not a folder"), "\(found.output)")
        // --fix does not touch what is not MIGA's, and says it could not do the rest.
        let fixing = try run(installed, ["doctor", "--fix"], environment: environment)
        #expect(fixing.status == 1)
        #expect(sandbox.read("data/miga/shims") == "notes of mine\n")
        // Moved aside, the next --fix writes the shim.
        #expect(rename(folder, folder + ".moved") == 0)
        let fixed = try run(installed, ["doctor", "--fix"], environment: environment)
        #expect(fixed.output.contains("Pointed the shim of argv-dump at \(installed)."), "\(fixed.output)")
        #expect(try run(installed, ["list", "--routes"], environment: environment).output.contains("✓ PATH shim: \(folder)/argv-dump"))
        #expect(sandbox.read("data/miga/shims.moved") == "notes of mine\n")
    }
}

/// A miga run from a build folder (a clone's `.build`) names the installed
/// miga in every route when there is one: `make clean` must not end the
/// protection. With none installed, it names itself and says so.
@Suite(.serialized, .endToEnd) struct BuildFolderEndToEndTests {
    let sandbox = Sandbox()

    @Test func routes_written_from_a_build_folder_name_the_installed_miga() throws {
        let built = sandbox.root + "/clone/.build/x86_64-unknown-linux-gnu/debug/miga"
        let installed = sandbox.root + "/.local/bin/miga"
        for path in [built, installed] {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try copyExecutable(from: migaBinary, to: path)
        }
        let environment = sandbox.environment.merging(["SHELL": "/bin/bash"]) { $1 }
        let protect = try run(built, ["protect", "argv-dump"], environment: environment)
        #expect(protect.status == 0, "\(protect.error)")
        #expect(!protect.output.contains("build folder"), "\(protect.output)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.root + "/data/miga/shims/argv-dump") == installed)
        #expect(protect.output.contains("eval \"$(\(installed) init bash)\""), "\(protect.output)")
        // doctor --fix from the build folder keeps them on the installed one.
        #expect(try run(built, ["doctor", "--fix"], environment: environment).output.contains("argv-dump: 1 of"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.root + "/data/miga/shims/argv-dump") == installed)

        // With nothing installed, the build folder's miga is all there is: said.
        unlink(installed)
        let alone = try run(built, ["protect", "argv-dump"], environment: environment)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.root + "/data/miga/shims/argv-dump") == built)
        #expect(alone.output.contains("Note: the routes name \(built), in a build folder that make clean removes"), "\(alone.output)")
    }
}
