import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGADesktop
@testable import MIGATestSupport

@Suite struct ProtectionTests {
    let home = TemporaryDirectory()
    let protection: Protection

    init() throws {
        try home.write("#!/bin/sh\n", to: "bin/firefox")
        try home.write("#!/bin/sh\n", to: "bin/steam")
        chmod(home.path + "/bin/firefox", 0o755)
        chmod(home.path + "/bin/steam", 0o755)
        try home.write("binary", to: "gateway/miga")
        chmod(home.path + "/gateway/miga", 0o755)
        let environment = ["HOME": home.path, "PATH": home.path + "/bin", "XDG_DATA_DIRS": home.path + "/system", "XDG_CONFIG_DIRS": home.path + "/xdg"]
        protection = Protection(paths: XDGPaths(environment: environment), environment: environment,
                                gateway: home.path + "/gateway/miga")
    }

    var shims: String { home.path + "/.local/share/miga/shims" }

    @Test func protecting_writes_the_config_the_shim_and_the_manifest() throws {
        try protection.protect("firefox", ProgramChanges(name: "Firefox", pause: 60))
        let config = ConfigLoader.load(from: protection.paths.configFile).config
        #expect(config.programs["firefox"] == ProgramSettings(command: "firefox", name: "Firefox", pause: 60))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: shims + "/firefox") == home.path + "/gateway/miga")
        #expect(Manifest(path: protection.manifestPath).entries == [.shim(path: shims + "/firefox")])
        let status = try #require(protection.list().first)
        #expect(status.shim)
        #expect(!status.shell) // the shim folder is not on this PATH
        #expect(status.realProgram == home.path + "/bin/firefox")
    }

    @Test func protecting_twice_does_nothing_twice() throws {
        try protection.protect("firefox")
        let config = try String(contentsOfFile: protection.paths.configFile, encoding: .utf8)
        try protection.protect("firefox")
        #expect(try String(contentsOfFile: protection.paths.configFile, encoding: .utf8) == config)
        #expect(Manifest(path: protection.manifestPath).entries.count == 1)
    }

    @Test(arguments: [("nothere", ExitStatus.notInstalled), ("bash", ExitStatus.usage), ("zsh", ExitStatus.usage),
                      ("miga", ExitStatus.usage), ("/usr/bin/firefox", ExitStatus.usage), ("", ExitStatus.usage),
                      ("-x", ExitStatus.usage)])
    func some_names_are_refused(command: String, status: Int32) {
        #expect(throws: MigaError.self) { try protection.protect(command) }
        do {
            try protection.protect(command)
        } catch {
            #expect(error.status == status)
        }
        #expect(!FileManager.default.fileExists(atPath: protection.paths.configFile))
    }

    @Test func the_path_hint_asks_for_the_hook_line_only_when_the_file_lacks_it() throws {
        let environment = ["HOME": home.path, "PATH": home.path + "/bin", "SHELL": "/bin/bash", "XDG_DATA_DIRS": home.path + "/system"]
        let protection = Protection(paths: self.protection.paths, environment: environment, gateway: self.protection.shims.gateway)
        #expect(protection.pathHint()?.contains("add this line to ~/.bashrc") == true)
        try home.write("eval \"$(miga init bash)\"\n", to: ".bashrc")
        #expect(protection.pathHint() == "~/.bashrc runs miga init already: in a new shell, typing the name reaches the pause.")
    }

    @Test func the_shell_route_is_active_when_the_shim_comes_first() throws {
        try protection.protect("firefox")
        let environment = ["HOME": home.path, "PATH": shims + ":" + home.path + "/bin", "XDG_DATA_DIRS": home.path + "/system"]
        let onPath = Protection(paths: protection.paths, environment: environment, gateway: protection.shims.gateway)
        #expect(onPath.list().first?.shell == true)
        #expect(onPath.pathHint() == nil)
        #expect(protection.pathHint()?.contains("eval \"$(\(protection.shims.gateway) init bash)\"") == true)
    }

    @Test func unprotecting_undoes_exactly_what_was_done() throws {
        try home.write("# mine\npause = 40\n", to: ".config/miga/config.toml")
        try protection.protect("firefox")
        try protection.protect("steam")
        try protection.unprotect("firefox")
        #expect(!FileManager.default.fileExists(atPath: shims + "/firefox"))
        #expect(FileManager.default.fileExists(atPath: shims + "/steam"))
        #expect(try protection.unprotectAll() == ["steam"])
        #expect(try String(contentsOfFile: protection.paths.configFile, encoding: .utf8) == "# mine\npause = 40\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shims).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: protection.manifestPath))
    }

    @Test func a_file_someone_else_put_in_the_shim_folder_is_never_removed() throws {
        try home.write("mine", to: ".local/share/miga/shims/firefox")
        try protection.unprotect("firefox")
        #expect(FileManager.default.fileExists(atPath: shims + "/firefox"))
    }
}

@Suite struct ProgramResolverTests {
    let folder = TemporaryDirectory()

    init() throws {
        for name in ["a/tool", "b/tool", "scripts/run-me"] {
            try folder.write("#!/bin/sh\n", to: name)
            chmod(folder.path + "/" + name, 0o755)
        }
        try folder.write("not executable", to: "c/tool")
        try FileManager.default.createDirectory(atPath: folder.path + "/links", withIntermediateDirectories: true)
        symlink(folder.path + "/b/tool", folder.path + "/links/tool-link")
    }

    @Test func the_first_runnable_file_on_path_wins() {
        #expect(ProgramResolver(searchPath: "\(folder.path)/c:\(folder.path)/a:\(folder.path)/b").resolve("tool") == folder.path + "/a/tool")
    }

    @Test func the_gateway_and_the_shim_folder_are_skipped() {
        let resolver = ProgramResolver(searchPath: "\(folder.path)/a:\(folder.path)/b",
                                       skippingFiles: [FileIdentity(path: folder.path + "/a/tool")])
        #expect(resolver.resolve("tool") == folder.path + "/b/tool")
        let skipFolder = ProgramResolver(searchPath: "\(folder.path)/a:\(folder.path)/b", skippingDirectories: [folder.path + "/a"])
        #expect(skipFolder.resolve("tool") == folder.path + "/b/tool")
    }

    @Test func a_link_to_the_gateway_is_skipped_like_the_gateway() {
        let resolver = ProgramResolver(searchPath: "\(folder.path)/links:\(folder.path)/a",
                                       skippingFiles: [FileIdentity(path: folder.path + "/b/tool")])
        #expect(resolver.resolve("tool-link") == nil)
    }

    @Test func links_and_scripts_are_found() {
        #expect(ProgramResolver(searchPath: folder.path + "/links").resolve("tool-link") == folder.path + "/links/tool-link")
        #expect(ProgramResolver(searchPath: folder.path + "/scripts").resolve("run-me") == folder.path + "/scripts/run-me")
    }

    @Test func relative_entries_mean_folders_from_here() throws {
        // Relative to this process's directory, which tests must not change (they run in parallel).
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let up = String(repeating: "../", count: depth)
        let relative = up + folder.path.dropFirst()
        #expect(ProgramResolver(searchPath: "\(relative)/c:\(relative)/b").resolve("tool") == "\(relative)/b/tool")
    }

    @Test func a_path_is_taken_as_it_is() {
        #expect(ProgramResolver(searchPath: "").resolve(folder.path + "/a/tool") == folder.path + "/a/tool")
        #expect(ProgramResolver(searchPath: "").resolve(folder.path + "/c/tool") == nil)
        #expect(ProgramResolver(searchPath: nil).resolve("sh") != nil)
    }
}

@Suite struct ShellHookTests {
    @Test func the_hook_quotes_awkward_paths_for_each_shell() {
        let path = "/home/o'neil/my data/miga/shims"
        let bash = ShellHook.script(for: .bash, shimDirectory: path, gateway: "/usr/bin/miga")
        #expect(bash.contains("'/home/o'\\''neil/my data/miga/shims'"))
        let fish = ShellHook.script(for: .fish, shimDirectory: path, gateway: "/usr/bin/miga")
        #expect(fish.contains("'/home/o\\'neil/my data/miga/shims'"))
    }

    @Test func functions_are_written_only_for_names_every_shell_accepts() {
        let script = ShellHook.script(for: .zsh, shimDirectory: "/s", gateway: "/g/miga", functions: ["firefox", "telegram-desktop", "a;b"])
        #expect(script.contains("firefox() { '/g/miga' gate 'firefox' -- \"$@\"; }"))
        #expect(script.contains("telegram-desktop() {"))
        #expect(!script.contains("a;b"))
    }
}

@Suite struct ManifestTests {
    @Test func entries_survive_saving_and_loading() throws {
        let folder = TemporaryDirectory()
        var manifest = Manifest(path: folder.path + "/manifest")
        manifest.record(.shim(path: "/s/firefox"))
        manifest.record(.desktopEntry(.init(path: "/apps/firefox.desktop", backup: "/b/firefox.desktop", program: "firefox", fingerprint: "1f")))
        manifest.record(.desktopEntry(.init(path: "/apps/steam.desktop", backup: nil, program: "steam", fingerprint: nil)))
        manifest.record(.hookLine(file: "/home/u/.zshrc", line: "eval \"$(miga init zsh)\""))
        manifest.record(.shim(path: "/s/firefox"))
        try manifest.save()
        let loaded = Manifest(path: folder.path + "/manifest")
        #expect(loaded == manifest)
        #expect(loaded.entries.count == 4)
        manifest.forget(.shim(path: "/s/firefox"))
        #expect(manifest.entries.count == 3)
        // Recorded again at the same path: replaced, not added.
        manifest.record(.desktopEntry(.init(path: "/apps/steam.desktop", backup: nil, program: "steam", fingerprint: "2e")))
        #expect(manifest.menuOverrides(for: "steam").map(\.fingerprint) == ["2e"])
        #expect(manifest.entries.count == 3)
    }
}
