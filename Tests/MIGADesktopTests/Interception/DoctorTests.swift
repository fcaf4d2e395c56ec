import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGAConfig
@testable import MIGADesktop
@testable import MIGATestSupport

@Suite struct DoctorTests {
    let home = TemporaryDirectory()

    init() throws {
        try home.write("#!/bin/sh\n", to: "bin/firefox")
        chmod(home.path + "/bin/firefox", 0o755)
        try home.write("binary", to: "gateway/miga")
        chmod(home.path + "/gateway/miga", 0o755)
    }

    var shims: String { home.path + "/.local/share/miga/shims" }

    func doctor(path: String, server: String? = "dunst") -> Doctor {
        let environment = ["HOME": home.path, "PATH": path, "SHELL": "/bin/zsh", "XDG_DATA_DIRS": home.path + "/system"]
        let protection = Protection(paths: XDGPaths(environment: environment), environment: environment,
                                    gateway: home.path + "/gateway/miga")
        return Doctor(protection: protection, notificationServer: { server })
    }

    @Test func all_is_well_when_every_route_reaches_the_gateway() throws {
        let healthy = doctor(path: shims + ":" + home.path + "/bin")
        try healthy.protection.protect("firefox")
        try home.write("eval \"$(\(home.path)/gateway/miga init zsh)\"\n", to: ".zshrc")
        let findings = healthy.examine()
        #expect(findings.allSatisfy { $0.ok }, "\(findings.filter { !$0.ok })")
        #expect(findings.contains { $0.text == "firefox: reaches the gateway" })
        #expect(findings.contains { $0.text == "notifications: dunst is listening" })
    }

    @Test func the_pause_window_is_named_with_why_in_one_line() throws {
        for name in ["uxterm", "foot"] {
            try home.write("#!/bin/sh\n", to: "bin/" + name)
            chmod(home.path + "/bin/" + name, 0o755)
        }
        try FileManager.default.createSymbolicLink(atPath: home.path + "/bin/x-terminal-emulator", withDestinationPath: home.path + "/bin/uxterm")
        func finding(_ extra: [String: String]) -> Finding? {
            let environment = ["HOME": home.path, "PATH": home.path + "/bin"].merging(extra) { $1 }
            let protection = Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: home.path + "/gateway/miga")
            return Doctor(protection: protection, notificationServer: { "dunst" }).examine().first { $0.text.hasPrefix("pause window:") }
        }
        let wayland = try #require(finding(["WAYLAND_DISPLAY": "wayland-1"]))
        #expect(wayland.ok && wayland.text == "pause window: foot, the first installed terminal that speaks Wayland, "
            + "before x-terminal-emulator (uxterm), which speaks only X11")
        let x11 = try #require(finding(["DISPLAY": ":0"]))
        #expect(x11.ok && x11.text == "pause window: x-terminal-emulator (uxterm), Debian's default terminal")
        let named = try #require(finding(["WAYLAND_DISPLAY": "wayland-1", "TERMINAL": "x-terminal-emulator"]))
        #expect(named.ok && named.text == "pause window: foot, since x-terminal-emulator (uxterm), named by $TERMINAL, speaks only X11, "
            + "which this session lacks")
        let shell = try #require(finding([:]))
        #expect(shell.info && shell.text.hasSuffix("(no display in this shell to try it on: DISPLAY and WAYLAND_DISPLAY are unset)"))
        unlink(home.path + "/bin/foot")
        let none = try #require(finding(["WAYLAND_DISPLAY": "wayland-1"]))
        #expect(!none.ok && none.text == "pause window: none can open: x-terminal-emulator (uxterm), Debian's default terminal, "
            + "speaks only X11, which this session lacks")
        #expect(none.fix == "install a terminal that speaks Wayland (foot or kitty on Wayland, xterm on X11)")
        unlink(home.path + "/bin/x-terminal-emulator")
        let missing = try #require(finding(["WAYLAND_DISPLAY": "wayland-1"]))
        #expect(!missing.ok && missing.text == "pause window: no terminal emulator is installed, so a launch from the menu cannot pause")
        #expect(try #require(finding([:])).info, "no display here: perhaps no desktop either")
    }

    @Test func each_problem_comes_with_a_one_line_fix() throws {
        let unhooked = doctor(path: home.path + "/bin", server: nil)
        try unhooked.protection.protect("firefox")
        try home.write("pause = oops\n", to: ".config/miga/config.toml")
        let problems = unhooked.examine().filter { !$0.ok }
        #expect(problems.map(\.text).contains { $0.contains("is not on PATH") })
        #expect(problems.map(\.text).contains { $0.contains(".zshrc does not run miga init") })
        #expect(problems.map(\.text).contains { $0.hasPrefix("config: ") })
        #expect(problems.map(\.text).contains { $0.hasPrefix("notifications: no notification server") })
        #expect(problems.allSatisfy { $0.fix?.isEmpty == false })
        // miga is not on this PATH: the line names it by its path.
        #expect(problems.first { $0.text.contains("not on PATH") }?.fix?.contains("eval \"$(\(home.path)/gateway/miga init zsh)\"") == true)
    }

    @Test func a_program_that_path_reaches_before_its_shim_is_named() throws {
        let behind = doctor(path: home.path + "/bin:" + shims)
        try behind.protection.protect("firefox")
        let finding = try #require(behind.examine().first { $0.text.hasPrefix("firefox:") })
        #expect(!finding.ok)
        #expect(finding.text == "firefox: typing it runs \(home.path)/bin/firefox, not the gateway")
    }

    @Test func a_nested_menu_override_is_caught_and_fix_leaves_one_gateway() throws {
        try home.write("[Desktop Entry]\nType=Application\nName=Slack\nExec=\(home.path)/bin/firefox -s %U\n",
                       to: "system/applications/slack.desktop")
        let doctor = doctor(path: shims + ":" + home.path + "/bin")
        try doctor.protection.protect("firefox")
        let override = home.path + "/.local/share/applications/slack.desktop"
        #expect(doctor.examine().contains { $0.ok && $0.text.hasPrefix("menu: \(override) starts the pause") })
        // As an earlier MIGA's second protect left it.
        let gateway = home.path + "/gateway/miga"
        let text = try String(contentsOfFile: override, encoding: .utf8)
        try text.replacingOccurrences(of: "Exec=\(gateway) gate --window --detach", with: "Exec=\(gateway) gate --as firefox \(gateway) -- gate --window --detach")
            .write(toFile: override, atomically: true, encoding: .utf8)
        try "desktop\t\(override)\t-\tfirefox\n".write(toFile: doctor.protection.manifestPath, atomically: true, encoding: .utf8)
        let finding = try #require(doctor.examine().first { $0.text.hasPrefix("menu:") })
        #expect(!finding.ok)
        #expect(finding.text.contains("wraps the gateway inside the gateway"))
        #expect(finding.fix == "miga doctor --fix")
        let done = try doctor.protection.repair()
        #expect(done.contains { $0.hasPrefix("Wrote \(override) again") }, "\(done)")
        #expect(try String(contentsOfFile: override, encoding: .utf8) == text)
        #expect(doctor.examine().allSatisfy { !$0.text.hasPrefix("menu:") || $0.ok })
        #expect(try doctor.protection.repair().isEmpty, "a second repair has nothing to do")
    }

    @Test func a_menu_override_of_a_removed_package_is_named_and_fix_removes_it() throws {
        try home.write("[Desktop Entry]\nType=Application\nName=Firefox\nExec=firefox %u\n", to: "system/applications/firefox.desktop")
        let doctor = doctor(path: shims + ":" + home.path + "/bin")
        try doctor.protection.protect("firefox")
        unlink(home.path + "/system/applications/firefox.desktop")
        let finding = try #require(doctor.examine().first { $0.text.hasPrefix("menu:") })
        #expect(!finding.ok && finding.text.contains("stands for an entry that is gone"))
        _ = try doctor.protection.repair()
        #expect(!FileManager.default.fileExists(atPath: home.path + "/.local/share/applications/firefox.desktop"))
        #expect(!doctor.examine().contains { $0.text.hasPrefix("menu:") })
    }

    @Test func a_shell_installed_but_not_in_use_is_information_and_one_in_use_without_the_hook_a_problem() throws {
        // bash, zsh and fish installed; the person logs in to bash, whose start-up file runs the hook.
        for shell in ["bash", "zsh", "fish"] { try home.writeProgram("#!/bin/sh\n", to: "shells/\(shell)") }
        let environment = ["HOME": home.path, "PATH": shims + ":" + home.path + "/bin:" + home.path + "/shells", "SHELL": "/bin/bash",
                           "XDG_DATA_DIRS": home.path + "/system"]
        let protection = Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: home.path + "/gateway/miga")
        let doctor = Doctor(protection: protection, notificationServer: { "dunst" })
        try protection.protect("firefox")
        try home.write("eval \"$(\(home.path)/gateway/miga init bash)\"\n", to: ".bashrc")
        let findings = doctor.examine()
        #expect(findings.allSatisfy { $0.ok }, "\(findings.filter { !$0.ok })")
        #expect(findings.contains { $0.text == "firefox: 2 of 2 routes reach the pause" }, "\(findings.map(\.text))")
        let idle = findings.filter(\.info).map(\.text)
        #expect(idle.contains { $0.hasPrefix("shell: zsh is installed but not in use here (no ~/.zshrc)") }, "\(idle)")
        #expect(idle.contains { $0.hasPrefix("shell: fish is installed but not in use here (no ~/.config/fish/config.fish)") }, "\(idle)")
        #expect(findings.filter(\.info).allSatisfy { $0.mark == "·" && $0.fix == nil })
        #expect(protection.coverage().first?.routes.map(\.kind) == [.shellHook, .shim])

        // A ~/.zshrc is a shell in use: without the hook, a route that is missing, with its fix.
        try home.write("setopt autocd\n", to: ".zshrc")
        let problems = doctor.examine().filter { !$0.ok }
        #expect(problems.map(\.text) == ["firefox: 2 of 3 routes reach the pause (not: shell hook zsh: ~/.zshrc does not run miga init)"],
                "\(problems.map(\.text))")
        #expect(problems.first?.fix == "add this line to ~/.zshrc:  eval \"$(\(home.path)/gateway/miga init zsh)\"")
        #expect(!doctor.examine().contains { $0.info && $0.text.contains("zsh") })

        // The login shell counts without a start-up file: fish, as the passwd entry or $SHELL says.
        let fishFirst = Protection(paths: protection.paths, environment: environment.merging(["SHELL": "/usr/bin/fish"]) { $1 },
                                   gateway: home.path + "/gateway/miga")
        #expect(fishFirst.idleShells().isEmpty)
        #expect(fishFirst.coverage().first?.routes.filter { $0.kind == .shellHook }.map(\.place)
                == ["bash: ~/.bashrc", "zsh: ~/.zshrc", "fish: ~/.config/fish/config.fish"])
    }

    @Test func a_damaged_history_is_reported() throws {
        try home.write("not a database at all", to: ".local/share/miga/miga.sqlite")
        let finding = try #require(doctor(path: home.path + "/bin").examine().first { $0.text.hasPrefix("history:") })
        #expect(!finding.ok)
        #expect(finding.fix?.contains("move it aside") == true)
    }
}

@Suite struct UninstallTests {
    let home = TemporaryDirectory()

    @Test func uninstall_removes_what_miga_wrote_and_says_what_stays() throws {
        try home.write("#!/bin/sh\n", to: "bin/firefox")
        chmod(home.path + "/bin/firefox", 0o755)
        try home.write("# mine\nexport EDITOR=vi\neval \"$(miga init bash)\"\n", to: ".bashrc")
        let environment = ["HOME": home.path, "PATH": home.path + "/bin", "XDG_DATA_DIRS": home.path + "/system", "XDG_CONFIG_DIRS": home.path + "/xdg"]
        let protection = Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: "/usr/bin/true")
        try protection.protect("firefox", ProgramChanges(pause: 20, allowMinutes: 15, hours: "Mon-Fri 09:00-17:00", askIntention: true))
        let settings = ConfigLoader.load(from: protection.paths.configFile).config.programs["firefox"]
        var manifest = Manifest(path: protection.manifestPath)
        manifest.record(.hookLine(file: home.path + "/.bashrc", line: "eval \"$(miga init bash)\""))
        try manifest.save()
        _ = try SessionStore(path: protection.paths.storeFile)

        let remaining = try protection.uninstall(purge: false)
        #expect(try String(contentsOfFile: home.path + "/.bashrc", encoding: .utf8) == "# mine\nexport EDITOR=vi\n")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/.local/share/miga/shims"))
        #expect(!FileManager.default.fileExists(atPath: protection.manifestPath))
        #expect(FileManager.default.fileExists(atPath: protection.paths.storeFile))
        #expect(remaining.contains { $0.contains("history is kept") })
        // Every program's rules stay with the settings: protecting again finds them as they were.
        #expect(remaining.contains { $0.contains("settings are kept") })
        #expect(!protection.hasWrittenRoutes)
        try protection.protect("firefox")
        #expect(ConfigLoader.load(from: protection.paths.configFile).config.programs["firefox"] == settings)
        _ = try protection.uninstall(purge: false)

        _ = try protection.uninstall(purge: true)
        #expect(!FileManager.default.fileExists(atPath: protection.paths.dataDirectory))
    }
}
