import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGADesktop

/// `non_interactive = "terminal"`: a launch without a terminal opens the pause
/// in a terminal window, and Proceed there starts the program detached.
@Suite(.serialized, .endToEnd) struct TerminalPolicyEndToEndTests {
    let sandbox = Sandbox()
    let awkward = ["two words", "it's", "\"quoted\"", "$HOME", "; rm -rf nothing", "日本"]

    func protectForTerminal() throws {
        let result = try run(migaBinary, ["protect", "argv-dump", "--non-interactive", "terminal"], environment: sandbox.environment)
        #expect(result.status == 0, "\(result.error)")
    }

    @Test(arguments: TerminalEmulator.known.map(\.name))
    func each_emulator_receives_the_gateway_and_the_arguments_intact(emulator: String) throws {
        try protectForTerminal()
        // A stand-in emulator: records the arguments it was given, one per line of NUL-separated bytes,
        // and checks in as the gateway in its window would (taking its file away).
        try sandbox.program(emulator, """
            #!/bin/sh
            printf '%s\\0' "$@" > "\(sandbox.root)/emulator-argv.$$"
            /bin/mv "\(sandbox.root)/emulator-argv.$$" "\(sandbox.root)/emulator-argv"
            while [ $# -gt 1 ]; do
                if [ "$1" = --ready-file ]; then /bin/rm "$2"; fi
                shift
            done
            """)
        // Only the stand-in on PATH: a real emulator installed here would be found first.
        let result = try run(migaBinary, ["gate", "argv-dump", "--"] + awkward,
                             environment: sandbox.environment.merging(["PATH": sandbox.root + "/bin", "DISPLAY": ":0"]) { $1 })
        #expect(result.status == 0, "\(result.error)")
        let recorded = try eventually("the emulator to be started") { sandbox.bytes("emulator-argv") }
        let words = recorded.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        let readyFile = try #require(words.firstIndex(of: "--ready-file").map { words[$0 + 1] })
        // The window's options (its title, the pause's size) as this emulator takes them, then the gateway.
        let expected = try #require(TerminalEmulator.known.first { $0.name == emulator })
            .arguments(running: [migaBinary, "gate", "--detach", "--ready-file", readyFile, "argv-dump", "--"] + awkward,
                       in: PauseWindow(programName: "Argv-dump"))
        #expect(words == expected)
        #expect(sandbox.read("argv") == nil, "the program must wait for the pause")
    }

    @Test func a_real_xterm_shows_the_pause() throws {
        let server = try NotificationServer(folder: sandbox.root + "/server")
        try protectForTerminal()
        let environment = sandbox.environment.merging(["DISPLAY": server.display, "TERMINAL": "xterm"]) { $1 }
        let result = try run(migaBinary, ["gate", "argv-dump", "--", "from a link"], environment: environment)
        #expect(result.status == 0, "\(result.error)")
        // The gateway inside the window has a terminal: its pause opens a session.
        let open = try eventually("the pause to open in the xterm") { try sandbox.sessions().first { $0.outcome == .open } }
        #expect(open.program == "argv-dump")
        let xterm = try eventually("the xterm") { processes(named: "xterm", environment: sandbox.root).first }
        kill(xterm, SIGTERM)
        let ended = try eventually("the pause to end with its window") { try sandbox.sessions().first { $0.outcome != .open } }
        #expect(ended.outcome == .abandoned)
        #expect(sandbox.read("argv") == nil)
    }

    @Test func proceed_with_detach_leaves_the_program_running_in_its_own_session() throws {
        try sandbox.program("lingering", """
            #!/bin/sh
            echo $$ > "\(sandbox.root)/lingering.pid"
            exec sleep 60
            """)
        let tmux = try Tmux(command: try sandbox.gateScript(["--detach", "--pause", "1", "lingering"]), environment: sandbox.environment)
        try tmux.waitForScreen("the end of the countdown") { $0.contains("the choice is yours") }
        try tmux.send("p")
        #expect(try sandbox.status() == 0)
        let pid = try eventually("the program") { sandbox.read("lingering.pid").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } }
        defer { kill(pid, SIGKILL) }
        try tmux.tmux(["kill-server"])
        usleep(300_000)
        #expect(!isGone(pid), "the program should outlive the window")
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        #expect(fields[3] == "\(pid)", "it should lead a session of its own")
        #expect(try sandbox.sessions().map(\.outcome) == [.proceed])
    }
}

/// Live processes called `name` whose environment mentions `marker`.
func processes(named name: String, environment marker: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
        guard let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8),
              comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
              let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
        return String(decoding: environ, as: UTF8.self).contains(marker)
    }
}
