import Foundation
import Testing
@testable import MIGACore
@testable import MIGATerminal
@testable import MIGAConfig
@testable import MIGADesktop
@testable import MIGATestSupport

/// One program, many commands: a fixture laid out as Debian lays out Firefox
/// ESR (a link to the binary in lib, a launcher script that execs it by
/// name, a menu entry naming the binary itself), and the names around it
/// that are not the program (an alternative, a dispatcher, another program).
@Suite struct ProgramFamilyTests {
    let home = TemporaryDirectory()

    init() throws {
        // Not a script: the program itself.
        try home.writeProgram("\u{7F}ELF", to: "lib/firefox-esr/firefox-esr")
        try FileManager.default.createDirectory(atPath: home.path + "/bin", withIntermediateDirectories: true)
        #expect(symlink("../lib/firefox-esr/firefox-esr", home.path + "/bin/firefox-esr") == 0)
        try home.writeProgram("#!/bin/sh\n\nFIREFOX=\"$(command -v firefox)\"\n[ -x \"$FIREFOX.real\" ] && exec \"$FIREFOX.real\" \"$@\"\n\nexec firefox-esr \"$@\"\n",
                              to: "bin/firefox")
        try home.writeProgram("#!/bin/sh\nexec other \"$@\"\n", to: "bin/other-launcher")
        try home.writeProgram("\u{7F}ELF other", to: "bin/other")
        // What Debian's alternatives do: a name for a role, pointing at today's choice.
        try FileManager.default.createDirectory(atPath: home.path + "/etc/alternatives", withIntermediateDirectories: true)
        #expect(symlink(home.path + "/bin/firefox-esr", home.path + "/etc/alternatives/x-www-browser") == 0)
        #expect(symlink(home.path + "/etc/alternatives/x-www-browser", home.path + "/bin/x-www-browser") == 0)
        try home.writeProgram("gateway", to: "gateway/miga")
        try home.write("""
            [Desktop Entry]
            Version=1.0
            Name=Firefox ESR
            Exec=\(home.path)/lib/firefox-esr/firefox-esr %u
            Icon=firefox-esr
            Terminal=false
            Type=Application
            MimeType=text/html;x-scheme-handler/http;x-scheme-handler/https;
            Categories=Network;WebBrowser;

            """, to: "system/applications/firefox-esr.desktop")
    }

    var protection: Protection {
        let environment = ["HOME": home.path, "PATH": home.path + "/bin", "XDG_DATA_DIRS": home.path + "/system"]
        return Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: home.path + "/gateway/miga")
    }

    var config: Config { ConfigLoader.load(from: protection.paths.configFile).config }

    @Test func the_launcher_script_finds_the_link_and_the_link_finds_the_script() {
        #expect(protection.otherCommands(of: "firefox", config: Config()) == ["firefox-esr"])
        #expect(protection.otherCommands(of: "firefox-esr", config: Config()) == ["firefox"])
        #expect(protection.otherCommands(of: "other", config: Config()) == ["other-launcher"])
    }

    @Test func protecting_firefox_covers_every_command_and_the_entry_that_names_the_binary() throws {
        try protection.protect("firefox")
        #expect(config.programs["firefox"]?.also == ["firefox-esr"])
        let shims = protection.shims.path
        for name in ["firefox", "firefox-esr"] {
            #expect(protection.shims.target(of: shims + "/" + name) == home.path + "/gateway/miga", "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: shims + "/x-www-browser"), "an alternative is a role, not the program")
        let override = try DesktopEntry(text: try String(contentsOfFile: home.path + "/.local/share/applications/firefox-esr.desktop", encoding: .utf8))
        let exec = try DesktopExec.split(try #require(override.value("Exec")))
        #expect(exec.contains(.text("--as")) && exec.contains(.text("firefox")))
        #expect(override.value("X-MIGA-Program") == "firefox")
        // Repair finds the entry through the family too: in place, not "the entry it stood for is gone".
        let done = try protection.repair()
        #expect(!done.contains { $0.contains("firefox-esr.desktop") }, "\(done)")
        #expect(FileManager.default.fileExists(atPath: home.path + "/.local/share/applications/firefox-esr.desktop"))
    }

    @Test func another_name_of_a_protected_program_is_that_program() throws {
        try protection.protect("firefox")
        let notes = try protection.protect("firefox-esr", ProgramChanges(pause: 5))
        #expect(notes.contains { $0.contains("protected already, as firefox") }, "\(notes)")
        #expect(Set(config.programs.keys) == ["firefox"])
        #expect(config.programs["firefox"]?.pause == 5)
        #expect(config.settings(for: "firefox-esr").command == "firefox")
        #expect(config.settings(for: "/usr/bin/firefox-esr").command == "firefox")
        try protection.unprotect("firefox-esr")
        #expect(config.programs.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: protection.shims.path + "/firefox-esr"))
        #expect(!FileManager.default.fileExists(atPath: home.path + "/.local/share/applications/firefox-esr.desktop"))
    }

    @Test func a_name_installed_later_is_named_and_taken_in_by_repair() throws {
        try protection.protect("other")
        #expect(config.programs["other"]?.also == ["other-launcher"])
        #expect(symlink(home.path + "/bin/other", home.path + "/bin/other-beta") == 0)
        let settings = try #require(config.programs["other"])
        #expect(protection.uncoveredCommands(of: settings, config: config) == ["other-beta"])
        let done = try protection.repair()
        #expect(done.contains { $0.contains("other-beta starts Other too") }, "\(done)")
        #expect(config.programs["other"]?.also == ["other-launcher", "other-beta"])
        #expect(protection.shims.target(of: protection.shims.path + "/other-beta") == home.path + "/gateway/miga")
        #expect(try protection.repair().allSatisfy { !$0.contains("other-beta") }, "once taken in, nothing more to do")
    }

    @Test func a_command_protected_on_its_own_stays_its_own_program() throws {
        try protection.protect("firefox-esr")
        try protection.protect("firefox", ProgramChanges(name: "Firefox"))
        // firefox-esr was protected first and keeps its own table; firefox is another name of it.
        #expect(Set(config.programs.keys) == ["firefox-esr"])
        #expect(config.programs["firefox-esr"]?.also == ["firefox"])
    }

    @Test func the_catalogs_flatpak_of_a_program_is_the_same_program() throws {
        try home.writeProgram("#!/bin/sh\nexec /opt/google/chrome/chrome \"$@\"\n", to: "bin/google-chrome-stable")
        try home.write("""
            [Desktop Entry]
            Name=Google Chrome
            Exec=/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=/app/bin/chrome --file-forwarding com.google.Chrome @@u %U @@
            Type=Application
            X-Flatpak=com.google.Chrome

            """, to: "system/applications/com.google.Chrome.desktop")
        try protection.protect("google-chrome-stable")
        #expect(config.programs["google-chrome-stable"]?.also == ["com.google.Chrome"])
        let override = try DesktopEntry(text: try String(contentsOfFile: home.path + "/.local/share/applications/com.google.Chrome.desktop",
                                                         encoding: .utf8))
        #expect(override.value("X-MIGA-Program") == "google-chrome-stable")
    }

    @Test func the_setting_is_read_and_checked_like_any_other() {
        let good = ConfigLoader.parse("[programs.firefox]\nalso = [\"firefox-esr\", \"firefox\", \"firefox-esr\"]\n", file: "config.toml")
        #expect(good.config.programs["firefox"]?.also == ["firefox-esr"])
        #expect(good.problems.isEmpty)
        for bad in ["\"firefox-esr\"", "[\"/usr/bin/x\"]", "[\"a b\"]", "[\"\\u001b]52;c;x\\u0007\"]", "[3]"] {
            let loaded = ConfigLoader.parse("[programs.firefox]\nalso = \(bad)\n", file: "config.toml")
            #expect(loaded.config.programs["firefox"]?.also == [], "\(bad)")
            #expect(!loaded.problems.isEmpty, "\(bad)")
        }
    }
}
