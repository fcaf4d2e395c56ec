import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGADesktop
@testable import MIGATestSupport

/// The gateway's decisions with a scripted terminal, a manual clock, a
/// recording notifier and a real store in a temporary XDG tree.
@Suite struct GatewayTests {
    let home = TemporaryDirectory()
    let time = ManualTime(wall: Date(timeIntervalSince1970: 1_800_000_000)) // 2027-01-15 08:00 UTC
    let notifier = RecordingNotifier()
    var messages: [String] { messageBox.lines }
    private let messageBox = MessageBox()
    /// The windows opened for a pause, and whether their gateway checks in.
    let windows = WindowBox()

    init() throws {
        try home.write("#!/bin/sh\nexit 0\n", to: "bin/fake")
        chmod(home.path + "/bin/fake", 0o755)
    }

    var environment: [String: String] {
        ["HOME": home.path, "LANG": "C.UTF-8", "XDG_CONFIG_HOME": home.path + "/config", "XDG_DATA_HOME": home.path + "/data",
         "PATH": home.path + "/bin", "NO_COLOR": "1", "DISPLAY": ":9"]
    }

    func gateway(_ script: [ScriptedTerminal.Step]?, environment extra: [String: String] = [:]) -> (Gateway, ScriptedTerminal?) {
        let terminal = script.map { ScriptedTerminal(time: time, script: $0) }
        let box = messageBox
        var context = GatewayContext(
            environment: environment.merging(extra) { $1 }, time: time, timeZone: .utc,
            generator: SeededGenerator(seed: 7), terminal: terminal, notifier: notifier,
            messages: { box.append($0) }, gatewayIdentity: nil, processID: 4242, gatewayPath: "/opt/miga/bin/miga")
        context.openWindow = { [windows] in windows.open($0, $1, $2) }
        return (Gateway(context: context), terminal)
    }

    func rows() throws -> [SessionRecord] {
        try SessionStore(path: home.path + "/data/miga/miga.sqlite").sessions()
    }

    @Test func exit_to_focus_records_the_exit_and_celebrates() throws {
        let (gate, terminal) = gateway([.wait(12), ScriptedTerminal.keys("e"), .wait(5)])
        #expect(gate.run(GateRequest(command: "fake")) == .finish(0))
        #expect(terminal?.leaveCount == 1)
        let rows = try rows()
        #expect(rows.count == 1)
        #expect(rows[0].outcome == .exit)
        #expect(rows[0].program == "fake")
        #expect(rows[0].pausedSeconds == 12)
        #expect(rows[0].quotes.count == 1)
        #expect(rows[0].endedAt != nil)
        #expect(notifier.notifications == [DesktopNotification(
            summary: "Your first conscious exit — the start of a streak",
            body: "You stepped away from Fake. This moment is yours.")])
        #expect(messages.contains("✓ You chose yourself. Fake can wait · day 1 of a new streak."))
        // The first-exit milestone is celebrated once; the next exit is an ordinary one.
        let (again, _) = gateway([ScriptedTerminal.keys("e"), .wait(5)])
        _ = again.run(GateRequest(command: "fake"))
        #expect(notifier.notifications.last?.summary == "You chose yourself — 2nd conscious exit today", "a streak is new once a day")
    }

    @Test func a_wall_clock_stepped_back_mid_pause_never_ends_it_before_it_began() throws {
        let clock = time
        let (gate, _) = gateway([.wait(10), .meanwhile({ clock.stepWall(-86_400) }), .wait(5), ScriptedTerminal.keys("e"), .wait(5)])
        _ = gate.run(GateRequest(command: "fake"))
        let row = try #require(try rows().first)
        let end = try #require(row.endedAt)
        #expect(end >= row.startedAt)
        #expect(abs(end.timeIntervalSince(row.startedAt) - 15) < 0.01, "start plus the time that passed")
    }

    @Test func a_pause_ending_while_the_store_is_busy_is_kept_in_the_inbox_and_written_later() throws {
        let path = home.path + "/data/miga/miga.sqlite"
        let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let (gate, _) = gateway([.wait(3), .meanwhile({
            // Another process holds the store's write lock past the gateway's wait.
            Thread.detachNewThread {
                let queue = try! SerialConnection(path: path, .readWrite)
                try! queue.withConnection { db in
                    try db.execute(sql: "BEGIN EXCLUSIVE")
                    locked.signal()
                    release.wait()
                    try db.execute(sql: "COMMIT")
                }
                done.signal()
            }
            locked.wait()
        }), ScriptedTerminal.keys("e"), .wait(5)])
        #expect(gate.run(GateRequest(command: "fake")) == .finish(0))
        release.signal()
        done.wait()
        let ending = try #require(try FileManager.default.contentsOfDirectory(atPath: home.path + "/data/miga/inbox").first)
        #expect(ending.hasSuffix(".ending"))
        // The next process that opens the store writes it into its row.
        let row = try #require(try rows().first)
        #expect(row.outcome == .exit)
        #expect(row.pausedSeconds == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path + "/data/miga/inbox").isEmpty)
        #expect(!messages.contains { $0.contains("could not be recorded") }, "\(messages)")
    }

    /// Another process writes for seconds (a sync, an import) as a pause
    /// begins: the gateway does not wait it out. The pause runs without its
    /// row, its ending goes to the inbox, and the next process that opens
    /// the store writes the whole session: nothing the person did is lost.
    @Test func a_pause_begun_while_another_process_writes_is_kept_in_the_inbox_and_merged_later() throws {
        let path = home.path + "/data/miga/miga.sqlite"
        _ = try SessionStore(path: path)
        let holder = try WriteLockHolder(storeAt: path, seconds: 5)
        try holder.waitUntilHeld()
        let (gate, _) = gateway([.wait(3), ScriptedTerminal.keys("e"), .wait(5)])
        #expect(gate.run(GateRequest(command: "fake")) == .finish(0))
        #expect(holder.isHolding, "the gateway waited for the other process's write")
        let inbox = try FileManager.default.contentsOfDirectory(atPath: home.path + "/data/miga/inbox")
        #expect(inbox.count == 1 && inbox.first?.hasSuffix(".ending") == true, "\(inbox)")
        holder.waitUntilDone()
        let row = try #require(try rows().first)
        #expect(row.program == "fake" && row.outcome == .exit && row.pausedSeconds == 3)
        #expect(!messages.contains { $0.contains("could not be recorded") }, "\(messages)")
    }

    /// The same busy store says nothing alarming, on the screen or after
    /// it: the gateway gave up waiting on purpose, and nothing is lost.
    @Test func a_store_too_busy_to_wait_for_is_no_error_on_the_pause_or_after_it() throws {
        let path = home.path + "/data/miga/miga.sqlite"
        _ = try SessionStore(path: path)
        let holder = try WriteLockHolder(storeAt: path, seconds: 5)
        try holder.waitUntilHeld()
        let (gate, terminal) = gateway([.wait(3), ScriptedTerminal.keys("e"), .wait(5)])
        #expect(gate.run(GateRequest(command: "fake")) == .finish(0))
        #expect(holder.isHolding, "the gateway waited for the other process's write")
        let screen = try #require(terminal).written
        #expect(screen.contains("Fake"), "the pause was shown")
        #expect(!screen.contains("could not") && !screen.contains("SQLite"))
        #expect(!messages.contains { $0.contains("could not") || $0.contains("SQLite") }, "\(messages)")
        holder.waitUntilDone()
        #expect(try rows().first?.outcome == .exit)
    }

    @Test func a_seven_day_streak_is_celebrated_once() throws {
        let store = try SessionStore(path: home.path + "/data/miga/miga.sqlite")
        try store.setMeta("milestones_celebrated", "1")
        try store.insertMissing((1...6).map { daysAgo in
            let day = time.now() - Double(daysAgo) * 86_400
            return SessionRecord(id: "earlier-\(daysAgo)", program: "fake", startedAt: day, endedAt: day, outcome: .exit)
        })
        for _ in 0..<2 {
            let (gate, _) = gateway([ScriptedTerminal.keys("e"), .wait(5)])
            _ = gate.run(GateRequest(command: "fake"))
        }
        #expect(notifier.notifications.map(\.summary) == ["7 days in a row — a week of choosing yourself",
                                                          "You chose yourself — 7-day streak"])
    }

    @Test func the_notification_counts_the_streak_from_earlier_days() throws {
        let store = try SessionStore(path: home.path + "/data/miga/miga.sqlite")
        try store.setMeta("milestones_celebrated", "1")
        for daysAgo in 1...3 {
            let day = time.now() - Double(daysAgo) * 86_400
            var generator = SeededGenerator(seed: 1)
            let id = "earlier-\(daysAgo)"
            _ = try store.openSession(id: id, program: "fake", startedAt: day, owner: .current(), pool: ["a"], using: &generator)
            try store.completeSession(sessionID: id, outcome: .exit, endedAt: day, PauseProgress(pausedSeconds: 5, deepenCount: 0, quotes: ["a"]))
        }
        let (gate, _) = gateway([ScriptedTerminal.keys("e"), .wait(5)])
        _ = gate.run(GateRequest(command: "fake"))
        #expect(notifier.notifications.first?.summary == "You chose yourself — 4-day streak")
    }

    @Test func proceed_launches_the_real_program_with_its_exact_arguments() throws {
        let arguments: [[UInt8]] = [Array("a b".utf8), Array("$HOME".utf8), [], [0xFF, 0x41]]
        let (gate, terminal) = gateway([.wait(3), ScriptedTerminal.keys("p")])
        let decision = gate.run(GateRequest(command: "fake", arguments: arguments, pause: 3))
        #expect(decision == .launch(Launch(path: home.path + "/bin/fake", arguments: [Array("fake".utf8)] + arguments,
                                           environment: ["MIGA_GATE_PID": "4242", "MIGA_GATE_HOPS": "1", "MIGA_GATE_PROGRAM": "fake"])))
        #expect(terminal?.leaveCount == 1)
        let rows = try rows()
        #expect(rows.map(\.outcome) == [.proceed])
        #expect(rows[0].pausedSeconds == 3)
        #expect(notifier.notifications.isEmpty)
    }

    @Test func deepen_is_recorded_with_every_quote_shown() throws {
        let (gate, _) = gateway([.wait(1), ScriptedTerminal.keys("d"), .wait(1), ScriptedTerminal.keys("d"),
                                 .wait(2), ScriptedTerminal.keys("p")])
        _ = gate.run(GateRequest(command: "fake", pause: 2))
        let row = try #require(try rows().first)
        #expect(row.deepenCount == 2)
        #expect(row.quotes.count == 3)
        #expect(Set(row.quotes).count == 3)
        #expect(row.pausedSeconds == 4)
    }

    @Test func a_missing_program_is_named_and_nothing_is_recorded() throws {
        let (gate, terminal) = gateway([ScriptedTerminal.keys("e")])
        #expect(gate.run(GateRequest(command: "firefox")) == .finish(127))
        #expect(messages == ["Please install firefox first."])
        #expect(terminal?.enterCount == 0)
        #expect(!FileManager.default.fileExists(atPath: home.path + "/data/miga/miga.sqlite"))
    }

    @Test func the_configured_name_is_used_when_asking_to_install() throws {
        try home.write("[programs.firefox]\nname = \"Firefox\"\n", to: "config/miga/config.toml")
        let (gate, _) = gateway(nil)
        #expect(gate.run(GateRequest(command: "firefox")) == .finish(127))
        #expect(messages == ["Please install Firefox first."])
    }

    @Test func without_a_terminal_the_program_passes_through_and_is_recorded_as_such() throws {
        let (gate, _) = gateway(nil)
        guard case .launch(let launch) = gate.run(GateRequest(command: "fake")) else {
            Issue.record("expected a launch")
            return
        }
        #expect(launch.path == home.path + "/bin/fake")
        #expect(try rows().map(\.outcome) == [.passthrough])
    }

    @Test func without_a_terminal_deny_refuses() throws {
        try home.write("[programs.fake]\nnon_interactive = \"deny\"\n", to: "config/miga/config.toml")
        let (gate, _) = gateway(nil)
        #expect(gate.run(GateRequest(command: "fake")) == .finish(69))
        #expect(messages.first?.contains("not starting it") == true)
    }

    @Test func without_a_terminal_the_terminal_policy_opens_a_window_for_the_pause() throws {
        try home.write("[programs.fake]\nnon_interactive = \"terminal\"\n", to: "config/miga/config.toml")
        try home.write("#!/bin/sh\n", to: "bin/xterm")
        try home.write("#!/bin/sh\n", to: "bin/gnome-terminal")
        chmod(home.path + "/bin/xterm", 0o755)
        chmod(home.path + "/bin/gnome-terminal", 0o755)
        let arguments: [[UInt8]] = [Array("a b".utf8), Array("$HOME".utf8)]
        let (gate, _) = gateway(nil)
        #expect(gate.run(GateRequest(command: "fake", arguments: arguments)) == .finish(0))
        let first = try #require(windows.opened.first)
        #expect(first.window == Launch(
            path: home.path + "/bin/gnome-terminal",
            arguments: ["gnome-terminal", "--title", "MIGA — a pause before Fake", "--geometry", "90x28",
                        "--", "/opt/miga/bin/miga", "gate", "--detach", "--ready-file", first.readyFile,
                        "fake", "--"].map { Array($0.utf8) } + arguments,
            detached: true))
        #expect(first.readyFile.hasPrefix(NSTemporaryDirectory()) && first.readyFile.contains("/miga-window-4242-"))
        let (preferred, _) = gateway(nil, environment: ["TERMINAL": "/usr/bin/xterm"])
        #expect(preferred.run(GateRequest(command: "fake", pause: 20)) == .finish(0))
        let last = try #require(windows.opened.last)
        #expect(last.window.arguments.map { String(decoding: $0, as: UTF8.self) }
            == ["xterm", "-xrm", "*titleEncoding: UTF8_STRING", "-T", "MIGA — a pause before Fake", "-geometry", "90x28", "-fa", "DejaVu Sans Mono", "-fs", "13",
                "-e", "/opt/miga/bin/miga", "gate", "--detach", "--pause", "20", "--ready-file", last.readyFile, "fake", "--"])
        let window = last.window
        #expect(window.environment.isEmpty, "xterm is given a font with the ring's dots")
        #expect(try rows().isEmpty) // the gateway in the window records the pause
    }

    @Test func a_window_whose_font_may_lack_the_rings_dots_draws_the_pause_in_ascii() throws {
        try home.write("[programs.fake]\nnon_interactive = \"terminal\"\nname = \"Fake\\u001b]0;x\\u0007\"\n",
                       to: "config/miga/config.toml")
        // Debian's alternative, leading to an emulator MIGA does not know.
        try home.write("#!/bin/sh\n", to: "bin/urxvt")
        chmod(home.path + "/bin/urxvt", 0o755)
        try FileManager.default.createSymbolicLink(atPath: home.path + "/bin/x-terminal-emulator", withDestinationPath: home.path + "/bin/urxvt")
        let (gate, _) = gateway(nil)
        #expect(gate.run(GateRequest(command: "fake")) == .finish(0))
        let window = try #require(windows.opened.first).window
        #expect(window.arguments.prefix(4).map { String(decoding: $0, as: UTF8.self) }
            == ["x-terminal-emulator", "-T", "MIGA — a pause before Fake]0;x", "-e"])
        #expect(window.environment == ["MIGA_GLYPHS": "ascii"])
    }

    @Test func without_any_terminal_emulator_the_program_opens_directly_and_says_so() throws {
        try home.write("[programs.fake]\nnon_interactive = \"terminal\"\n", to: "config/miga/config.toml")
        let (gate, _) = gateway(nil)
        guard case .launch(let launch) = gate.run(GateRequest(command: "fake")) else {
            Issue.record("expected the program to start")
            return
        }
        #expect(launch.path == home.path + "/bin/fake")
        #expect(messages.first?.contains("no terminal emulator was found") == true)
        #expect(notifier.notifications.first?.summary == "No window for the pause")
        #expect(try rows().map(\.outcome) == [.passthrough])
    }

    @Test func without_a_display_no_window_is_tried_and_the_policy_decides() throws {
        try home.write("[programs.fake]\nnon_interactive = \"terminal\"\n", to: "config/miga/config.toml")
        try home.write("#!/bin/sh\n", to: "bin/xterm")
        chmod(home.path + "/bin/xterm", 0o755)
        let (gate, _) = gateway(nil, environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        guard case .launch(let launch) = gate.run(GateRequest(command: "fake", detach: true, window: true)) else {
            Issue.record("expected the program to start")
            return
        }
        #expect(windows.opened.isEmpty)
        #expect(launch.path == home.path + "/bin/fake")
        #expect(messages.first?.contains("there is no display to open a window for the pause on") == true)
        #expect(try rows().map(\.outcome) == [.passthrough])
        try home.write("[programs.fake]\nnon_interactive = \"deny\"\n", to: "config/miga/config.toml")
        let (denied, _) = gateway(nil, environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        #expect(denied.run(GateRequest(command: "fake", detach: true, window: true)) == .finish(69))
        #expect(windows.opened.isEmpty)
    }

    @Test func a_window_that_never_checks_in_is_a_no_window_pass_through_or_a_refusal() throws {
        try home.write("[programs.fake]\nnon_interactive = \"terminal\"\n", to: "config/miga/config.toml")
        try home.write("#!/bin/sh\n", to: "bin/xterm")
        chmod(home.path + "/bin/xterm", 0o755)
        windows.checksIn = false
        let (gate, _) = gateway(nil)
        guard case .launch(let launch) = gate.run(GateRequest(command: "fake", detach: true, window: true)) else {
            Issue.record("expected the program to start")
            return
        }
        #expect(windows.opened.count == 1)
        #expect(launch.path == home.path + "/bin/fake" && launch.detached)
        #expect(messages.first?.contains("the window for the pause did not open (xterm stayed silent for 3 s); starting Fake directly") == true)
        #expect(notifier.notifications.first?.summary == "The pause's window did not open")
        #expect(try rows().map(\.reason) == [.noWindow])
        try home.write("[programs.fake]\nnon_interactive = \"deny\"\n", to: "config/miga/config.toml")
        let (denied, _) = gateway(nil)
        #expect(denied.run(GateRequest(command: "fake", detach: true, window: true)) == .finish(69))
        #expect(windows.opened.count == 2)
        #expect(try rows().count == 1)
    }

    @Test func on_wayland_a_window_that_does_not_open_is_followed_by_the_next_terminal() throws {
        try home.write("[programs.fake]\nnon_interactive = \"terminal\"\n", to: "config/miga/config.toml")
        for name in ["xterm", "foot", "kitty"] {
            try home.write("#!/bin/sh\n", to: "bin/" + name)
            chmod(home.path + "/bin/" + name, 0o755)
        }
        windows.failures = [.ended(1)]
        let (gate, _) = gateway(nil, environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "wayland-1"])
        #expect(gate.run(GateRequest(command: "fake", detach: true, window: true)) == .finish(0))
        // kitty first (it speaks Wayland, as foot does; xterm does not), then foot.
        #expect(windows.opened.map { String(decoding: $0.window.arguments[0], as: UTF8.self) } == ["kitty", "foot"])
        #expect(windows.opened.allSatisfy { $0.patience <= 3 })
        // Each window's file is gone: taken by the window that opened, withdrawn for the one that did not.
        #expect(windows.opened.allSatisfy { access($0.readyFile, F_OK) != 0 })
        #expect(try rows().isEmpty && notifier.notifications.isEmpty)
    }

    @Test func when_no_terminal_opens_a_window_each_is_named_and_no_file_is_left() throws {
        try home.write("[programs.fake]\nnon_interactive = \"terminal\"\n", to: "config/miga/config.toml")
        for name in ["xterm", "foot", "kitty"] {
            try home.write("#!/bin/sh\n", to: "bin/" + name)
            chmod(home.path + "/bin/" + name, 0o755)
        }
        windows.failures = [.ended(1), .silent(seconds: 3)]
        windows.checksIn = false
        let (gate, _) = gateway(nil, environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": home.path])
        guard case .launch = gate.run(GateRequest(command: "fake", detach: true, window: true)) else {
            Issue.record("expected the program to start")
            return
        }
        #expect(windows.opened.count == 3)
        #expect(messages.first?.contains("the window for the pause did not open (kitty ended with status 1, then foot stayed silent "
            + "for 3 s, then xterm stayed silent for 3 s); starting Fake directly") == true, "\(messages)")
        #expect(try rows().map(\.reason) == [.noWindow])
        let left = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix("miga-window-") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func the_windows_together_wait_no_longer_than_the_total_patience() throws {
        try home.write("[programs.fake]\nnon_interactive = \"terminal\"\n", to: "config/miga/config.toml")
        for name in ["xterm", "foot", "kitty", "alacritty"] {
            try home.write("#!/bin/sh\n", to: "bin/" + name)
            chmod(home.path + "/bin/" + name, 0o755)
        }
        // Each window waited for in full, and none came.
        let clock = time
        let (gate, _) = gateway(nil, environment: ["WAYLAND_DISPLAY": "wayland-1"])
        var context = gate.context
        context.openWindow = { [windows] window, checkIn, patience in
            clock.advance(patience)
            return windows.open(window, checkIn, patience)
        }
        windows.checksIn = false
        guard case .launch = Gateway(context: context).run(GateRequest(command: "fake", detach: true, window: true)) else {
            Issue.record("expected the program to start")
            return
        }
        #expect(windows.opened.count == 2)
        #expect(windows.opened.map(\.patience).reduce(0, +) <= 6)
    }

    @Test func detach_starts_the_program_in_its_own_session_on_proceed() throws {
        let (gate, _) = gateway([.wait(2), ScriptedTerminal.keys("p")])
        guard case .launch(let launch) = gate.run(GateRequest(command: "fake", pause: 2, detach: true)) else {
            Issue.record("expected a launch")
            return
        }
        #expect(launch.detached)
        // Its first moments are watched, for this session: a detached program's errors reach no one.
        #expect(launch.watch == StartWatch(watcher: "/opt/miga/bin/miga", sessionID: try #require(try rows().first?.id),
                                           programName: "Fake", notify: true))
    }

    @Test func a_program_in_place_of_the_gateway_is_not_watched_and_a_quiet_config_watches_without_notifying() throws {
        let (gate, _) = gateway([.wait(2), ScriptedTerminal.keys("p")])
        guard case .launch(let inPlace) = gate.run(GateRequest(command: "fake", pause: 2)) else {
            Issue.record("expected a launch")
            return
        }
        #expect(!inPlace.detached && inPlace.watch == nil)
        try home.write("notifications = false\n", to: "config/miga/config.toml")
        let (quiet, _) = gateway([.wait(2), ScriptedTerminal.keys("p")])
        guard case .launch(let detached) = quiet.run(GateRequest(command: "fake", pause: 2, detach: true)) else {
            Issue.record("expected a launch")
            return
        }
        #expect(detached.watch?.notify == false)
    }

    @Test func the_pause_length_comes_from_flag_then_program_then_default() throws {
        try home.write("pause = 40\n[programs.fake]\npause = 20\n", to: "config/miga/config.toml")
        // 19 s is not enough for the program's 20 s; the second p at 20 s is.
        let (gate, _) = gateway([.wait(19), ScriptedTerminal.keys("p"), .wait(1), ScriptedTerminal.keys("p")])
        _ = gate.run(GateRequest(command: "fake"))
        #expect(try rows().first?.pausedSeconds == 20)
        let (flagged, _) = gateway([.wait(5), ScriptedTerminal.keys("p")])
        _ = flagged.run(GateRequest(command: "fake", pause: 5))
        #expect(try rows().last?.outcome == .proceed)
    }

    @Test func a_broken_config_still_pauses_with_defaults_and_says_so() throws {
        try home.write("pause = \n", to: "config/miga/config.toml")
        let (gate, terminal) = gateway([.wait(1), ScriptedTerminal.keys("e"), .wait(5)])
        #expect(gate.run(GateRequest(command: "fake")) == .finish(0))
        // On the screen the cause comes first (a narrow window keeps it), on standard error the place.
        #expect(terminal?.written.contains("(\(home.path)/config/miga/config.toml:1:") == true)
        #expect(terminal?.written.contains("⚠ \(home.path)") == false)
        #expect(messages.contains { $0.hasPrefix("miga: \(home.path)/config/miga/config.toml:1:") })
        #expect(try String(contentsOfFile: home.path + "/config/miga/config.toml", encoding: .utf8) == "pause = \n")
    }

    @Test func notifications_can_be_switched_off() throws {
        try home.write("notifications = false\n", to: "config/miga/config.toml")
        let (gate, _) = gateway([ScriptedTerminal.keys("e"), .wait(5)])
        #expect(gate.run(GateRequest(command: "fake")) == .finish(0))
        #expect(notifier.notifications.isEmpty)
    }

    @Test func a_signal_leaves_the_terminal_and_records_an_abandoned_pause() throws {
        let (gate, terminal) = gateway([.wait(2), .events([.signal(SIGTERM)])])
        #expect(gate.run(GateRequest(command: "fake")) == .finish(143))
        #expect(terminal?.leaveCount == 1)
        let row = try #require(try rows().first)
        #expect(row.outcome == .abandoned)
        #expect(row.pausedSeconds == 2)
    }

    @Test func a_closed_window_is_recorded_too() throws {
        let (gate, _) = gateway([.wait(1), .events([.hangup])])
        #expect(gate.run(GateRequest(command: "fake")) == .finish(129))
        #expect(try rows().first?.outcome == .abandoned)
    }

    @Test func a_gateway_reached_from_another_in_the_same_launch_does_not_pause_again() throws {
        let (gate, terminal) = gateway([ScriptedTerminal.keys("e")], environment: ["MIGA_GATE_PID": "4242", "MIGA_GATE_HOPS": "1"])
        guard case .launch(let launch) = gate.run(GateRequest(command: "fake")) else {
            Issue.record("expected the program to start at once")
            return
        }
        #expect(launch.environment["MIGA_GATE_HOPS"] == "2")
        #expect(terminal?.enterCount == 0)
        #expect(try rows().isEmpty)
    }

    @Test func a_later_launch_by_the_program_itself_pauses_as_usual() throws {
        // The program that was proceeded to starts another protected program: a new process.
        let (gate, terminal) = gateway([ScriptedTerminal.keys("e"), .wait(5)], environment: ["MIGA_GATE_PID": "1", "MIGA_GATE_HOPS": "3"])
        #expect(gate.run(GateRequest(command: "fake")) == .finish(0))
        #expect(terminal?.enterCount == 1)
    }

    @Test func gateways_leading_to_each_other_are_stopped() throws {
        let (gate, _) = gateway([ScriptedTerminal.keys("e")], environment: ["MIGA_GATE_PID": "4242", "MIGA_GATE_HOPS": "4"])
        #expect(gate.run(GateRequest(command: "fake")) == .finish(126))
        #expect(messages.first?.contains("keeps leading from one gateway to another") == true)
    }

    @Test func an_unusable_store_does_not_stop_the_pause() throws {
        // A folder where the file should be: not damage to set aside, just unusable.
        try FileManager.default.createDirectory(atPath: home.path + "/data/miga/miga.sqlite", withIntermediateDirectories: true)
        let (gate, terminal) = gateway([.wait(1), ScriptedTerminal.keys("p"), .wait(3), ScriptedTerminal.keys("p")])
        guard case .launch = gate.run(GateRequest(command: "fake", pause: 3)) else {
            Issue.record("the program should still start")
            return
        }
        #expect(terminal?.written.contains("⚠ the history at") == true)
        #expect(messages.contains { $0.contains("cannot be opened") && $0.contains("not a regular file") })
    }
}

/// The `flatpak` shim: only `flatpak run` of a protected app is a launch to pause.
@Suite struct FlatpakShimTests {
    let base: GatewayTests

    init() throws {
        base = try GatewayTests()
        try base.home.write("#!/bin/sh\nexit 0\n", to: "bin/flatpak")
        chmod(base.home.path + "/bin/flatpak", 0o755)
        try base.home.write("[programs.discord]\nflatpak = \"com.discordapp.Discord\"\n", to: "config/miga/config.toml")
    }

    @Test func anything_but_running_a_protected_app_is_flatpaks_own_business_and_unrecorded() throws {
        for arguments in [["update", "-y"], ["run", "org.gnome.Calculator"], ["list"], []] {
            let (gate, terminal) = base.gateway([ScriptedTerminal.keys("e")])
            let decision = gate.run(GateRequest(command: "flatpak", arguments: arguments.map { Array($0.utf8) }))
            #expect(decision == .launch(Launch(path: base.home.path + "/bin/flatpak", arguments: (["flatpak"] + arguments).map { Array($0.utf8) })))
            #expect(terminal?.leaveCount == 0, "no pause for \(arguments)")
        }
        #expect(try base.rows().isEmpty)
    }

    @Test func running_a_protected_app_pauses_as_that_program() throws {
        let (gate, _) = base.gateway([ScriptedTerminal.keys("e"), .wait(5)])
        let arguments = ["run", "--branch=stable", "com.discordapp.Discord", "--start-minimized"]
        #expect(gate.run(GateRequest(command: "flatpak", arguments: arguments.map { Array($0.utf8) })) == .finish(0))
        #expect(try base.rows().map(\.program) == ["discord"])
        #expect(try base.rows().map(\.outcome) == [.exit])
    }

    @Test func the_exported_command_pauses_as_that_program() throws {
        try base.home.write("#!/bin/sh\nexit 0\n", to: "bin/com.discordapp.Discord")
        chmod(base.home.path + "/bin/com.discordapp.Discord", 0o755)
        let (gate, _) = base.gateway([ScriptedTerminal.keys("e"), .wait(5)])
        #expect(gate.run(GateRequest(command: "com.discordapp.Discord")) == .finish(0))
        #expect(try base.rows().map(\.program) == ["discord"])
    }
}

/// The windows a gateway opened for a pause, and whether their gateway checks in.
final class WindowBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(window: Launch, readyFile: String, patience: Double)] = []
    private var checking = true
    private var failing: [WindowCheckIn.Outcome] = []
    var opened: [(window: Launch, readyFile: String, patience: Double)] { lock.withLock { stored } }
    /// Whether a window's gateway checks in, once the failures are used up.
    var checksIn: Bool {
        get { lock.withLock { checking } }
        set { lock.withLock { checking = newValue } }
    }
    /// How the next windows fail, one each, before `checksIn` decides.
    var failures: [WindowCheckIn.Outcome] {
        get { lock.withLock { failing } }
        set { lock.withLock { failing = newValue } }
    }
    func open(_ window: Launch, _ checkIn: WindowCheckIn, _ patience: Double) -> WindowCheckIn.Outcome {
        lock.withLock {
            stored.append((window, checkIn.path, patience))
            if !failing.isEmpty { return failing.removeFirst() }
            guard checking else { return .silent(seconds: Int(patience)) }
            // As the gateway in a real window does.
            return WindowCheckIn.checkIn(checkIn.path) ? .opened : .silent(seconds: 0)
        }
    }
}
