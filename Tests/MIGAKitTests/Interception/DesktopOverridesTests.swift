import Foundation
import Testing
@testable import MIGAKit

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
        #expect(overrides.entries(for: "firefox").map(\.name) == ["firefox.desktop"])
        #expect(overrides.entries(for: "spotify").map(\.name) == ["com.spotify.Client.desktop"])
        #expect(overrides.entries(for: "gedit").map(\.name) == ["org.gnome.gedit.desktop"])
        #expect(overrides.entries(for: "fractal").map(\.name) == ["org.gnome.Fractal.desktop"])
        #expect(overrides.entries(for: "steam").isEmpty)
    }

    @Test func the_override_runs_the_gateway_in_a_terminal_and_keeps_the_rest() throws {
        try protection.protect("firefox")
        let path = user + "/firefox.desktop"
        #expect(try execWords(path) == [.text("/opt/miga/bin/miga"), .text("gate"), .text("--detach"), .text("--as"), .text("firefox"),
                                        .text("/usr/lib/firefox/firefox"), .text("--"), .fieldCode("u")])
        #expect(try execWords(path, group: "Desktop Action new-private-window")
            == [.text("/opt/miga/bin/miga"), .text("gate"), .text("--detach"), .text("--as"), .text("firefox"),
                .text("/usr/lib/firefox/firefox"), .text("--"), .text("--private-window"), .fieldCode("u")])
        let entry = try DesktopEntry(text: try String(contentsOfFile: path, encoding: .utf8))
        #expect(entry.value("Terminal") == "true")
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
        #expect(Array(words.prefix(7)) == [.text("/opt/miga/bin/miga"), .text("gate"), .text("--detach"), .text("--as"),
                                           .text("spotify"), .text("/usr/bin/flatpak"), .text("--")])
        #expect(words.contains(.fieldCode("U")) && words.contains(.text("@@u")))
        #expect(try validate(user + "/com.spotify.Client.desktop"))
    }

    @Test func a_program_found_only_in_the_menu_is_protected_there_alone() throws {
        unlink(home.path + "/bin/spotify")
        try protection.protect("spotify")
        #expect(FileManager.default.fileExists(atPath: user + "/com.spotify.Client.desktop"))
        #expect(!FileManager.default.fileExists(atPath: home.path + "/.local/share/miga/shims/spotify"))
        #expect(throws: ProtectionError.self) { try protection.protect("steam") }
    }

    @Test func a_terminal_program_shares_its_window_with_the_pause() throws {
        try protection.protect("htop")
        #expect(try execWords(user + "/htop.desktop") == [.text("/opt/miga/bin/miga"), .text("gate"), .text("--as"), .text("htop"),
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
