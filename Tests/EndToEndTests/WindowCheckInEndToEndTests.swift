import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit

/// A menu's launch whose window for the pause cannot open is never a silent
/// nothing: with no display no window is tried, and an emulator that dies at
/// once is noticed when its gateway does not check in. Either way the
/// program's non_interactive policy decides, and the person is told.
@Suite(.serialized, .endToEnd) struct WindowCheckInEndToEndTests {
    let sandbox = Sandbox()

    init() throws {
        // An emulator on PATH that says it was started, then dies at once (as
        // one does without a display to draw on).
        try sandbox.program("xterm", "#!/bin/sh\necho started >> \"\(sandbox.root)/emulator-started\"\nexit 1\n")
    }

    /// The menu's entry, as it starts the gateway: no terminal, a window asked for.
    func launchFromTheMenu(_ environment: [String: String]) throws -> (status: Int32, error: String) {
        let result = try run(migaBinary, ["gate", "--window", "--detach", "argv-dump", "--", "from-menu"],
                             environment: environment.merging(["TERMINAL": "xterm"]) { $1 })
        return (result.status, result.error)
    }

    /// A display and a notification server, and a runtime folder of its own
    /// where the window's check-in file is made (and must not stay).
    func desktopWithRuntime() throws -> (server: NotificationServer, runtime: String, environment: [String: String]) {
        let server = try NotificationServer(folder: sandbox.root + "/server")
        let runtime = sandbox.root + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let environment = sandbox.environment.merging(["DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress,
                                                       "XDG_RUNTIME_DIR": runtime]) { $1 }
        return (server, runtime, environment)
    }

    @Test func without_a_display_no_window_is_tried_and_the_policy_starts_the_program() throws {
        let result = try launchFromTheMenu(sandbox.environment)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("there is no display to open a window for the pause on"), "\(result.error)")
        #expect(try eventually("the program to start") { sandbox.bytes("argv") } == Array("from-menu\0".utf8))
        #expect(sandbox.read("emulator-started") == nil)
        #expect(try sandbox.sessions().map(\.outcome) == [.passthrough])
    }

    @Test func without_a_display_deny_refuses_and_starts_nothing() throws {
        try sandbox.config("[programs.argv-dump]\nnon_interactive = \"deny\"\n")
        let result = try launchFromTheMenu(sandbox.environment)
        #expect(result.status == ExitStatus.denied, "\(result.error)")
        #expect(result.error.contains("not starting"), "\(result.error)")
        #expect(sandbox.read("emulator-started") == nil)
        #expect(sandbox.read("argv") == nil)
    }

    @Test func a_window_that_never_opens_is_a_no_window_pass_through_and_a_notification() throws {
        let (server, runtime, environment) = try desktopWithRuntime()
        let started = Date()
        let result = try launchFromTheMenu(environment)
        let waited = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.error)")
        #expect(sandbox.read("emulator-started") == "started\n")
        // An emulator that ends is not waited for.
        #expect(waited < 3, "waited \(waited) s for the window")
        #expect(result.error.contains("the window for the pause did not open (xterm ended with status 1); starting Argv-dump directly"),
                "\(result.error)")
        #expect(try eventually("the program to start") { sandbox.bytes("argv") } == Array("from-menu\0".utf8))
        let row = try #require(try sandbox.sessions().first)
        #expect(row.outcome == .passthrough && row.reason?.rawValue == "no-window", "\(row.outcome) \(String(describing: row.reason))")
        #expect(try server.settledCalls(summary: "The pause's window did not open") == 1)
        // The file the window would have checked in at is gone with it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: runtime).isEmpty)
    }

    @Test func a_window_that_stays_silent_is_waited_for_three_seconds_and_leaves_no_file() throws {
        // An emulator that starts and never opens its window, nor ends.
        try sandbox.program("xterm", "#!/bin/sh\necho $$ > \"\(sandbox.root)/emulator.pid\"\nexec sleep 60\n")
        let desktop = try desktopWithRuntime()  // its server kept until the test ends
        let (runtime, environment) = (desktop.runtime, desktop.environment)
        let started = Date()
        let result = try launchFromTheMenu(environment)
        let waited = Date().timeIntervalSince(started)
        if let pid = sandbox.read("emulator.pid").flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) { kill(pid, SIGKILL) }
        #expect(result.status == 0, "\(result.error)")
        #expect(waited >= 3 && waited < 10, "waited \(waited) s for the window")
        #expect(result.error.contains("the window for the pause did not open (xterm stayed silent for 3 s)"), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: runtime).isEmpty)
    }

    @Test func a_window_that_never_opens_with_deny_starts_nothing_and_says_so() throws {
        try sandbox.config("[programs.argv-dump]\nnon_interactive = \"deny\"\n")
        let server = try NotificationServer(folder: sandbox.root + "/server")
        let environment = sandbox.environment.merging(["DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress]) { $1 }
        let result = try launchFromTheMenu(environment)
        #expect(result.status == ExitStatus.denied, "\(result.error)")
        #expect(sandbox.read("emulator-started") == "started\n")
        #expect(sandbox.read("argv") == nil)
        #expect(try server.settledCalls(summary: "The pause's window did not open") == 1)
    }
}
