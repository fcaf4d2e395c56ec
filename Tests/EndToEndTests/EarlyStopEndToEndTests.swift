import Foundation
import Testing
import MIGACore
import MIGATestSupport
@testable import MIGADesktop
@testable import MIGAKit
@testable import MIGATerminal

/// A program started detached after Proceed that stops at once (Chromium as
/// root: status 1, the reason on standard error only) is said in a
/// notification and kept with its session; one that runs on is left alone,
/// and its error output never blocks it.
@Suite(.serialized, .endToEnd) struct EarlyStopEndToEndTests {
    let sandbox = Sandbox()
    let server: NotificationServer
    let reason = "stopper: cannot open display :42 — <b>no</b> X server"

    init() throws {
        server = try NotificationServer(folder: sandbox.root + "/server")
        // A noisy first line, then the reason, then status 1 at once.
        try sandbox.program("stopper", """
            #!/bin/sh
            echo '/usr/bin/stopper: 9: [: unexpected operator' >&2
            printf '\\033[31m%s\\033[0m\\n' '\(reason)' >&2
            exit 1
            """)
        // A warning at once, then, once the watcher has let go of it, far more
        // error output than a pipe holds (64 KiB), then a mark that it got through.
        try sandbox.program("chatty", """
            #!/bin/sh
            echo $$ > "\(sandbox.root)/chatty.pid"
            echo 'chatty: a warning, and on it goes' >&2
            watcher=$PPID
            while [ "$(cut -d ' ' -f 4 /proc/$$/stat)" = "$watcher" ]; do sleep 0.05; done
            if head -c 300000 /dev/zero | tr '\\000' x >&2 && echo >&2; then touch "\(sandbox.root)/got-through"; fi
            exec sleep 600
            """)
        for program in ["stopper", "chatty"] {
            let result = try run(migaBinary, ["protect", program, "--pause", "1"], environment: environment)
            #expect(result.status == 0, "\(result.error)")
        }
    }

    var environment: [String: String] {
        sandbox.environment.merging(["DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress]) { $1 }
    }

    /// `miga gate --detach PROGRAM` in a terminal, proceeded once the countdown is over.
    func proceedDetached(_ program: String) throws {
        let tmux = try Tmux(command: try sandbox.gateScript(["--detach", program]), environment: environment)
        try tmux.waitForScreen("the end of the countdown") { $0.contains("the choice is yours") }
        try tmux.send("p")
        #expect(try sandbox.status() == 0)
    }

    /// The `miga watch-start` processes of this sandbox (the watcher and the drain).
    func watchers() -> [Int32] {
        processes(named: "miga", environment: sandbox.root).filter { pid in
            let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self) }
            return line?.contains("\0\(InternalCommand.watchStart([]).word)\0") == true
        }
    }

    func expectTheStopSaidAndKept() throws {
        let log = try eventually("the Notify call") { server.notifyCalls > 0 ? server.monitorLog : nil }
        #expect(log.contains("string \"Stopper stopped at once\""), "\(log)")
        // The reason, not the noise before it, without the colour; the notifier escapes the markup.
        #expect(log.contains("string \"stopper: cannot open display :42 — &lt;b&gt;no&lt;/b&gt; X server\""), "\(log)")
        let row = try eventually("the stop kept with the session") { try sandbox.sessions().first { $0.stoppedAtOnce != nil } }
        #expect(row.outcome == .proceed && row.program == "stopper")
        #expect(row.stoppedAtOnce == reason)
        let history = try run(migaBinary, ["history"], environment: environment)
        #expect(history.output.contains("it stopped at once: “\(reason)”"), "\(history.output)")
        let json = try run(migaBinary, ["history", "--json"], environment: environment)
        #expect(json.output.contains("\"stopped_at_once\" : \"\(reason)\""), "\(json.output)")
    }

    @Test func a_detached_program_that_stops_at_once_is_said_and_kept_with_its_session() throws {
        try proceedDetached("stopper")
        try expectTheStopSaidAndKept()
        try eventually("the watcher to end") { watchers().isEmpty ? true : nil }
    }

    @Test func from_the_menu_its_window_closes_and_the_stop_is_still_said() throws {
        let tmux = try Tmux(command: "sleep 600", environment: environment)
        // A terminal emulator whose window is a new window of the test's tmux, with the session's bus.
        let passed = ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "PATH", "LANG", "TZ", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS"]
            .map { "\($0)=\"$\($0)\"" }.joined(separator: " ")
        try sandbox.program("gnome-terminal", """
            #!/bin/sh
            # Past the window's options (title, size) to the command.
            while [ $# -gt 0 ]; do
                case "$1" in --|-e|-x) shift; break ;; /*) break ;; esac
                shift
            done
            exec /usr/bin/tmux -L "\(tmux.socket)" new-window -d /usr/bin/env \(passed) "$@"
            """)
        let result = try run(migaBinary, ["gate", "--window", "--detach", "stopper", "--"],
                             environment: environment.merging(["TERMINAL": "gnome-terminal"]) { $1 })
        #expect(result.status == 0, "\(result.error)")
        try tmux.proceedInWindow(1, name: "Stopper")
        // The gateway in the window ended (tmux keeps its pane to look at; an emulator would close).
        try eventually("the gateway in the window to end") { try tmux.value("#{pane_dead}", target: ":1") == "1" ? true : nil }
        try expectTheStopSaidAndKept()
    }

    @Test func a_program_that_runs_on_is_not_reported_and_its_error_output_never_blocks_it() throws {
        try proceedDetached("chatty")
        let pid = try eventually("the program") { sandbox.read("chatty.pid").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } }
        defer { kill(pid, SIGKILL) }
        try eventually("the program's error output to get through") { sandbox.read("got-through") }
        #expect(!isGone(pid))
        #expect(try server.settledCalls(summary: "Chatty stopped at once") == 0)
        #expect(try sandbox.sessions().map(\.stoppedAtOnce) == [nil])
        // Once the program is gone, nothing of MIGA's stays behind for it.
        kill(pid, SIGKILL)
        try eventually("the drain to end with the program") { watchers().isEmpty ? true : nil }
    }

    @Test func a_helper_left_behind_by_a_program_that_stopped_keeps_writing_unblocked() throws {
        // As Chromium leaves its crash handler: a child that outlives it, holding its error output.
        try sandbox.program("leaver", """
            #!/bin/sh
            (
                while [ ! -e "\(sandbox.root)/go" ]; do sleep 0.05; done
                if head -c 300000 /dev/zero | tr '\\000' x >&2; then touch "\(sandbox.root)/helper-got-through"; fi
                exec sleep 600
            ) &
            echo $! > "\(sandbox.root)/helper.pid"
            echo 'leaver: no sandbox for root' >&2
            exit 1
            """)
        let result = try run(migaBinary, ["protect", "leaver", "--pause", "1"], environment: environment)
        #expect(result.status == 0, "\(result.error)")
        try proceedDetached("leaver")
        let log = try eventually("the Notify call") { server.notifyCalls > 0 ? server.monitorLog : nil }
        #expect(log.contains("string \"leaver: no sandbox for root\""), "\(log)")
        let helper = try eventually("the helper") { sandbox.read("helper.pid").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } }
        defer { kill(helper, SIGKILL) }
        _ = FileManager.default.createFile(atPath: sandbox.root + "/go", contents: nil)
        try eventually("the helper's error output to get through") { sandbox.read("helper-got-through") }
        kill(helper, SIGKILL)
        try eventually("the drain to end with the helper") { watchers().isEmpty ? true : nil }
    }

    @Test func a_program_that_ends_well_at_once_is_not_reported() throws {
        try sandbox.program("handover", """
            #!/bin/sh
            echo 'handover: sent to the running instance' >&2
            exit 0
            """)
        let result = try run(migaBinary, ["protect", "handover", "--pause", "1"], environment: environment)
        #expect(result.status == 0, "\(result.error)")
        try proceedDetached("handover")
        try eventually("the watcher to end") { watchers().isEmpty ? true : nil }
        #expect(try server.settledCalls(summary: "Handover stopped at once") == 0)
        #expect(try sandbox.sessions().map(\.stoppedAtOnce) == [nil])
    }
}
