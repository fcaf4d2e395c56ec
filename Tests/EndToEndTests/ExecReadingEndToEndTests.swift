import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit
@testable import MIGATerminal

/// Exec lines as launchers read them, not only as the specification writes
/// them: single quotes, an unquoted `;` or `&`, `%U %F` together, a service
/// run through `env`. `gio launch`, `dex` and a real session bus reach the
/// pause, and the program gets exactly the arguments the line gave it; an
/// entry no launcher can be made to pause for is named as not covered.
@Suite(.serialized, .endToEnd) struct ExecReadingEndToEndTests {
    let sandbox = Sandbox()
    let server: NotificationServer
    let tmux: Tmux

    init() throws {
        server = try NotificationServer(folder: sandbox.root + "/server")
        tmux = try Tmux(command: "sleep 600", environment: sandbox.environment)
        // Each start leaves a file of its arguments (NUL-separated), written aside and renamed.
        try sandbox.program("distract", """
            #!/bin/sh
            printf '%s\\0' "$@" > "\(sandbox.root)/launch.$$.tmp"
            /bin/mv "\(sandbox.root)/launch.$$.tmp" "\(sandbox.root)/launch.$$"
            """)
        try sandbox.terminal(into: tmux)
        let program = sandbox.root + "/bin/distract"
        try entry("distract-work", exec: "\(program) --profile 'work' %U")
        try entry("distract-shell", exec: "\(program) --a;b --c&d %U %F")
        try write("[D-BUS Service]\nName=org.example.DistractEnv\nExec=/usr/bin/env MOZ_X=1 \(program) --dbus-env\n",
                  to: "system/dbus-1/services/org.example.DistractEnv.service")
        try write("[D-BUS Service]\nName=org.example.DistractQuoted\nExec=\(program) '--dbus-quoted'\n",
                  to: "system/dbus-1/services/org.example.DistractQuoted.service")
    }

    func entry(_ name: String, exec: String) throws {
        try write("[Desktop Entry]\nName=Distract\nExec=\(exec)\nIcon=distract\nTerminal=false\nType=Application\n",
                  to: "system/applications/\(name).desktop")
    }

    func write(_ text: String, to relative: String) throws {
        let path = sandbox.root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    var environment: [String: String] {
        sandbox.environment.merging([
            "XDG_DATA_DIRS": sandbox.root + "/system", "XDG_CONFIG_DIRS": sandbox.root + "/xdg", "SHELL": "/bin/bash",
            "TERMINAL": "gnome-terminal", "DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress,
        ]) { $1 }
    }

    /// The arguments of each start of the program so far.
    func launches() throws -> [[String]] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.root).filter { $0.hasPrefix("launch.") && !$0.hasSuffix(".tmp") }
            .compactMap { sandbox.bytes($0) }
            .map { bytes in bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) } }
    }

    func miga(_ arguments: String...) throws -> (status: Int32, output: String, error: String) {
        let result = try run(migaBinary, arguments, environment: environment)
        return (result.status, result.output, result.error)
    }

    func protect() throws {
        let protect = try miga("protect", "distract", "--pause", "1")
        #expect(protect.status == 0, "\(protect.error)")
    }

    @Test func gio_launch_of_an_entry_with_single_quotes_reaches_the_pause() throws {
        try protect()
        #expect(sandbox.read("data/applications/distract-work.desktop")?.contains("X-MIGA-Program=distract") == true)
        let launcher = try run("/usr/bin/gio", ["launch", sandbox.root + "/data/applications/distract-work.desktop"], environment: environment)
        #expect(launcher.status == 0, "\(launcher.error)")
        #expect(try launches().isEmpty, "started before the pause")
        try tmux.proceedInWindow(1, name: "Distract")
        #expect(try eventually("the program to start") { try launches().first } == ["--profile", "work"])
        #expect(try sandbox.sessions().map(\.outcome) == [.proceed])
    }

    @Test func dex_of_an_entry_with_semicolons_ampersands_and_two_file_codes_reaches_the_pause() throws {
        try protect()
        let dex = try run("/usr/bin/dex", [sandbox.root + "/data/applications/distract-shell.desktop"], environment: environment)
        #expect(dex.status == 0, "\(dex.error)")
        try tmux.proceedInWindow(1, name: "Distract")
        #expect(try eventually("the program to start") { try launches().first } == ["--a;b", "--c&d"])
        #expect(try miga("refresh").output == "Every route is in place.\n")
    }

    @Test func an_entry_that_cannot_be_rewritten_is_named_not_covered_and_refresh_says_so() throws {
        try entry("distract-broken", exec: "\(sandbox.root)/bin/distract \"--never-closed")
        try protect()
        let routes = try miga("list", "--routes")
        let override = sandbox.root + "/data/applications/distract-broken.desktop"
        #expect(routes.output.contains("✗ menu: \(override) (cannot be rewritten: in the Exec line of \(sandbox.root)/system/applications/distract-broken.desktop, the double quote in argument 2 is never closed)"),
                "\(routes.output)")
        #expect(routes.output.contains("✓ menu: \(sandbox.root)/data/applications/distract-work.desktop"), "\(routes.output)")
        let doctor = try miga("doctor")
        #expect(doctor.output.contains("✗ distract:") && doctor.output.contains("menu \(override) cannot be rewritten"), "\(doctor.output)")
        let refresh = try miga("refresh")
        #expect(!refresh.output.contains("Every route is in place."), "\(refresh.output)")
        #expect(refresh.output.contains("distract-broken.desktop has an Exec line MIGA cannot rewrite"), "\(refresh.output)")
    }

    @Test(arguments: [("org.example.DistractEnv", ["--dbus-env"]), ("org.example.DistractQuoted", ["--dbus-quoted"])])
    func an_activation_of_a_service_through_env_or_with_quotes_reaches_the_pause(name: String, arguments: [String]) throws {
        try protect()
        #expect(sandbox.read("data/dbus-1/services/\(name).service")?.contains("X-MIGA-Program=distract") == true)
        #expect(try miga("list", "--routes").output.contains("✓ D-Bus: \(sandbox.root)/data/dbus-1/services/\(name).service"))
        // A session bus of the person's: it reads the service folders of its environment, the user's first.
        let address = "unix:path=\(sandbox.root)/session-bus"
        let daemon = try spawn("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=" + address], environment: environment)
        defer { kill(daemon, SIGTERM); var status: Int32 = 0; waitpid(daemon, &status, 0) }
        try eventually("the bus") { FileManager.default.fileExists(atPath: sandbox.root + "/session-bus") ? true : nil }
        // As a launcher asks for it; the reply never comes (the stand-in program never takes the name).
        let caller = try spawn("/usr/bin/gdbus", ["call", "--session", "--dest", name, "--object-path", "/org/example/Distract",
                                                  "--method", "org.freedesktop.Application.Activate", "{}"],
                               environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 })
        defer { kill(caller, SIGTERM); var status: Int32 = 0; waitpid(caller, &status, 0) }
        try tmux.proceedInWindow(1, name: "Distract")
        #expect(try eventually("the program to start") { try launches().first } == arguments)
    }
}
