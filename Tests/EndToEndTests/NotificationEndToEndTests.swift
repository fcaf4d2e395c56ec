import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit
@testable import MIGATerminal

/// Exit to Focus reaching a real notification server, and the gateway ending
/// promptly when the server is frozen or missing.
@Suite(.serialized, .endToEnd) struct NotificationEndToEndTests {
    let sandbox = Sandbox()

    func gateway(_ server: NotificationServer?, extra: [String: String] = [:], named name: String = "run.sh") throws -> Tmux {
        var environment = sandbox.environment
        if let server {
            environment["DISPLAY"] = server.display
            environment["DBUS_SESSION_BUS_ADDRESS"] = server.busAddress
        }
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"], named: name),
                            environment: environment.merging(extra) { $1 })
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        return tmux
    }

    /// Seconds from pressing `e` to the gateway's exit.
    func exitTime(_ tmux: Tmux, named name: String = "run.sh") throws -> Double {
        let pressed = Date()
        try tmux.send("e")
        _ = try sandbox.status(of: name, timeout: 120)
        return Date().timeIntervalSince(pressed)
    }

    @Test func exit_to_focus_sends_a_notification_naming_the_program_and_the_streak() throws {
        let server = try NotificationServer(folder: sandbox.root + "/server")
        let tmux = try gateway(server)
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
        let log = try eventually("the Notify call") { server.notifyCalls > 0 ? server.monitorLog : nil }
        #expect(log.contains("string \"MIGA\""))
        #expect(log.contains("string \"Your first conscious exit — the start of a streak\""))
        #expect(log.contains("string \"You stepped away from Argv-dump. This moment is yours.\""))
        let shown = try run("/usr/bin/dunstctl", ["count", "history"], environment: server.environment).output
            + run("/usr/bin/dunstctl", ["count", "displayed"], environment: server.environment).output
        #expect(shown.split(whereSeparator: \.isNewline).contains { $0 != "0" }, "dunst did not show it: \(shown)")
    }

    @Test func notifications_false_sends_nothing() throws {
        let server = try NotificationServer(folder: sandbox.root + "/server")
        try sandbox.config("notifications = false\n")
        let tmux = try gateway(server)
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
        #expect(try sandbox.sessions().map(\.outcome) == [.exit])
        #expect(server.notifyCalls == 0)
    }

    @Test func a_frozen_server_does_not_hold_the_gateway() throws {
        let server = try NotificationServer(folder: sandbox.root + "/server")
        server.freeze()
        let tmux = try gateway(server)
        let seconds = try exitTime(tmux)
        // A blocking send would take 25 s against a frozen server; the celebration is under one.
        #expect(seconds < 5, "the gateway took \(seconds) s to exit")
        #expect(try sandbox.sessions().map(\.outcome) == [.exit])
        print("exit with a frozen notification server: \(String(format: "%.2f", seconds)) s")
    }

    @Test func no_bus_at_all_does_not_hold_the_gateway() throws {
        let tmux = try gateway(nil, extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(sandbox.root)/no-bus-here"])
        let seconds = try exitTime(tmux)
        #expect(seconds < 5, "the gateway took \(seconds) s to exit")
        #expect(try sandbox.status() == 0)
    }

    @Test func a_socket_that_never_answers_does_not_hold_the_gateway() throws {
        // Accepts connections and never says a word: libnotify would wait forever.
        let path = sandbox.root + "/silent-bus"
        let listener = try SilentSocket(path: path)
        defer { withExtendedLifetime(listener) {} }
        try eventually("the silent socket") { FileManager.default.fileExists(atPath: path) ? true : nil }
        let tmux = try gateway(nil, extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(path)"])
        let seconds = try exitTime(tmux)
        #expect(seconds < 5, "the gateway took \(seconds) s to exit")
    }

    @Test func doctor_finds_the_server_and_does_not_hang_on_a_frozen_one() throws {
        let server = try NotificationServer(folder: sandbox.root + "/server")
        let environment = sandbox.environment.merging(["DBUS_SESSION_BUS_ADDRESS": server.busAddress, "DISPLAY": server.display]) { $1 }
        let listening = try run(migaBinary, ["doctor"], environment: environment)
        #expect(listening.output.contains("✓ notifications: dunst is listening"), "\(listening.output)")
        server.freeze()
        let started = Date()
        let frozen = try run(migaBinary, ["doctor"], environment: environment)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(frozen.status == 1)
        #expect(frozen.output.contains("✗ notifications: no notification server answered within a second"))
    }
}
