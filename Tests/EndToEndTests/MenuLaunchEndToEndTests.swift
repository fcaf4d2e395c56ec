import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGADesktop

/// The application menu's route as desktops take it: protected twice and set
/// up twice, the entry launched by `gio launch`, `gtk-launch` and `dex` on a
/// virtual display with a real session bus reaches exactly one pause, and
/// Proceed starts the program with exactly its arguments.
@Suite(.serialized, .endToEnd) struct MenuLaunchEndToEndTests {
    let sandbox = Sandbox()
    let server: NotificationServer
    let tmux: Tmux
    var override: String { sandbox.root + "/data/applications/slack.desktop" }

    init() throws {
        server = try NotificationServer(folder: sandbox.root + "/server")
        // The program: each start leaves a file of its arguments (NUL-separated), written aside and renamed.
        try sandbox.program("slack", """
            #!/bin/sh
            printf '%s\\0' "$@" > "\(sandbox.root)/launch.$$.tmp"
            /bin/mv "\(sandbox.root)/launch.$$.tmp" "\(sandbox.root)/launch.$$"
            """)
        try FileManager.default.createDirectory(atPath: sandbox.root + "/system/applications", withIntermediateDirectories: true)
        // As Slack's package writes it, with the program in this sandbox.
        try """
            [Desktop Entry]
            Name=Slack
            StartupWMClass=Slack
            Comment=Slack Desktop
            GenericName=Slack Client for Linux
            Exec=\(sandbox.root)/bin/slack --from-menu %U
            Icon=slack
            Type=Application
            StartupNotify=true
            Categories=GNOME;GTK;Network;InstantMessaging;
            MimeType=x-scheme-handler/slack;

            """.write(toFile: sandbox.root + "/system/applications/slack.desktop", atomically: true, encoding: .utf8)
        tmux = try Tmux(command: "sleep 600", environment: sandbox.environment)
        // A terminal window as GLib (gnome-terminal --) and dex (-e) start one: here, a window of the test's tmux.
        try sandbox.terminal(into: tmux)
        // A "terminal" that gives the command none: the gateway runs without one.
        try sandbox.program("no-terminal", """
            #!/bin/sh
            case "$1" in -e) shift ;; esac
            exec "$@" </dev/null >/dev/null 2>&1
            """)
    }

    var environment: [String: String] {
        // The person's terminal, which MIGA's choice of emulator takes first.
        sandbox.environment.merging(["XDG_DATA_DIRS": sandbox.root + "/system", "SHELL": "/bin/bash", "TERMINAL": "gnome-terminal",
                                     "DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress]) { $1 }
    }

    /// The arguments of each start of the program so far.
    func launches() throws -> [[String]] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.root).filter { $0.hasPrefix("launch.") && !$0.hasSuffix(".tmp") }
            .compactMap { sandbox.bytes($0) }
            .map { bytes in bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Protect twice and set up twice, as a person changing their choices does.
    func protectAgainAndAgain() throws {
        for arguments in [["protect", "slack", "--pause", "1"], ["protect", "slack"]] {
            let result = try run(migaBinary, arguments, environment: environment)
            #expect(result.status == 0, "\(result.error)")
        }
        try sandbox.setupAgain(environment: environment)
        try sandbox.setupAgain(environment: environment)
        let entry = try DesktopEntry(text: try #require(sandbox.read("data/applications/slack.desktop")))
        let words = try DesktopExec.split(try #require(entry.value("Exec")))
        #expect(words.filter { $0 == .text(migaBinary) }.count == 1, "one gateway: \(words)")
        let doctor = try run(migaBinary, ["doctor"], environment: environment)
        #expect(doctor.output.contains("✓ menu: \(override) starts the pause, then slack"), "\(doctor.output)")
    }

    /// Waits for the pause in the launcher's window, lets the countdown end, and proceeds.
    func proceedInTheWindow(_ launched: Int) throws {
        try tmux.proceedInWindow(launched, name: "Slack")
    }

    @Test func gio_launch_reaches_one_pause_and_then_the_program_with_its_arguments() throws {
        try protectAgainAndAgain()
        let link = "https://example.org/a b?q=\"x\"&y=$HOME"
        let launcher = try run("/usr/bin/gio", ["launch", override, link], environment: environment.merging(["PATH": sandbox.root + "/bin:" + Sandbox.systemPath]) { $1 })
        #expect(launcher.status == 0, "\(launcher.error)")
        try proceedInTheWindow(1)
        let started = try eventually("the program to start") { try launches().first }
        #expect(started == ["--from-menu", link])
        #expect(try sandbox.sessions().map(\.outcome) == [.proceed], "exactly one pause")
        #expect(try launches().count == 1)
    }

    @Test func gtk_launch_and_dex_reach_one_pause_each() throws {
        try protectAgainAndAgain()
        let gtk = try run("/usr/bin/gtk-launch", ["slack"], environment: environment)
        #expect(gtk.status == 0, "\(gtk.error)")
        try proceedInTheWindow(1)
        #expect(try eventually("the program to start") { try launches().count == 1 ? launches() : nil } == [["--from-menu"]])
        let dex = try run("/usr/bin/dex", ["--term", sandbox.root + "/bin/gnome-terminal", override], environment: environment)
        #expect(dex.status == 0, "\(dex.error)")
        try proceedInTheWindow(2)
        #expect(try eventually("the program to start again") { try launches().count == 2 ? launches() : nil } == [["--from-menu"], ["--from-menu"]])
        #expect(try sandbox.sessions().map(\.outcome) == [.proceed, .proceed])
    }

    @Test func doctor_catches_a_nested_override_and_fix_leaves_one_gateway_that_starts_the_program() throws {
        let protect = try run(migaBinary, ["protect", "slack", "--pause", "1"], environment: environment)
        #expect(protect.status == 0, "\(protect.error)")
        // What an earlier MIGA's second protect wrote, and its manifest line without a fingerprint.
        let nested = try #require(sandbox.read("data/applications/slack.desktop")).replacingOccurrences(
            of: "Exec=\(migaBinary) gate --window --detach --as slack",
            with: "Exec=\(migaBinary) gate --as slack \(migaBinary) -- gate --window --detach --as slack")
        try nested.write(toFile: override, atomically: true, encoding: .utf8)
        try "shim\t\(sandbox.root)/data/miga/shims/slack\ndesktop\t\(override)\t-\tslack\n"
            .write(toFile: sandbox.root + "/data/miga/manifest", atomically: true, encoding: .utf8)
        let found = try run(migaBinary, ["doctor"], environment: environment)
        #expect(found.status == 1)
        #expect(found.output.contains("✗ menu: \(override) wraps the gateway inside the gateway"), "\(found.output)")
        #expect(found.output.contains("fix: miga doctor --fix"))
        _ = try run(migaBinary, ["doctor", "--fix"], environment: environment)
        let entry = try DesktopEntry(text: try #require(sandbox.read("data/applications/slack.desktop")))
        #expect(try DesktopExec.split(try #require(entry.value("Exec"))).filter { $0 == .text(migaBinary) }.count == 1)
        let launcher = try run("/usr/bin/gio", ["launch", override], environment: environment)
        #expect(launcher.status == 0, "\(launcher.error)")
        try proceedInTheWindow(1)
        #expect(try eventually("the program to start") { try launches().first } == ["--from-menu"])
        #expect(try sandbox.sessions().map(\.outcome) == [.proceed])
    }

    @Test func after_the_gateway_moved_doctors_fix_leaves_one_live_gateway() throws {
        // Protected with a copy of miga that is later deleted.
        try FileManager.default.createDirectory(atPath: sandbox.root + "/old", withIntermediateDirectories: true)
        try copyExecutable(from: migaBinary, to: sandbox.root + "/old/miga")
        #expect(try run(sandbox.root + "/old/miga", ["protect", "slack", "--pause", "1"], environment: environment).status == 0)
        unlink(sandbox.root + "/old/miga")
        let found = try run(migaBinary, ["doctor"], environment: environment)
        #expect(found.output.contains("✗ menu: \(override) starts \(sandbox.root)/old/miga, which is gone"), "\(found.output)")
        #expect(found.output.contains("✗ slack: its shim points to \(sandbox.root)/old/miga, which is gone"), "\(found.output)")
        #expect(!found.output.contains("fix: miga protect"), "doctor's fix is its own: \(found.output)")
        // Protect from the live miga, as doctor once advised, then doctor's own fix: one gateway, the live one.
        #expect(try run(migaBinary, ["protect", "slack"], environment: environment).status == 0)
        _ = try run(migaBinary, ["doctor", "--fix"], environment: environment)
        let entry = try DesktopEntry(text: try #require(sandbox.read("data/applications/slack.desktop")))
        let words = try DesktopExec.split(try #require(entry.value("Exec")))
        #expect(words.first == .text(migaBinary))
        #expect(!words.contains(.text(sandbox.root + "/old/miga")))
        let healthy = try run(migaBinary, ["doctor"], environment: environment)
        #expect(healthy.output.contains("✓ menu: \(override) starts the pause"), "\(healthy.output)")
        #expect(healthy.output.contains("✓ slack: reaches the gateway"))
        let launcher = try run("/usr/bin/gio", ["launch", override], environment: environment)
        #expect(launcher.status == 0, "\(launcher.error)")
        try proceedInTheWindow(1)
        #expect(try eventually("the program to start") { try launches().first } == ["--from-menu"])
    }

    /// A folder with the program and the tools a launch needs, and no terminal emulator at all.
    func bareFolder() throws -> String {
        let bare = sandbox.root + "/bare"
        try FileManager.default.createDirectory(atPath: bare, withIntermediateDirectories: true)
        for tool in ["sh", "env", "mv", "tmux"] { try? FileManager.default.createSymbolicLink(atPath: bare + "/" + tool, withDestinationPath: "/usr/bin/" + tool) }
        return bare
    }

    @Test func with_no_terminal_emulator_at_all_the_pass_policy_starts_the_program_once_and_says_so() throws {
        try protectAgainAndAgain()
        let launcher = try run("/usr/bin/gio", ["launch", override], environment: environment.merging(["PATH": try bareFolder()]) { $1 })
        #expect(launcher.status == 0, "\(launcher.error)")
        #expect(try eventually("the program to start") { try launches().first } == ["--from-menu"])
        #expect(try sandbox.sessions().map(\.outcome) == [.passthrough])
        let said = try eventually("the notification") { server.monitorLog.contains("string \"No window for the pause\"") ? server.monitorLog : nil }
        #expect(said.contains("so Slack opened directly"), "\(said)")
        #expect(try launches().count == 1)
    }

    @Test func with_no_terminal_emulator_at_all_the_deny_policy_keeps_the_program_closed_and_says_so() throws {
        #expect(try run(migaBinary, ["protect", "slack", "--non-interactive", "deny"], environment: environment).status == 0)
        let launcher = try run("/usr/bin/gio", ["launch", override], environment: environment.merging(["PATH": try bareFolder()]) { $1 })
        #expect(launcher.status == 0, "\(launcher.error)")
        let said = try eventually("the notification") { server.monitorLog.contains("string \"No window for the pause\"") ? server.monitorLog : nil }
        #expect(said.contains("so Slack did not open"), "\(said)")
        #expect(try launches().isEmpty)
    }

    /// A machine whose only terminal is one GLib does not know: the pause opens in it, in its own argv form.
    @Test(arguments: ["kitty", "alacritty", "foot"])
    func an_emulator_the_launcher_does_not_know_opens_the_pause(emulator: String) throws {
        let only = sandbox.root + "/only"
        try FileManager.default.createDirectory(atPath: only, withIntermediateDirectories: true)
        // Records its argv, then runs the command as the real one would: in a window (here, the test's tmux).
        try sandbox.terminal(into: tmux, named: "fake-" + emulator, recording: sandbox.root + "/emulator-argv")
        try FileManager.default.createSymbolicLink(atPath: only + "/" + emulator, withDestinationPath: sandbox.root + "/bin/fake-" + emulator)
        for tool in ["sh", "env", "mv", "tmux", "printf"] { try? FileManager.default.createSymbolicLink(atPath: only + "/" + tool, withDestinationPath: "/usr/bin/" + tool) }
        #expect(try run(migaBinary, ["protect", "slack", "--pause", "1"], environment: environment).status == 0)
        let context = environment.merging(["PATH": only, "TERMINAL": ""]) { $1 }
        let launcher = try run("/usr/bin/gio", ["launch", override, "slack://open"], environment: context)
        #expect(launcher.status == 0, "\(launcher.error)")
        try proceedInTheWindow(1)
        #expect(try eventually("the program to start") { try launches().first } == ["--from-menu", "slack://open"])
        let argv = try #require(sandbox.read("emulator-argv")).split(separator: "\n").map(String.init)
        // Its own options first (the title, the pause's size), then the gateway.
        let opening = try #require(TerminalEmulator.known.first { $0.name == emulator })
            .arguments(running: [migaBinary, "gate"], in: PauseWindow(programName: "Slack"))
        #expect(Array(argv.prefix(opening.count)) == opening, "\(argv)")
        #expect(try sandbox.sessions().map(\.outcome) == [.proceed])
    }
}
