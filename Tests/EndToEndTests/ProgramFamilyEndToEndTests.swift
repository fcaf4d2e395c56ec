import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAConfig
@testable import MIGADesktop

/// "Firefox" ticked in setup covers Firefox ESR as Debian ships it: the real
/// `/usr/bin/firefox` (a script that execs `firefox-esr`), the real
/// `firefox-esr` (a link to `/usr/lib/firefox-esr/firefox-esr`) and the real
/// menu entry `firefox-esr.desktop`, whose Exec names the file in /usr/lib.
/// Typed by either name, or launched from the menu, it is one program's pause.
@Suite(.serialized, .endToEnd) struct ProgramFamilyEndToEndTests {
    let sandbox = Sandbox()
    let server: NotificationServer
    let tmux: Tmux
    static let entry = "/usr/share/applications/firefox-esr.desktop"

    init() throws {
        server = try NotificationServer(folder: sandbox.root + "/server")
        for command in ["firefox", "firefox-esr"] {
            try FileManager.default.createSymbolicLink(atPath: sandbox.root + "/bin/" + command, withDestinationPath: "/usr/bin/" + command)
        }
        try FileManager.default.createDirectory(atPath: sandbox.root + "/system/applications", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.entry, toPath: sandbox.root + "/system/applications/firefox-esr.desktop")
        tmux = try Tmux(command: "sleep 600", environment: sandbox.environment)
        try sandbox.terminal(into: tmux)
    }

    var environment: [String: String] {
        sandbox.environment.merging(["SHELL": "/bin/bash", "TERMINAL": "gnome-terminal",
                                     "DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress]) { $1 }
    }

    /// Setup as a newcomer walks it: Firefox ticked, the hook line taken.
    func setUpFirefox() throws {
        let script = sandbox.root + "/setup.sh"
        try "cd \(shellQuoted(sandbox.root))\n\(shellQuoted(migaBinary)) setup\necho \"$?\" > setup.status\nsleep 600\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        try tmux.newWindow("sh " + shellQuoted(script), environment: environment)
        let window = ":1"
        try tmux.waitForScreen("page 1 of 12", target: window) { $0.contains("1 / 12") }
        for _ in 0..<12 { try tmux.send("Enter", target: window) }
        let list = try tmux.waitForScreen("the program list", target: window) { $0.contains("Which programs should pause first?") }
        #expect(list.split(separator: "\n").first { $0.contains("Firefox") }.map { !$0.contains("not installed") } == true, "\(list)")
        try tmux.send("Space", target: window)
        try tmux.waitForScreen("Firefox chosen", target: window) { $0.contains("Continue with 1 program") }
        try tmux.send("Enter", target: window)
        try tmux.waitForScreen("interests", target: window) { $0.contains("What would you like to read") }
        try tmux.send("Enter", target: window)
        try tmux.waitForScreen("pause length", target: window) { $0.contains("1:30") }
        try tmux.send("Enter", target: window)
        // The hook page by its title: the line it offers names miga by a path
        // whose length (the checkout's) decides where it wraps.
        try tmux.waitForScreen("the hook offer", target: window) { $0.contains("Reach your programs from the shell") }
        try tmux.send("y", target: window)
        try tmux.waitForScreen("the summary", target: window) { $0.contains("Ready when you are") }
        try tmux.send("Enter", target: window)
        // The hub opens once setup has applied everything, the hook line last:
        // a shell started before then would not run it.
        try tmux.waitForScreen("the hub after setup", timeout: 60, target: window) { $0.contains("s stats") }
        try eventually("setup's settings") { sandbox.read("config/miga/config.toml")?.contains("[programs.firefox]") == true ? true : nil }
        try eventually("setup's routes") { sandbox.read("data/applications/firefox-esr.desktop") }
    }

    @Test func ticking_firefox_covers_firefox_esr_by_every_route() throws {
        try #require(FileManager.default.fileExists(atPath: Self.entry), "the firefox-esr package is among make test's packages")
        try setUpFirefox()

        let config = ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config
        #expect(Set(config.programs.keys) == ["firefox"])
        #expect(config.programs["firefox"]?.also == ["firefox-esr"])
        for command in ["firefox", "firefox-esr"] {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.root + "/data/miga/shims/" + command) == migaBinary)
        }
        // The menu entry names the file in /usr/lib: its override pauses as Firefox.
        let override = try DesktopEntry(text: try #require(sandbox.read("data/applications/firefox-esr.desktop")))
        let exec = try DesktopExec.split(try #require(override.value("Exec")))
        #expect(exec.prefix(6).contains(.text("--as")) && exec.contains(.text("firefox")) && exec.contains(.text("/usr/lib/firefox-esr/firefox-esr")),
                "\(exec)")

        let routes = try run(migaBinary, ["list", "--routes"], environment: environment)
        #expect(routes.output.contains("firefox-esr.desktop"), "\(routes.output)")
        #expect(routes.output.contains("firefox-esr"), "\(routes.output)")

        // Typed as firefox-esr in a new login bash: the pause, then the real program with its argument.
        #expect(try run(migaBinary, ["protect", "firefox-esr", "--pause", "1"], environment: environment).status == 0)
        #expect(ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config.programs["firefox"]?.pause == 1,
                "firefox-esr is Firefox: its settings are Firefox's")
        try "cd \(shellQuoted(sandbox.root))\nbash -i -c 'firefox-esr --version'\nsleep 600\n".write(toFile: sandbox.root + "/typed.sh", atomically: true, encoding: .utf8)
        try tmux.newWindow("sh " + shellQuoted(sandbox.root + "/typed.sh"), environment: environment)
        try tmux.waitForScreen("the pause before Firefox", target: ":2") { $0.contains("a pause before Firefox") }
        try tmux.waitForScreen("the end of the countdown", target: ":2") { $0.contains("the choice is yours") }
        try tmux.send("p", target: ":2")
        try tmux.waitForScreen("Firefox ESR's answer", target: ":2") { $0.contains("Mozilla Firefox") && $0.contains("esr") }

        // From the menu, by the entry's own name: a pause in a window, as Firefox.
        let launcher = try run("/usr/bin/gtk-launch", ["firefox-esr"], environment: environment)
        #expect(launcher.status == 0, "\(launcher.error)")
        try eventually("the pause's window") { try tmux.value("#{session_windows}") == "4" ? true : nil }
        try tmux.waitForScreen("the pause from the menu", target: ":3") { $0.contains("a pause before Firefox") }
        try tmux.send("e", target: ":3")
        let sessions = try eventually("both pauses recorded") { try sandbox.sessions().contains { $0.outcome == .exit } ? sandbox.sessions() : nil }
        #expect(sessions.map(\.program) == ["firefox", "firefox"])
        #expect(Set(sessions.map(\.outcome)) == [.proceed, .exit])

        // Doctor is content: every command and entry of the family is covered.
        let doctor = try run(migaBinary, ["doctor"], environment: environment)
        #expect(!doctor.output.contains("too, and has no shim"), "\(doctor.output)")
        #expect(doctor.output.contains("✓ firefox: reaches the gateway"), "\(doctor.output)")
    }

    @Test func a_name_of_the_program_installed_later_is_named_by_doctor_and_taken_in_by_refresh() throws {
        try sandbox.program("distract", "#!/bin/sh\nexit 0\n")
        #expect(try run(migaBinary, ["protect", "distract"], environment: environment).status == 0)
        #expect(ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config.programs["distract"]?.also == [])
        // A package update adds a second name for the same file.
        try FileManager.default.createSymbolicLink(atPath: sandbox.root + "/bin/distract-stable", withDestinationPath: sandbox.root + "/bin/distract")
        let doctor = try run(migaBinary, ["doctor"], environment: environment)
        #expect(doctor.output.contains("distract-stable starts Distract too, and has no shim"), "\(doctor.output)")
        let refresh = try run(migaBinary, ["refresh"], environment: environment)
        #expect(refresh.status == 0, "\(refresh.error)")
        #expect(ConfigLoader.load(from: sandbox.root + "/config/miga/config.toml").config.programs["distract"]?.also == ["distract-stable"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.root + "/data/miga/shims/distract-stable") == migaBinary)
        #expect(!(try run(migaBinary, ["doctor"], environment: environment)).output.contains("has no shim"))
    }
}
