import Foundation
import Testing
@testable import MIGACore
@testable import MIGATerminal
@testable import MIGAConfig
@testable import MIGADesktop
@testable import MIGATestSupport

/// Every route to a protected program, found and written by one engine:
/// login starts, D-Bus activation, Flatpak and AppImage names, and entries
/// that appear, change or go after `protect` (`refresh`). The fixtures follow
/// the files the packages, Flatpak exports and AppImage tools write.
@Suite struct RoutesTests {
    let home = TemporaryDirectory()
    let protection: Protection
    var applications: String { home.path + "/.local/share/applications" }
    var autostart: String { home.path + "/.config/autostart" }
    var services: String { home.path + "/.local/share/dbus-1/services" }

    static let steam = """
        [Desktop Entry]
        Name=Steam
        Comment=Application for managing and playing games on Steam
        Exec=/usr/games/steam %U
        Icon=steam
        Terminal=false
        Type=Application
        Categories=Network;FileTransfer;Game;
        MimeType=x-scheme-handler/steam;x-scheme-handler/steamlink;
        Actions=Store;Library;

        [Desktop Action Store]
        Name=Store
        Exec=steam steam://store

        [Desktop Action Library]
        Name=Library
        Exec=steam steam://open/games

        """
    /// As Steam writes it for itself, in the person's autostart folder.
    static let steamAtLogin = """
        [Desktop Entry]
        Name=Steam
        Comment=Application for managing and playing games on Steam
        Exec=/usr/games/steam %U -silent
        Icon=steam
        Terminal=false
        Type=Application
        Categories=Network;FileTransfer;Game;

        """
    /// Discord's deb writes this when "Open Discord" at login is on: another file name, another program name.
    static func discordAtLogin(_ home: String) -> String {
        """
        [Desktop Entry]
        Type=Application
        Exec=\(home)/share/discord/Discord
        Hidden=false
        NoDisplay=false
        Name=Discord
        Icon=discord
        Comment=Text and voice chat for gamers.
        X-GNOME-Autostart-enabled=true

        """
    }
    static let discordFlatpak = """
        [Desktop Entry]
        Name=Discord
        StartupWMClass=discord
        Comment=All-in-one voice and text chat for gamers
        GenericName=Internet Messenger
        Exec=/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=com.discordapp.Discord com.discordapp.Discord
        Icon=com.discordapp.Discord
        Type=Application
        Categories=Network;InstantMessaging;
        X-Flatpak-Tags=proprietary;
        X-Flatpak=com.discordapp.Discord

        """
    static let chromeFlatpak = """
        [Desktop Entry]
        Version=1.0
        Name=Google Chrome
        Exec=/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=/app/bin/chrome --file-forwarding com.google.Chrome @@u %U @@
        StartupNotify=true
        Terminal=false
        Icon=com.google.Chrome
        Type=Application
        Categories=Network;WebBrowser;
        X-Flatpak=com.google.Chrome

        """
    static let spotifyFlatpak = """
        [Desktop Entry]
        Type=Application
        Name=Spotify
        Exec=/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=spotify --file-forwarding com.spotify.Client @@u %U @@
        Icon=com.spotify.Client
        X-Flatpak=com.spotify.Client

        """
    static let telegram = """
        [Desktop Entry]
        Name=Telegram Desktop
        TryExec=telegram-desktop
        Exec=telegram-desktop -- %u
        Icon=telegram
        Terminal=false
        StartupWMClass=TelegramDesktop
        Type=Application
        Categories=Chat;Network;InstantMessaging;Qt;
        MimeType=x-scheme-handler/tg;
        Actions=quit;
        DBusActivatable=true
        SingleMainWindow=true

        [Desktop Action quit]
        Exec=telegram-desktop -quit
        Name=Quit Telegram

        """
    static let telegramService = "[D-BUS Service]\nName=org.telegram.desktop\nExec=/usr/bin/telegram-desktop\n"

    /// As AppImageLauncher writes it: the file name carries a hash of this version.
    static func appImage(_ hash: String, version: String) -> String {
        """
        [Desktop Entry]
        Name=Obsidian
        Exec=/home/person/Applications/Obsidian-\(version).AppImage --no-sandbox %U
        Terminal=false
        Type=Application
        Icon=appimagekit_\(hash)-obsidian
        X-AppImage-Version=\(version)
        X-AppImage-Name=Obsidian
        Categories=Office;

        """
    }

    init() throws {
        for (name, text) in [("steam.desktop", Self.steam), ("com.discordapp.Discord.desktop", Self.discordFlatpak),
                             ("com.google.Chrome.desktop", Self.chromeFlatpak), ("com.spotify.Client.desktop", Self.spotifyFlatpak),
                             ("org.telegram.desktop.desktop", Self.telegram)] {
            try home.write(text, to: "system/applications/" + name)
        }
        try home.write(Self.telegramService, to: "system/dbus-1/services/org.telegram.desktop.service")
        for program in ["steam", "telegram-desktop", "flatpak", "com.discordapp.Discord"] {
            try home.write("#!/bin/sh\n", to: "bin/" + program)
            chmod(home.path + "/bin/" + program, 0o755)
        }
        try home.write("#!/bin/sh\n", to: "share/discord/Discord")
        chmod(home.path + "/share/discord/Discord", 0o755)
        symlink(home.path + "/share/discord/Discord", home.path + "/bin/discord")
        protection = Protection(paths: XDGPaths(environment: Self.environment(home.path)), environment: Self.environment(home.path),
                                gateway: "/opt/miga/bin/miga")
    }

    static func environment(_ home: String) -> [String: String] {
        ["HOME": home, "PATH": home + "/bin", "XDG_DATA_DIRS": home + "/system", "XDG_CONFIG_DIRS": home + "/xdg"]
    }

    func execWords(_ path: String) throws -> [String] {
        let entry = try DesktopEntry(text: try String(contentsOfFile: path, encoding: .utf8))
        return try DesktopExec.split(try #require(entry.value("Exec"))).map { word in
            switch word {
            case .text(let text): text
            case .fieldCode(let code): "%\(code)"
            case .template(let text): text
            }
        }
    }

    func snapshot(_ folder: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            var info = stat()
            stat(folder + "/" + name, &info)
            files[name] = Array(FileManager.default.contents(atPath: folder + "/" + name) ?? Data()) + Array(" mode \(String(info.st_mode & 0o777, radix: 8))".utf8)
        }
        return files
    }

    // MARK: Login starts

    @Test func a_login_start_of_the_persons_own_is_overridden_and_put_back_byte_for_byte_with_its_mode() throws {
        try home.write(Self.steamAtLogin, to: ".config/autostart/steam.desktop")
        chmod(autostart + "/steam.desktop", 0o755)
        let before = snapshot(autostart)
        try protection.protect("steam")
        #expect(try execWords(autostart + "/steam.desktop")
            == ["/opt/miga/bin/miga", "gate", "--window", "--detach", "--at-login", "--as", "steam", "/usr/games/steam", "--", "%U", "-silent"])
        #expect(protection.list().first?.loginEntries == [autostart + "/steam.desktop"])
        try protection.unprotect("steam")
        #expect(snapshot(autostart) == before)
    }

    @Test func a_login_start_of_a_package_gets_a_same_named_override() throws {
        try home.write(Self.steamAtLogin, to: "xdg/autostart/steam.desktop")
        try protection.protect("steam")
        #expect(try execWords(autostart + "/steam.desktop").contains("--at-login"))
        try protection.unprotect("steam")
        #expect(!FileManager.default.fileExists(atPath: autostart + "/steam.desktop"))
        #expect(FileManager.default.fileExists(atPath: home.path + "/xdg/autostart/steam.desktop"))
    }

    @Test func a_login_start_that_runs_the_same_file_under_another_name_is_found() throws {
        try home.write(Self.discordAtLogin(home.path), to: ".config/autostart/discord-stable.desktop")
        try protection.protect("discord")
        #expect(try execWords(autostart + "/discord-stable.desktop").prefix(7)
            == ["/opt/miga/bin/miga", "gate", "--window", "--detach", "--at-login", "--as", "discord"])
    }

    @Test func a_login_start_switched_off_for_gnome_is_covered_for_the_desktops_that_still_run_it() throws {
        // `dex -a` and desktops other than GNOME run it whatever GNOME's key says.
        try home.write(Self.steamAtLogin + "X-GNOME-Autostart-enabled=false\n", to: ".config/autostart/steam.desktop")
        try protection.protect("steam")
        #expect(protection.list().first?.loginEntries == [autostart + "/steam.desktop"])
        let override = try String(contentsOfFile: autostart + "/steam.desktop", encoding: .utf8)
        #expect(override.contains("X-GNOME-Autostart-enabled=false"), "GNOME still leaves it alone")
        #expect(try execWords(autostart + "/steam.desktop").prefix(5) == ["/opt/miga/bin/miga", "gate", "--window", "--detach", "--at-login"])
    }

    // MARK: Flatpak and AppImage

    @Test(arguments: ["discord", "com.discordapp.Discord", "Discord"])
    func a_flatpak_is_found_by_the_names_a_person_types(name: String) throws {
        unlink(home.path + "/bin/discord")
        #expect(protection.desktop.sources(for: name).map(\.name) == ["com.discordapp.Discord.desktop"])
    }

    @Test func chrome_is_found_by_its_flatpak_command_and_spotify_by_its_name() {
        #expect(protection.desktop.sources(for: "chrome").map(\.name) == ["com.google.Chrome.desktop"])
        #expect(protection.desktop.sources(for: "spotify").map(\.name) == ["com.spotify.Client.desktop"])
    }

    @Test func a_flatpak_protected_by_its_id_is_one_program_with_its_menu_name() throws {
        try protection.protect("com.spotify.Client")
        let config = ConfigLoader.load(from: protection.paths.configFile).config
        #expect(config.programs["com.spotify.Client"]?.name == "Spotify")
        #expect(config.programs["com.spotify.Client"]?.flatpak == "com.spotify.Client")
        #expect(protection.list().first?.installed == true)
        // Protected again by the name a person types: the same program, not a second one.
        let notes = try protection.protect("spotify", ProgramChanges(pause: 20))
        #expect(notes.contains { $0.contains("protected already, as com.spotify.Client") }, "\(notes)")
        let again = ConfigLoader.load(from: protection.paths.configFile).config
        #expect(again.programs.keys.sorted() == ["com.spotify.Client"])
        #expect(again.programs["com.spotify.Client"]?.pause == 20)
    }

    @Test func a_flatpak_gets_shims_for_its_exported_command_and_for_flatpak_run() throws {
        unlink(home.path + "/bin/discord")
        try protection.protect("discord")
        let shims = protection.shims
        #expect(shims.target(of: shims.path + "/com.discordapp.Discord") == "/opt/miga/bin/miga")
        #expect(shims.target(of: shims.path + "/flatpak") == "/opt/miga/bin/miga")
        #expect(ConfigLoader.load(from: protection.paths.configFile).config.program(flatpak: "com.discordapp.Discord")?.command == "discord")
        try protection.unprotect("discord")
        #expect(shims.target(of: shims.path + "/com.discordapp.Discord") == nil && shims.target(of: shims.path + "/flatpak") == nil)
    }

    @Test func flatpak_itself_is_refused_with_what_to_protect_instead() {
        #expect {
            try protection.protect("flatpak")
        } throws: { error in
            (error as? MigaError)?.status == ExitStatus.usage && "\(error)".contains("protect the app instead")
        }
    }

    @Test(arguments: [
        (["run", "com.discordapp.Discord"], "com.discordapp.Discord"),
        (["--user", "run", "--branch=stable", "--arch", "x86_64", "--command=com.discordapp.Discord", "com.discordapp.Discord//stable", "@@u", "x", "@@"], "com.discordapp.Discord"),
        (["run", "-v", "org.mozilla.firefox/x86_64/stable", "--new-window"], "org.mozilla.firefox"),
        (["update", "-y"], nil), (["list"], nil), ([], nil), (["run"], nil), (["--installation", "run", "update"], nil),
    ] as [([String], String?)])
    func flatpak_run_names_its_app(arguments: [String], app: String?) {
        #expect(FlatpakRun.appID(in: arguments) == app)
    }

    @Test func an_appimage_is_found_by_its_name_and_a_new_version_is_covered_by_refresh() throws {
        try home.write(Self.appImage("0a1b2c", version: "1.4.16"), to: ".local/share/applications/appimagekit_0a1b2c-Obsidian.desktop")
        try home.write("#!/bin/sh\n", to: "bin/obsidian")
        chmod(home.path + "/bin/obsidian", 0o755)
        try protection.protect("obsidian")
        #expect(try execWords(applications + "/appimagekit_0a1b2c-Obsidian.desktop").contains("/opt/miga/bin/miga"))
        // The tool's update: the old entry (MIGA's override now) removed, the new version's written.
        unlink(applications + "/appimagekit_0a1b2c-Obsidian.desktop")
        try home.write(Self.appImage("9f8e7d", version: "1.5.3"), to: ".local/share/applications/appimagekit_9f8e7d-Obsidian.desktop")
        #expect(protection.isStale)
        let done = try protection.refresh()
        #expect(done.contains { $0.contains("Forgot \(applications)/appimagekit_0a1b2c-Obsidian.desktop") }, "\(done)")
        #expect(try execWords(applications + "/appimagekit_9f8e7d-Obsidian.desktop").prefix(7)
            == ["/opt/miga/bin/miga", "gate", "--window", "--detach", "--as", "obsidian", "/home/person/Applications/Obsidian-1.5.3.AppImage"])
        #expect(!protection.isStale)
        #expect(Manifest(path: protection.manifestPath).menuOverrides(for: "obsidian").map(\.path) == [applications + "/appimagekit_9f8e7d-Obsidian.desktop"])
    }

    // MARK: Entries that appear and change

    @Test func refresh_covers_a_new_entry_rewrites_a_changed_one_drops_a_gone_one_and_is_idempotent() throws {
        try protection.protect("steam")
        // Steam writes a shortcut per game; a Flatpak update changes its entry; a package goes.
        try home.write("[Desktop Entry]\nName=Dota 2\nComment=Play this game on Steam\nExec=steam steam://rungameid/570\nIcon=steam_icon_570\nTerminal=false\nType=Application\nCategories=Game;\n",
                       to: ".local/share/applications/Dota 2.desktop")
        try home.write(Self.steam.replacingOccurrences(of: "Exec=/usr/games/steam %U", with: "Exec=/usr/games/steam-runtime %U"),
                       to: "system/applications/steam.desktop")
        let done = try protection.refresh()
        #expect(!done.isEmpty)
        #expect(try execWords(applications + "/Dota 2.desktop") == ["/opt/miga/bin/miga", "gate", "--window", "--detach", "--as", "steam", "steam", "--", "steam://rungameid/570"])
        #expect(try execWords(applications + "/steam.desktop").contains("/usr/games/steam-runtime"))
        let settled = snapshot(applications)
        #expect(try protection.refresh().isEmpty)
        #expect(snapshot(applications) == settled)
        // The game uninstalled: its shortcut goes, and MIGA's override with it; the person's copy stays set aside.
        unlink(applications + "/Dota 2.desktop")
        try protection.refresh()
        #expect(!FileManager.default.fileExists(atPath: applications + "/Dota 2.desktop"))
        #expect(Manifest(path: protection.manifestPath).menuOverrides(for: "steam").map(\.path) == [applications + "/steam.desktop"])
        // The package removed: its override goes too.
        unlink(home.path + "/system/applications/steam.desktop")
        try protection.refresh()
        #expect(!FileManager.default.fileExists(atPath: applications + "/steam.desktop"))
    }

    @Test func nothing_protected_is_never_stale() throws {
        try home.write(Self.steam, to: "system/applications/other.desktop")
        #expect(!protection.isStale)
    }

    @Test func the_units_name_every_watched_folder_and_run_this_gateway() {
        let units = protection.units
        for folder in protection.watchedFolders { #expect(units.pathUnitText.contains("PathChanged=" + folder)) }
        #expect(units.serviceUnitText.contains("ExecStart=/opt/miga/bin/miga refresh"))
    }

    /// systemd reads `PathChanged=` with specifiers expanded and nothing else
    /// unescaped, and `ExecStart=` with escapes, variables and word splitting.
    @Test func a_folder_and_a_gateway_with_spaces_are_written_as_systemd_reads_each() {
        #expect(SystemdUnits.pathValue("/home/a b/%x\\y") == "/home/a b/%%x\\y")
        let units = SystemdUnits(paths: XDGPaths(environment: ["HOME": "/home/a"]), gateway: "/opt/my apps/miga",
                                 watched: ["/home/a b/applications", "/home/a/trailing\\", "/home/a/blank "])
        #expect(units.pathUnitText.contains("PathChanged=/home/a b/applications\n"))
        #expect(units.pathUnitText.components(separatedBy: "PathChanged=").count == 2)
        #expect(units.serviceUnitText.contains("ExecStart=/opt/my\\x20apps/miga refresh\n"))
    }

    // MARK: D-Bus activation

    @Test func a_dbus_activatable_program_gets_a_service_file_that_runs_the_gateway_and_loses_it_on_unprotect() throws {
        try protection.protect("telegram-desktop")
        let text = try #require(FileManager.default.contents(atPath: services + "/org.telegram.desktop.service"))
        let service = try #require(DBusServices.read(services + "/org.telegram.desktop.service"))
        #expect(service.name == "org.telegram.desktop")
        #expect(DesktopExec.texts(service.exec) == ["/opt/miga/bin/miga", "gate", "--window", "--detach", "--as", "telegram-desktop",
                                                     "/usr/bin/telegram-desktop", "--"])
        #expect(service.program == "telegram-desktop")
        #expect(protection.list().first?.services == [services + "/org.telegram.desktop.service"])
        // The menu override no longer asks for activation, so launchers use its Exec.
        #expect(try DesktopEntry(text: String(contentsOfFile: applications + "/org.telegram.desktop.desktop", encoding: .utf8)).value("DBusActivatable") == nil)
        try protection.protect("telegram-desktop")
        #expect(FileManager.default.contents(atPath: services + "/org.telegram.desktop.service") == text)
        try protection.unprotect("telegram-desktop")
        #expect(!FileManager.default.fileExists(atPath: services + "/org.telegram.desktop.service"))
    }

    @Test func a_service_file_of_the_persons_own_is_left_alone_and_named() throws {
        try home.write("[D-BUS Service]\nName=org.telegram.desktop\nExec=/opt/mine/telegram\n",
                       to: ".local/share/dbus-1/services/org.telegram.desktop.service")
        let notes = try protection.protect("telegram-desktop")
        #expect(notes.contains { $0.contains("is your own D-Bus service file; left alone") }, "\(notes)")
        #expect(DBusServices.read(services + "/org.telegram.desktop.service")?.exec == "/opt/mine/telegram")
        try protection.unprotect("telegram-desktop")
        #expect(DBusServices.read(services + "/org.telegram.desktop.service")?.exec == "/opt/mine/telegram")
    }

    @Test func uninstall_removes_every_route_and_leaves_the_persons_files() throws {
        try home.write(Self.steamAtLogin, to: ".config/autostart/steam.desktop")
        let before = snapshot(autostart)
        try protection.protect("steam")
        try protection.protect("telegram-desktop")
        var manifest = Manifest(path: protection.manifestPath)
        try protection.units.write(into: &manifest)
        try manifest.save()
        _ = try protection.uninstall(purge: false)
        #expect(snapshot(autostart) == before)
        #expect(snapshot(services).isEmpty)
        #expect(snapshot(applications).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: protection.units.pathUnitFile))
    }

    // MARK: Bad input

    @Test func an_entry_that_cannot_be_read_is_left_alone_and_named_by_doctor() throws {
        let broken = "Exec=steam -silent\n[Desktop Entry]\nName=Steam\n"
        try home.write(broken, to: ".config/autostart/steam.desktop")
        try home.write("[D-BUS Service]\nExec=steam\n", to: "system/dbus-1/services/com.valvesoftware.Steam.service")
        try protection.protect("steam")
        #expect(try String(contentsOfFile: autostart + "/steam.desktop", encoding: .utf8) == broken)
        let findings = Doctor(protection: protection).examine().filter { !$0.ok && $0.text.hasPrefix("steam: ") }
        #expect(findings.contains { $0.text.contains(autostart + "/steam.desktop cannot be read") && $0.fix == "mend or remove it, then: miga refresh" },
                "\(findings)")
        #expect(findings.contains { $0.text.contains("com.valvesoftware.Steam.service cannot be read") }, "\(findings)")
        try protection.unprotect("steam")
        #expect(try String(contentsOfFile: autostart + "/steam.desktop", encoding: .utf8) == broken)
    }
}
