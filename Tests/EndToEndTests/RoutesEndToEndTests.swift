import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal

/// The routes that used to walk around the gate, taken as desktops take them:
/// a login start by `dex -a`, an activation on a real session bus, `flatpak
/// run` typed in a shell, an entry that appears after `protect`. Each reaches
/// the pause (or is passed by the person's choice), and the program gets its
/// exact arguments only after Proceed.
@Suite(.serialized, .endToEnd) struct RoutesEndToEndTests {
    let sandbox = Sandbox()
    let server: NotificationServer
    let tmux: Tmux

    init() throws {
        server = try NotificationServer(folder: sandbox.root + "/server")
        tmux = try Tmux(command: "sleep 600", environment: sandbox.environment)
        // Each program leaves a file per start: its name, then its arguments (NUL-separated).
        for name in ["steam", "telegram-desktop", "flatpak"] {
            try sandbox.program(name, """
                #!/bin/sh
                printf '%s\\0' "\(name)" "$@" > "\(sandbox.root)/launch.$$.tmp"
                /bin/mv "\(sandbox.root)/launch.$$.tmp" "\(sandbox.root)/launch.$$"
                """)
        }
        // A terminal window as the person's emulator opens one: here, a window of the test's tmux.
        try sandbox.terminal(into: tmux)
        // Modelled on Steam's package entry and the autostart file Steam writes for itself.
        try write("""
            [Desktop Entry]
            Name=Steam
            Comment=Application for managing and playing games on Steam
            Exec=\(sandbox.root)/bin/steam %U
            Icon=steam
            Terminal=false
            Type=Application
            Categories=Network;FileTransfer;Game;
            MimeType=x-scheme-handler/steam;x-scheme-handler/steamlink;
            Actions=Store;

            [Desktop Action Store]
            Name=Store
            Exec=steam steam://store

            """, to: "system/applications/steam.desktop")
        try write("""
            [Desktop Entry]
            Name=Steam
            Comment=Application for managing and playing games on Steam
            Exec=\(sandbox.root)/bin/steam %U -silent
            Icon=steam
            Terminal=false
            Type=Application
            Categories=Network;FileTransfer;Game;

            """, to: "config/autostart/steam.desktop")
        // Telegram's entry asks for D-Bus activation, and its service file starts the program.
        try write("""
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
            DBusActivatable=true

            """, to: "system/applications/org.telegram.desktop.desktop")
        try write("[D-BUS Service]\nName=org.telegram.desktop\nExec=\(sandbox.root)/bin/telegram-desktop -autostart\n",
                  to: "system/dbus-1/services/org.telegram.desktop.service")
        // A Flatpak export, with its command in the exports' bin folder.
        try write("""
            [Desktop Entry]
            Name=Discord
            StartupWMClass=discord
            Comment=All-in-one voice and text chat for gamers
            Exec=\(sandbox.root)/bin/flatpak run --branch=stable --arch=x86_64 --command=com.discordapp.Discord com.discordapp.Discord
            Icon=com.discordapp.Discord
            Type=Application
            Categories=Network;InstantMessaging;
            X-Flatpak=com.discordapp.Discord

            """, to: "flatpak/exports/share/applications/com.discordapp.Discord.desktop")
        try FileManager.default.createDirectory(atPath: sandbox.root + "/flatpak/exports/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sandbox.root + "/flatpak/exports/bin/com.discordapp.Discord",
                                                   withDestinationPath: sandbox.root + "/bin/flatpak")
    }

    func write(_ text: String, to relative: String) throws {
        let path = sandbox.root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    var environment: [String: String] {
        sandbox.environment.merging([
            "XDG_DATA_DIRS": sandbox.root + "/system:" + sandbox.root + "/flatpak/exports/share",
            "XDG_CONFIG_DIRS": sandbox.root + "/xdg", "SHELL": "/bin/bash", "TERMINAL": "gnome-terminal",
            "PATH": sandbox.root + "/bin:" + sandbox.root + "/flatpak/exports/bin:" + Sandbox.systemPath,
            "DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress,
        ]) { $1 }
    }

    /// Each start of a program so far: its name, then its arguments.
    func launches() throws -> [[String]] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.root).filter { $0.hasPrefix("launch.") && !$0.hasSuffix(".tmp") }
            .compactMap { sandbox.bytes($0) }
            .map { bytes in bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) } }
    }

    func miga(_ arguments: String...) throws -> (status: Int32, output: String, error: String) {
        let result = try run(migaBinary, arguments, environment: environment)
        return (result.status, result.output, result.error)
    }

    func proceedInTheWindow(_ launched: Int, name: String) throws {
        try tmux.proceedInWindow(launched, name: name)
    }

    // MARK: At login

    @Test func a_login_start_by_dex_pauses_in_a_window_then_starts_the_program_with_its_arguments() throws {
        #expect(try miga("protect", "steam", "--pause", "1").status == 0)
        let dex = try run("/usr/bin/dex", ["-a"], environment: environment)
        #expect(dex.status == 0, "\(dex.error)")
        try proceedInTheWindow(1, name: "Steam")
        #expect(try eventually("the program to start") { try launches().first } == ["steam", "-silent"])
        #expect(try sandbox.sessions().map(\.outcome) == [.proceed])
        #expect(try miga("unprotect", "--now", "steam").status == 0)
        #expect(sandbox.read("config/autostart/steam.desktop")?.contains("Exec=\(sandbox.root)/bin/steam %U -silent") == true)
    }

    @Test func at_login_skip_keeps_it_closed_and_says_how_to_open_it() throws {
        #expect(try miga("protect", "steam", "--at-login", "skip").status == 0)
        #expect(try run("/usr/bin/dex", ["-a"], environment: environment).status == 0)
        let said = try eventually("the notification") { server.monitorLog.contains("did not start at login") ? server.monitorLog : nil }
        #expect(said.contains("string \"Steam did not start at login\""))
        #expect(said.contains("string \"Open it from the menu when you mean to.\""))
        #expect(try launches().isEmpty)
        #expect(try sandbox.sessions().isEmpty)
    }

    @Test func at_login_pass_starts_it_at_once_and_records_why() throws {
        #expect(try miga("protect", "steam", "--at-login", "pass").status == 0)
        #expect(try run("/usr/bin/dex", ["-a"], environment: environment).status == 0)
        #expect(try eventually("the program to start") { try launches().first } == ["steam", "-silent"])
        let row = try eventually("the pass-through") { try sandbox.sessions().first }
        #expect(row.outcome == .passthrough && row.reason == .autostart)
        #expect(try miga("history", "--all").output.contains("started at login"))
    }

    // MARK: D-Bus activation

    @Test func an_activation_on_the_session_bus_reaches_the_pause() throws {
        #expect(try miga("protect", "telegram-desktop", "--pause", "1").status == 0)
        #expect(sandbox.read("data/dbus-1/services/org.telegram.desktop.service") != nil)
        // A session bus of the person's: it reads the service folders of its environment, the user's first.
        let address = "unix:path=\(sandbox.root)/session-bus"
        let daemon = try spawn("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=" + address],
                               environment: environment)
        defer { kill(daemon, SIGTERM); var status: Int32 = 0; waitpid(daemon, &status, 0) }
        try eventually("the bus") { FileManager.default.fileExists(atPath: sandbox.root + "/session-bus") ? true : nil }
        // As a launcher asks for it; the reply never comes (the stand-in program never takes the name).
        let caller = try spawn("/usr/bin/gdbus", ["call", "--session", "--dest", "org.telegram.desktop", "--object-path", "/org/telegram/desktop",
                                                  "--method", "org.freedesktop.Application.Activate", "{}"],
                               environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 })
        defer { kill(caller, SIGTERM); var status: Int32 = 0; waitpid(caller, &status, 0) }
        try proceedInTheWindow(1, name: "Telegram Desktop")
        #expect(try eventually("the program to start") { try launches().first } == ["telegram-desktop", "-autostart"])
        #expect(try sandbox.sessions().map(\.outcome) == [.proceed])
    }

    // MARK: Flatpak

    @Test func flatpak_run_typed_in_a_shell_pauses_and_flatpak_update_does_not() throws {
        let protect = try miga("protect", "discord", "--pause", "1")
        #expect(protect.status == 0, "\(protect.error)")
        #expect(try miga("list").output.contains("Discord"))
        let shell = try Tmux(command: "bash --noprofile --norc -i", environment: environment.merging(["PS1": "READY$ "]) { $1 })
        try shell.waitForScreen("a prompt") { $0.contains("READY$") }
        try shell.send("-l", "eval \"$(\(shellQuoted(migaBinary)) init bash)\"")
        try shell.send("Enter")
        try shell.send("-l", "flatpak update -y")
        try shell.send("Enter")
        #expect(try eventually("flatpak itself") { try launches().first } == ["flatpak", "update", "-y"])
        #expect(try sandbox.sessions().isEmpty, "flatpak's own business is not recorded")
        try shell.send("-l", "flatpak run com.discordapp.Discord --start-minimized")
        try shell.send("Enter")
        try shell.waitForScreen("the pause") { $0.contains("a pause before Discord") }
        try shell.waitForScreen("the end of the countdown") { $0.contains("the choice is yours") }
        try shell.send("p")
        #expect(try eventually("the app") { try launches().count == 2 ? launches() : nil }
            .contains(["flatpak", "run", "com.discordapp.Discord", "--start-minimized"]))
        #expect(try sandbox.sessions().map(\.program) == ["discord"])
        #expect(try miga("protect", "flatpak").status == ExitStatus.usage)
    }

    // MARK: Entries that appear later

    @Test func an_entry_that_appears_after_protect_is_covered_and_gio_launch_pauses() throws {
        #expect(try miga("protect", "steam", "--pause", "1").status == 0)
        // Steam writes a shortcut per game into the person's menu folder.
        try write("[Desktop Entry]\nName=Dota 2\nComment=Play this game on Steam\nExec=steam steam://rungameid/570\nIcon=steam_icon_570\nTerminal=false\nType=Application\nCategories=Game;\n",
                  to: "data/applications/Dota 2.desktop")
        // As when Steam writes it later: the folder's time a moment after protect's own write
        // (within one tick of the file system's clock the two cannot be told apart).
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(2)], ofItemAtPath: sandbox.root + "/data/applications")
        let doctor = try miga("doctor")
        #expect(doctor.output.contains("✗ routes: an application, login or D-Bus service folder changed since the last refresh"), "\(doctor.output)")
        // A command that only looks changes nothing; any other miga command notices, and covers it.
        #expect(try miga("list").status == 0)
        #expect(sandbox.read("data/applications/Dota 2.desktop")?.contains("X-MIGA-Program=steam") == false)
        #expect(try miga("interests").status == 0)
        #expect(sandbox.read("data/applications/Dota 2.desktop")?.contains("X-MIGA-Program=steam") == true)
        #expect(try miga("refresh").output == "Every route is in place.\n")
        let launcher = try run("/usr/bin/gio", ["launch", sandbox.root + "/data/applications/Dota 2.desktop"], environment: environment)
        #expect(launcher.status == 0, "\(launcher.error)")
        try proceedInTheWindow(1, name: "Steam")
        #expect(try eventually("the program to start") { try launches().first } == ["steam", "steam://rungameid/570"])
    }

    @Test func with_nothing_protected_refresh_says_so_rather_than_every_route_is_in_place() throws {
        let refresh = try miga("refresh")
        #expect(refresh.status == 0)
        #expect(refresh.output == "Nothing is protected yet (miga protect NAME, or miga setup).\n")
        // As `make install` runs it for the units: nothing to say about routes at all.
        let units = try miga("refresh", "--units")
        #expect(!units.output.contains("route") && !units.output.contains("Nothing is protected"), "\(units.output)")
    }

    @Test func the_systemd_units_are_valid_and_uninstall_removes_them() throws {
        #expect(try miga("protect", "steam").status == 0)
        let refresh = try miga("refresh", "--units")
        #expect(refresh.status == 0, "\(refresh.error)")
        let folder = sandbox.root + "/config/systemd/user"
        let runtime = sandbox.root + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let verify = try run("/usr/bin/systemd-analyze", ["verify", "--user", folder + "/miga-refresh.path", folder + "/miga-refresh.service"],
                             environment: environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
        #expect(verify.status == 0 && verify.error.isEmpty, "\(verify.error)")
        #expect(sandbox.read("config/systemd/user/miga-refresh.path")?.contains("PathChanged=\(sandbox.root)/data/applications") == true)
        #expect(try miga("uninstall", "--now").status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder + "/miga-refresh.path"))
    }
    @Test func the_units_shipped_in_the_package_are_valid() throws {
        // As `make deb` installs them, with ExecStart naming this miga (the
        // package's /usr/bin/miga is not on the machine that runs the tests);
        // the sync timer and service as an instance for one folder.
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("packaging/systemd").path
        let folder = sandbox.root + "/units"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: shipped).sorted()
        #expect(names == ["miga-refresh.path", "miga-refresh.service", "miga-sync@.service", "miga-sync@.timer"])
        var files: [String] = []
        for name in names {
            let text = try String(contentsOfFile: shipped + "/" + name, encoding: .utf8)
            #expect(text.contains("ExecStart=/usr/bin/miga ") || !name.hasSuffix(".service"), "\(name)")
            let file = folder + "/" + name.replacingOccurrences(of: "@.", with: "@home-me-Sync-miga.")
            try text.replacingOccurrences(of: "/usr/bin/miga", with: migaBinary).write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let runtime = sandbox.root + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let verify = try run("/usr/bin/systemd-analyze", ["verify", "--user"] + files,
                             environment: environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
        // systemd-analyze reports unknown keys and bad values on stderr with status 0.
        #expect(verify.status == 0 && verify.error.isEmpty, "\(verify.error)")
    }
}
