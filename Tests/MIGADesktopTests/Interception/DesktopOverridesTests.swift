import Foundation
import Testing
@testable import MIGACore
@testable import MIGATerminal
@testable import MIGAConfig
@testable import MIGADesktop
@testable import MIGATestSupport

@Suite struct DesktopOverridesTests {
    let home = TemporaryDirectory()
    let protection: Protection
    var system: String { home.path + "/system/applications" }
    var user: String { home.path + "/.local/share/applications" }

    static let firefox = """
        [Desktop Entry]
        Version=1.0
        Name=Firefox
        Name[de]=Firefox Webbrowser
        GenericName=Web Browser
        Comment=Browse the World Wide Web
        TryExec=firefox
        Exec=/usr/lib/firefox/firefox %u
        Icon=firefox
        Terminal=false
        Type=Application
        MimeType=text/html;x-scheme-handler/http;x-scheme-handler/https;
        Categories=Network;WebBrowser;
        StartupNotify=true
        Actions=new-window;new-private-window;

        [Desktop Action new-window]
        Name=New Window
        Exec=/usr/lib/firefox/firefox --new-window %u

        [Desktop Action new-private-window]
        Name=New Private Window
        Exec=/usr/lib/firefox/firefox --private-window %u

        """
    static let spotify = """
        [Desktop Entry]
        Type=Application
        Name=Spotify
        Exec=/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=spotify --file-forwarding com.spotify.Client @@u %U @@
        Icon=com.spotify.Client
        Categories=Audio;Music;Player;AudioVideo;
        X-Flatpak=com.spotify.Client

        """
    static let htop = """
        [Desktop Entry]
        Type=Application
        Name=Htop
        Exec=htop
        Terminal=true
        Categories=System;Monitor;

        """
    static let fractal = """
        [Desktop Entry]
        Type=Application
        Name=Fractal
        Exec=fractal
        DBusActivatable=true
        Categories=Network;Chat;

        """
    static let editor = """
        [Desktop Entry]
        Type=Application
        Name=Text Editor
        Exec=env GTK_THEME=Adwaita gedit %U
        Categories=Utility;TextEditor;

        """

    init() throws {
        for (name, text) in [("firefox.desktop", Self.firefox), ("com.spotify.Client.desktop", Self.spotify),
                             ("htop.desktop", Self.htop), ("org.gnome.Fractal.desktop", Self.fractal),
                             ("org.gnome.gedit.desktop", Self.editor)] {
            try home.write(text, to: "system/applications/" + name)
        }
        for program in ["firefox", "spotify", "htop", "fractal", "gedit"] {
            try home.write("#!/bin/sh\n", to: "bin/" + program)
            chmod(home.path + "/bin/" + program, 0o755)
        }
        let environment = ["HOME": home.path, "PATH": home.path + "/bin", "XDG_DATA_DIRS": home.path + "/system"]
        protection = Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: "/opt/miga/bin/miga")
    }

    func execWords(_ path: String, group: String = DesktopEntry.mainGroup) throws -> [ExecArgument] {
        let entry = try DesktopEntry(text: try String(contentsOfFile: path, encoding: .utf8))
        return try DesktopExec.split(try #require(entry.value("Exec", in: group)))
    }

    func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            files[name] = FileManager.default.contents(atPath: folder + "/" + name)
        }
        return files
    }

    @Test func entries_are_found_by_exec_tryexec_file_name_and_flatpak_command() {
        let overrides = protection.desktop
        #expect(overrides.sources(for: "firefox").map(\.name) == ["firefox.desktop"])
        #expect(overrides.sources(for: "spotify").map(\.name) == ["com.spotify.Client.desktop"])
        #expect(overrides.sources(for: "gedit").map(\.name) == ["org.gnome.gedit.desktop"])
        #expect(overrides.sources(for: "fractal").map(\.name) == ["org.gnome.Fractal.desktop"])
        #expect(overrides.sources(for: "steam").isEmpty)
    }

    @Test func an_entry_running_the_programs_file_is_found_past_env_whatever_the_file_is_called() throws {
        let folder = TemporaryDirectory()
        let file = folder.path + "/Discord"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("#!/bin/sh\n".utf8)))
        let program = FileIdentity(path: file)
        for exec in ["\(file) %U", "env DISCORD_SKIP_HOST_UPDATE=1 \(file) %U"] {
            let entry = try DesktopEntry(text: "[Desktop Entry]\nType=Application\nName=Chat\nExec=\(exec)\n")
            #expect(DesktopOverrides.launches(entry, "discord", fileName: "chat.desktop", programs: Set([program].compactMap { $0 })), "\(exec)")
            #expect(!DesktopOverrides.launches(entry, "discord", fileName: "chat.desktop"), "\(exec)")
        }
    }

    @Test func the_override_runs_the_gateway_in_a_window_of_migas_choosing_and_keeps_the_rest() throws {
        try protection.protect("firefox")
        let path = user + "/firefox.desktop"
        #expect(try execWords(path) == [.text("/opt/miga/bin/miga"), .text("gate"), .text("--window"), .text("--detach"), .text("--as"), .text("firefox"),
                                        .text("/usr/lib/firefox/firefox"), .text("--"), .fieldCode("u")])
        #expect(try execWords(path, group: "Desktop Action new-private-window")
            == [.text("/opt/miga/bin/miga"), .text("gate"), .text("--window"), .text("--detach"), .text("--as"), .text("firefox"),
                .text("/usr/lib/firefox/firefox"), .text("--"), .text("--private-window"), .fieldCode("u")])
        let entry = try DesktopEntry(text: try String(contentsOfFile: path, encoding: .utf8))
        // The gateway opens the window itself: a launcher's own choice of terminal may be none the person has.
        #expect(entry.value("Terminal") == "false")
        #expect(entry.value("X-MIGA-Program") == "firefox")
        for key in ["Name", "Name[de]", "Icon", "MimeType", "Categories", "TryExec", "Actions"] {
            let original = try DesktopEntry(text: Self.firefox)
            #expect(entry.value(key) == original.value(key), "\(key) changed")
        }
        #expect(try validate(path))
        #expect(protection.list().first?.desktopEntries == [path])
    }

    @Test func a_flatpak_is_protected_under_its_command() throws {
        try protection.protect("spotify")
        let words = try execWords(user + "/com.spotify.Client.desktop")
        #expect(Array(words.prefix(8)) == [.text("/opt/miga/bin/miga"), .text("gate"), .text("--window"), .text("--detach"), .text("--as"),
                                           .text("spotify"), .text("/usr/bin/flatpak"), .text("--")])
        #expect(words.contains(.fieldCode("U")) && words.contains(.text("@@u")))
        #expect(try validate(user + "/com.spotify.Client.desktop"))
    }

    @Test func a_program_found_only_in_the_menu_is_protected_there_alone() throws {
        unlink(home.path + "/bin/spotify")
        try protection.protect("spotify")
        #expect(FileManager.default.fileExists(atPath: user + "/com.spotify.Client.desktop"))
        #expect(!FileManager.default.fileExists(atPath: home.path + "/.local/share/miga/shims/spotify"))
        #expect(throws: MigaError.self) { try protection.protect("steam") }
    }

    @Test func a_terminal_program_shares_its_window_with_the_pause() throws {
        try protection.protect("htop")
        #expect(try execWords(user + "/htop.desktop") == [.text("/opt/miga/bin/miga"), .text("gate"), .text("--window"), .text("--as"), .text("htop"),
                                                          .text("htop"), .text("--")])
    }

    @Test func dbus_activation_gives_way_to_exec() throws {
        try protection.protect("fractal")
        let entry = try DesktopEntry(text: try String(contentsOfFile: user + "/org.gnome.Fractal.desktop", encoding: .utf8))
        #expect(entry.value("DBusActivatable") == nil)
        #expect(try validate(user + "/org.gnome.Fractal.desktop"))
    }

    @Test func protect_then_unprotect_leaves_the_applications_folder_as_it_was() throws {
        // The person's own entry for gedit, and an unrelated file of theirs.
        let mine = Self.editor.replacingOccurrences(of: "Name=Text Editor", with: "Name=My Editor")
        try home.write(mine, to: ".local/share/applications/org.gnome.gedit.desktop")
        try home.write("[Desktop Entry]\nType=Link\nName=Notes\nURL=file:///notes\n", to: ".local/share/applications/notes.desktop")
        let before = try snapshot(user)
        for program in ["firefox", "gedit", "spotify"] { try protection.protect(program) }
        try protection.protect("gedit") // again: the set-aside original must survive
        let mineNow = try DesktopEntry(text: try String(contentsOfFile: user + "/org.gnome.gedit.desktop", encoding: .utf8))
        #expect(mineNow.value("Name") == "My Editor")
        #expect(mineNow.value("X-MIGA-Program") == "gedit")
        try protection.unprotectAll()
        #expect(try snapshot(user) == before)
        #expect(Manifest(path: protection.manifestPath).entries.isEmpty)
    }

    @Test func an_override_the_person_edited_is_left_alone() throws {
        try protection.protect("htop")
        try home.write("[Desktop Entry]\nType=Application\nName=My htop\nExec=htop\n", to: ".local/share/applications/htop.desktop")
        try protection.unprotect("htop")
        #expect(FileManager.default.fileExists(atPath: user + "/htop.desktop"))
        #expect(Manifest(path: protection.manifestPath).entries.isEmpty)
    }

    // MARK: Written again, from any state

    /// Every file under the menu and MIGA's data folders: bytes and mode.
    func state() throws -> [String: String] {
        var files: [String: String] = [:]
        for folder in [user, home.path + "/.local/share/miga"] {
            guard let walker = FileManager.default.enumerator(atPath: folder) else { continue }
            for case let name as String in walker {
                var info = stat()
                lstat(folder + "/" + name, &info)
                let bytes = FileManager.default.contents(atPath: folder + "/" + name).map { String(decoding: $0, as: UTF8.self) } ?? "(folder)"
                files[folder + "/" + name] = String(info.st_mode, radix: 8) + " " + bytes
            }
        }
        return files
    }

    func gateways(in path: String) throws -> Int {
        try execWords(path).filter { $0 == .text("/opt/miga/bin/miga") }.count
    }

    @Test func protecting_again_and_again_writes_the_same_bytes_from_the_source() throws {
        let mine = Self.editor.replacingOccurrences(of: "Name=Text Editor", with: "Name=My Editor")
        try home.write(mine, to: ".local/share/applications/org.gnome.gedit.desktop")
        for program in ["firefox", "gedit", "htop"] { try protection.protect(program) }
        let once = try state()
        for _ in 0..<3 {
            for program in ["firefox", "gedit", "htop"] { try protection.protect(program) }
            #expect(try state() == once)
        }
        #expect(try gateways(in: user + "/firefox.desktop") == 1)
        #expect(try execWords(user + "/firefox.desktop").contains(.text("--detach")), "the source's Terminal=false, not the override's")
        // New settings change the config alone.
        try protection.protect("firefox", ProgramChanges(pause: 30))
        #expect(try state() == once)
    }

    @Test func a_nested_override_of_an_earlier_version_is_unwrapped() throws {
        try protection.protect("firefox")
        // As an earlier MIGA left it after a second protect: the gateway wrapping itself, no fingerprint.
        let nested = try String(contentsOfFile: user + "/firefox.desktop", encoding: .utf8).replacingOccurrences(
            of: "Exec=/opt/miga/bin/miga gate --window --detach --as firefox /usr/lib/firefox/firefox -- %u",
            with: "Exec=/opt/miga/bin/miga gate --as firefox /opt/miga/bin/miga -- gate --detach --as firefox /usr/lib/firefox/firefox -- %u")
        try nested.write(toFile: user + "/firefox.desktop", atomically: true, encoding: .utf8)
        try "shim\t\(home.path)/.local/share/miga/shims/firefox\ndesktop\t\(user)/firefox.desktop\t-\tfirefox\n"
            .write(toFile: protection.manifestPath, atomically: true, encoding: .utf8)
        let legacy = try #require(Manifest(path: protection.manifestPath).menuOverrides().first)
        #expect(legacy.fingerprint == nil)
        #expect(protection.desktop.state(of: legacy) == .nested)
        try protection.protect("firefox")
        #expect(try gateways(in: user + "/firefox.desktop") == 1)
        let fixed = try #require(Manifest(path: protection.manifestPath).menuOverrides().first)
        #expect(protection.desktop.state(of: fixed) == .inPlace(source: system + "/firefox.desktop"))
    }

    @Test func an_override_edited_by_hand_is_kept_and_named() throws {
        try protection.protect("firefox")
        // Its Exec, which no longer starts the pause.
        let written = try String(contentsOfFile: user + "/firefox.desktop", encoding: .utf8)
        let edited = written.replacingOccurrences(of: "Exec=/opt/miga/bin/miga gate --window --detach --as firefox /usr/lib/firefox/firefox -- %u",
                                                  with: "Exec=/usr/lib/firefox/firefox --new-instance %u")
        #expect(edited != written)
        try edited.write(toFile: user + "/firefox.desktop", atomically: true, encoding: .utf8)
        let notes = try protection.protect("firefox")
        #expect(notes.contains { $0.contains("edited by hand") }, "\(notes)")
        #expect(try String(contentsOfFile: user + "/firefox.desktop", encoding: .utf8) == edited)
        let override = try #require(Manifest(path: protection.manifestPath).menuOverrides().first)
        #expect(protection.desktop.state(of: override) == .editedByHand(reachesGateway: false))
        #expect(try protection.repair().contains { $0.contains("edited by hand") })
        #expect(try String(contentsOfFile: user + "/firefox.desktop", encoding: .utf8) == edited)
    }

    /// The same folders, with a gateway that exists: what doctor reads needs a live one.
    func liveProtection() throws -> Protection {
        try home.write("miga", to: "live/miga")
        chmod(home.path + "/live/miga", 0o755)
        let environment = ["HOME": home.path, "PATH": home.path + "/bin", "XDG_DATA_DIRS": home.path + "/system"]
        return Protection(paths: protection.paths, environment: environment, gateway: home.path + "/live/miga")
    }

    @Test func an_entry_updated_by_its_package_is_followed_in_place() throws {
        let protection = try liveProtection()
        try protection.protect("firefox")
        try home.write(Self.firefox.replacingOccurrences(of: "Exec=/usr/lib/firefox/firefox %u", with: "Exec=/usr/lib/firefox/firefox-bin %U"),
                       to: "system/applications/firefox.desktop")
        let override = try #require(Manifest(path: protection.manifestPath).menuOverrides().first)
        #expect(protection.desktop.state(of: override) == .stale(source: system + "/firefox.desktop"))
        try protection.protect("firefox")
        #expect(try execWords(user + "/firefox.desktop") == [.text(home.path + "/live/miga"), .text("gate"), .text("--window"), .text("--detach"), .text("--as"),
                                                             .text("firefox"), .text("/usr/lib/firefox/firefox-bin"), .text("--"), .fieldCode("U")])
        #expect(Manifest(path: protection.manifestPath).menuOverrides().count == 1)
    }

    @Test func an_override_whose_entry_is_gone_is_removed_by_repair_never_guessed() throws {
        try protection.protect("spotify")
        unlink(system + "/com.spotify.Client.desktop")
        let override = try #require(Manifest(path: protection.manifestPath).menuOverrides().first)
        #expect(protection.desktop.state(of: override) == .sourceGone)
        let done = try protection.repair()
        #expect(done.contains { $0.contains("the entry it stood for is gone") })
        #expect(!FileManager.default.fileExists(atPath: user + "/com.spotify.Client.desktop"))
        #expect(Manifest(path: protection.manifestPath).menuOverrides().isEmpty)
    }

    @Test func a_set_aside_file_that_is_gone_is_named_and_forgotten() throws {
        let mine = Self.editor.replacingOccurrences(of: "Name=Text Editor", with: "Name=My Editor")
        try home.write(mine, to: ".local/share/applications/org.gnome.gedit.desktop")
        try protection.protect("gedit")
        let override = try #require(Manifest(path: protection.manifestPath).menuOverrides().first)
        let backup = try #require(override.backup)
        unlink(backup)
        #expect(protection.desktop.state(of: override) == .backupGone(backup))
        _ = try protection.repair()
        // The system's entry of that name is what the override stands for now.
        let repaired = try #require(Manifest(path: protection.manifestPath).menuOverrides().first)
        #expect(repaired.backup == nil)
        #expect(protection.desktop.state(of: repaired) == .inPlace(source: system + "/org.gnome.gedit.desktop"))
    }

    @Test func a_file_set_aside_comes_back_with_its_bytes_and_mode() throws {
        let mine = Self.editor.replacingOccurrences(of: "Name=Text Editor", with: "Name=Caf\u{E9} Editor")
        try home.write(mine, to: ".local/share/applications/org.gnome.gedit.desktop")
        chmod(user + "/org.gnome.gedit.desktop", 0o755)
        try protection.protect("gedit")
        try protection.unprotect("gedit")
        var info = stat()
        stat(user + "/org.gnome.gedit.desktop", &info)
        #expect(info.st_mode & 0o7777 == 0o755)
        #expect(try String(contentsOfFile: user + "/org.gnome.gedit.desktop", encoding: .utf8) == mine)
    }

    @Test func a_moved_gateway_is_named_and_repair_points_at_the_live_one() throws {
        try home.write("old", to: "old/miga")
        chmod(home.path + "/old/miga", 0o755)
        let environment = ["HOME": home.path, "PATH": home.path + "/bin", "XDG_DATA_DIRS": home.path + "/system"]
        let old = Protection(paths: protection.paths, environment: environment, gateway: home.path + "/old/miga")
        let new = try liveProtection()
        try old.protect("firefox")
        let override = try #require(Manifest(path: protection.manifestPath).menuOverrides().first)
        #expect(new.desktop.state(of: override) == .foreignGateway(home.path + "/old/miga"))
        unlink(home.path + "/old/miga")
        #expect(new.desktop.state(of: override) == .deadGateway(home.path + "/old/miga"))
        // Protect from the new miga (as doctor's fix once advised): one gateway, the live one.
        try new.protect("firefox")
        let words = try execWords(user + "/firefox.desktop")
        #expect(words.prefix(2) == [.text(home.path + "/live/miga"), .text("gate")])
        #expect(!words.contains(.text(home.path + "/old/miga")))
        let now = try #require(Manifest(path: protection.manifestPath).menuOverrides().first)
        #expect(new.desktop.state(of: now) == .inPlace(source: system + "/firefox.desktop"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: new.shims.path + "/firefox") == home.path + "/live/miga")
    }

    @Test func a_program_protected_without_a_name_takes_its_menu_entrys() throws {
        try home.write("[Desktop Entry]\nType=Application\nName=Firefox ESR\nExec=/usr/lib/firefox-esr/firefox-esr %u\n",
                       to: "system/applications/firefox-esr.desktop")
        try home.write("[Desktop Entry]\nType=Application\nName=Sig\u{1B}]52;c;aGk=\u{7}nal\nExec=signal-desktop %U\n",
                       to: "system/applications/signal-desktop.desktop")
        try protection.protect("firefox-esr")
        try protection.protect("signal-desktop")
        try protection.protect("htop", ProgramChanges(name: "My htop"))
        let programs = ConfigLoader.load(from: protection.paths.configFile).config.programs
        #expect(programs["firefox-esr"]?.displayName == "Firefox ESR")
        #expect(programs["signal-desktop"]?.displayName == "Sig\u{FFFD}]52;c;aGk=\u{FFFD}nal", "nothing the terminal would obey")
        #expect(programs["htop"]?.displayName == "My htop")
        // A name the person gave stays when protected again.
        try protection.protect("htop")
        #expect(ConfigLoader.load(from: protection.paths.configFile).config.programs["htop"]?.displayName == "My htop")
    }

    @Test func a_bad_entry_is_skipped_with_a_note_and_every_override_written_is_remembered() throws {
        try home.write("#!/bin/sh\n", to: "bin/foo")
        chmod(home.path + "/bin/foo", 0o755)
        try home.write("[Desktop Entry]\nType=Application\nName=A Foo\nExec=foo %U\n", to: "system/applications/a-foo.desktop")
        try home.write("[Desktop Entry]\nType=Application\nName=Foo\nExec=\"foo --unclosed\n", to: "system/applications/foo.desktop")
        let notes = try protection.protect("foo")
        #expect(notes.contains { $0.contains("foo.desktop has an Exec line MIGA cannot rewrite (the double quote in argument 1 is never closed)") }, "\(notes)")
        #expect(Manifest(path: protection.manifestPath).menuOverrides(for: "foo").map(\.path) == [user + "/a-foo.desktop"])
        #expect(!FileManager.default.fileExists(atPath: user + "/foo.desktop"))
        try protection.unprotect("foo")
        #expect(!FileManager.default.fileExists(atPath: user + "/a-foo.desktop"), "unprotect removes what protect wrote")
    }

    /// desktop-file-validate, the freedesktop reference checker.
    func validate(_ path: String) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/desktop-file-validate")
        process.arguments = [path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus != 0 || text.contains("error") { Issue.record("desktop-file-validate: \(text)") }
        return process.terminationStatus == 0
    }
}
