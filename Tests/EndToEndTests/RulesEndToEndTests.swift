import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore

/// The per-program rules through the built binary in tmux: the allowance and
/// its reminder on a real notification server, the countdown held by focus
/// reports, and the pause before switching protection off.
@Suite(.serialized, .endToEnd) struct RulesEndToEndTests {
    let sandbox = Sandbox()

    func waitForPause(_ tmux: Tmux) throws -> String {
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
    }

    /// The sandbox's environment, with the notification server's display and bus.
    func environment(with server: NotificationServer) -> [String: String] {
        sandbox.environment.merging(["DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress]) { $1 }
    }

    /// Whether a reminder for a program in this sandbox is still waiting.
    func reminderWaiting() throws -> Bool {
        try !run("/usr/bin/pgrep", ["-f", "miga remind --due .* --exe \(sandbox.root)/"]).output.isEmpty
    }

    func proceedWhenReady(_ tmux: Tmux) throws {
        try tmux.waitForScreen("the end of the countdown") { $0.contains("the choice is yours") }
        try tmux.send("p")
    }

    @Test func a_second_launch_inside_the_allowance_opens_at_once() throws {
        try sandbox.config("[programs.argv-dump]\nallow_minutes = 10\n")
        let first = try Tmux(command: try sandbox.gateScript(["--pause", "1", "argv-dump", "--", "first"]),
                             environment: sandbox.environment)
        let screen = try waitForPause(first)
        #expect(screen.contains("first time today"))
        try proceedWhenReady(first)
        #expect(try sandbox.status() == 7)
        #expect(sandbox.read("argv") == "first\u{0}")

        let second = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump", "--", "second"], named: "second.sh"),
                              environment: sandbox.environment)
        // No pause to answer: the program runs and the gateway is done.
        #expect(try sandbox.status(of: "second.sh") == 7)
        #expect(sandbox.read("argv") == "second\u{0}")
        #expect(try !second.screen().contains("Exit to Focus"))
        let rows = try sandbox.sessions()
        #expect(rows.map(\.outcome) == [.proceed, .passthrough])
        #expect(rows.last?.reason == .allowed)
        let history = try run(migaBinary, ["history", "--all"], environment: sandbox.environment).output
        #expect(history.contains("inside the allowance"))
    }

    /// The seconds a pause's countdown shows (`0:57` is 57), if one is on screen.
    func countdown(_ screen: String) -> Int? {
        guard let match = screen.firstMatch(of: /\b(\d+):(\d\d)\b/) else { return nil }
        return Int(match.1)! * 60 + Int(match.2)!
    }

    @Test func an_imported_proceed_opens_no_allowance_and_a_pause_on_screen_does_not_give_way() throws {
        try sandbox.config("[programs.argv-dump]\nallow_minutes = 60\n")
        let onScreen = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump", "--", "waiting"]),
                                environment: sandbox.environment)
        _ = try waitForPause(onScreen)
        // An export naming this very machine, with a Proceed of the program a moment ago.
        let device = try SessionStore(path: sandbox.storePath).deviceID()
        let proceed = SessionRecord(id: "crafted", program: "argv-dump", startedAt: Date().addingTimeInterval(-30),
                                    endedAt: Date(), outcome: .proceed, pausedSeconds: 30)
        try Exchange.encode([proceed], as: .json, localDevice: device).write(toFile: sandbox.root + "/crafted.json", atomically: true, encoding: .utf8)
        let imported = try run(migaBinary, ["import", sandbox.root + "/crafted.json"], environment: sandbox.environment)
        #expect(imported.status == 0, "\(imported.error)")
        // The pause polls once a second for an allowance to give way to: five of its seconds go by, and it stays.
        let then = try #require(countdown(try onScreen.screen()))
        try onScreen.waitForScreen("five more seconds of the pause") { screen in countdown(screen).map { $0 <= then - 5 } ?? false }
        #expect(try onScreen.screen().contains("Exit to Focus"))
        #expect(sandbox.read("run.sh.status") == nil, "the program did not start")
        // A new launch pauses too: the imported Proceed began no allowance.
        let next = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump", "--", "next"], named: "next.sh"),
                            environment: sandbox.environment)
        _ = try waitForPause(next)
        #expect(sandbox.read("argv") == nil)
        try onScreen.send("e")
        try next.send("e")
        #expect(try sandbox.status() == 0)
        #expect(try sandbox.status(of: "next.sh") == 0)
    }

    @Test func an_export_naming_no_machine_neither_opens_an_allowance_nor_is_today_on_the_pause() throws {
        try sandbox.config("[programs.argv-dump]\nallow_minutes = 60\n")
        // Anyone can write an export: two Proceeds a minute ago, with no device at all.
        let ended = Exchange.iso(Date().addingTimeInterval(-60))
        let started = Exchange.iso(Date().addingTimeInterval(-90))
        let csv = "id,program,started_at,ended_at,outcome,paused_seconds,deepen_count,quotes,device\r\n"
            + "x1,argv-dump,\(started),\(ended),proceed,30,0,,\r\nx2,argv-dump,\(started),\(ended),proceed,30,0,,\r\n"
        try csv.write(toFile: sandbox.root + "/nameless.csv", atomically: true, encoding: .utf8)
        let imported = try run(migaBinary, ["import", sandbox.root + "/nameless.csv"], environment: sandbox.environment)
        #expect(imported.status == 0, "\(imported.error)")
        let pause = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump", "--", "launched"]),
                             environment: sandbox.environment)
        let screen = try waitForPause(pause)
        #expect(screen.contains("first time today"), "\(screen)")
        #expect(!screen.contains("the last was"), "\(screen)")
        #expect(sandbox.read("argv") == nil, "no allowance opened: the program waits for its pause")
        try pause.send("e")
        #expect(try sandbox.status() == 0)
    }

    @Test func an_exit_synced_from_another_device_dated_ahead_leaves_this_machines_ladder_as_it_is() throws {
        try sandbox.config("[programs.argv-dump]\nescalate = true\n")
        // Two pauses on this machine in the last half hour, both proceeded.
        let store = try SessionStore(path: sandbox.storePath)
        for minutes in [20.0, 10.0] {
            let start = Date().addingTimeInterval(-minutes * 60)
            try store.insertMissing([SessionRecord(id: "here-\(minutes)", program: "argv-dump", startedAt: start,
                                                   endedAt: start.addingTimeInterval(30), outcome: .proceed, pausedSeconds: 30)])
        }
        // Another device's sync file: an Exit to Focus dated two hours ahead of this clock.
        let phone = "0b5e4c1a-7d2f-4e8a-9c3b-5a6d7e8f9a0b"
        let exit = SessionRecord(id: "phone-exit", program: "argv-dump", startedAt: Date().addingTimeInterval(7_200),
                                 endedAt: Date().addingTimeInterval(7_230), outcome: .exit, pausedSeconds: 30, device: phone)
        let folder = sandbox.root + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try (Exchange.line(exit, localDevice: phone) + "\n").write(toFile: folder + "/miga-\(phone).jsonl", atomically: true, encoding: .utf8)
        let synced = try run(migaBinary, ["sync", folder], environment: sandbox.environment)
        #expect(synced.status == 0, "\(synced.error)")
        #expect(try sandbox.sessions().contains { $0.id == "phone-exit" }, "the other device's exit is kept")
        // The third try within the hour still climbs the ladder.
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "5", "argv-dump"]), environment: sandbox.environment)
        let screen = try tmux.waitForScreen("the longer pause") { $0.contains("A longer pause") }
        #expect(screen.contains("3rd try within the hour"), "\(screen)")
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
    }

    @Test func the_end_of_the_allowance_reaches_the_notification_server() throws {
        let server = try NotificationServer(folder: sandbox.root + "/server")
        // A program that stays open past its three seconds.
        try sandbox.program("stay", "#!/bin/sh\nsleep 120\n")
        try sandbox.config("[programs.stay]\nallow_minutes = 0.05\n")
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "1", "stay"]), environment: environment(with: server))
        _ = try waitForPause(tmux)
        try proceedWhenReady(tmux)
        let log = try eventually("the reminder's Notify call", timeout: 60) { server.notifyCalls > 0 ? server.monitorLog : nil }
        #expect(log.contains("string \"Your 3 seconds with Stay are up — still what you want?\""))
        #expect(log.contains("string \"The next time you open Stay, the pause comes first.\""))
        // The reminder process is gone once it has spoken.
        try eventually("the reminder to end") { try reminderWaiting() ? nil : true }
    }

    @Test func a_closed_program_gets_no_reminder() throws {
        let server = try NotificationServer(folder: sandbox.root + "/server")
        try sandbox.config("[programs.argv-dump]\nallow_minutes = 0.05\n")
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "1", "argv-dump"]), environment: environment(with: server))
        _ = try waitForPause(tmux)
        try proceedWhenReady(tmux)
        #expect(try sandbox.status() == 7)
        // argv-dump ended at once: the reminder process sees that and ends without a word.
        try eventually("the reminder to end", timeout: 60) { try reminderWaiting() ? nil : true }
        #expect(server.notifyCalls == 0)
    }

    @Test func focus_reports_hold_and_resume_the_countdown() throws {
        try sandbox.config("[programs.argv-dump]\nhold_when_unfocused = true\n")
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "6", "argv-dump"]), environment: sandbox.environment)
        _ = try tmux.waitForScreen("the countdown") { $0.contains("0:05") || $0.contains("0:04") }
        try tmux.tmux(["send-keys", "-l", "\u{1B}[O"]) // the window loses focus
        let held = try tmux.waitForScreen("the held countdown") { $0.contains("Held while you look away") }
        let clock = try #require(held.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.count == 4 && $0.hasPrefix("0:0") }
        }.first)
        // Held: across two and a half seconds the clock does not move.
        let until = Date() + 2.5
        while Date() < until {
            let screen = try tmux.screen()
            #expect(screen.contains(String(clock)), "the countdown moved while held:\n\(screen)")
            usleep(200_000)
        }
        try tmux.tmux(["send-keys", "-l", "\u{1B}[I"]) // focus is back
        try tmux.waitForScreen("the countdown to go on") { !$0.contains("Held") && !$0.contains(String(clock)) }
        try proceedWhenReady(tmux)
        #expect(try sandbox.status() == 7)
        let row = try #require(try sandbox.sessions().first)
        #expect(row.pausedSeconds >= 8.5) // six counted and two and a half held
    }

    @Test func unprotect_pauses_first_and_exit_keeps_the_protection() throws {
        try sandbox.config("pause = 1\n[programs.argv-dump]\nname = \"Dumper\"\n")
        let tmux = try Tmux(command: try sandbox.migaScript(["unprotect", "argv-dump"]), environment: sandbox.environment)
        let screen = try waitForPause(tmux)
        #expect(screen.contains("a pause before unprotecting Dumper"))
        #expect(screen.contains("[P] Unprotect Dumper"))
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
        #expect(try tmux.screen().contains("Nothing changed: Dumper stays protected."))
        #expect(sandbox.read("config/miga/config.toml")?.contains("[programs.argv-dump]") == true)

        let again = try Tmux(command: try sandbox.migaScript(["unprotect", "argv-dump"], named: "again.sh"),
                             environment: sandbox.environment)
        _ = try waitForPause(again)
        try proceedWhenReady(again)
        #expect(try sandbox.status(of: "again.sh") == 0)
        #expect(sandbox.read("config/miga/config.toml")?.contains("argv-dump") == false)
        let history = try run(migaBinary, ["history"], environment: sandbox.environment).output
        #expect(history.contains("argv-dump  kept protected"))
        #expect(history.contains("argv-dump  unprotected"))
    }

    @Test func from_the_hub_a_program_outside_its_focus_hours_opens_on_a_clean_screen() throws {
        // Protected one minute a week, in a week that is never now: the program opens at once.
        let now = Date()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let otherDay = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][calendar.component(.weekday, from: now) % 7]
        try sandbox.config("[programs.argv-dump]\nname = \"Dumper\"\nhours = \"\(otherDay) 03:00-03:01\"\n")
        let tmux = try Tmux(command: try sandbox.migaScript(["hub"]), environment: sandbox.environment)
        try tmux.waitForScreen("the hub") { $0.contains("Dumper") && $0.contains("s stats") }
        try tmux.send("Enter")
        #expect(try sandbox.status() == 7)
        #expect(sandbox.read("argv") == "\u{0}") // started, with no arguments
        // The hub's screen went before the program started: normal screen, cursor shown, no tiles left.
        #expect(try tmux.value("#{alternate_on}") == "0")
        #expect(try tmux.value("#{cursor_flag}") == "1")
        #expect(try !tmux.screen().contains("Dumper"))
        #expect(try sandbox.sessions().map(\.reason) == [.outsideHours])
    }
}
