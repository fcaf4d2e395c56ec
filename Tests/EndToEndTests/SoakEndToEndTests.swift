import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
import MIGAStore

/// A thousand scripted sessions through the real binary under tmux: after
/// each, the terminal is as it was; at the end, stats agree with the script's
/// own tally. Minutes long, so it runs in `make soak` (MIGA_SOAK=1), not `make test`.
@Suite(.serialized, .soak)
struct SoakEndToEndTests {
    let sandbox = Sandbox()

    @Test func a_thousand_sessions_leave_the_terminal_sane_and_the_numbers_right() throws {
        let total = Int(ProcessInfo.processInfo.environment["MIGA_SOAK_SESSIONS"] ?? "") ?? 1000
        let lanes = 4
        // Reduced motion: the celebration is the shortest it can be; no bus: no notification.
        try sandbox.config("reduced_motion = true\nnotifications = false\n")
        let gate = ([migaBinary, "gate", "--pause", "1", "argv-dump"]).map(shellQuoted).joined(separator: " ")
        // Each lane runs its gateways one after another in one terminal, each
        // when the test says go (so the screen between two can be read), and
        // prints after each its status and whether the line settings are
        // exactly those from before (stty -g).
        func lane(_ index: Int, sessions: Int) throws -> String {
            let script = """
                saved=$(stty -g)
                for i in $(seq 1 \(sessions)); do
                  read -r go
                  \(gate)
                  status=$?
                  if [ "$(stty -g)" = "$saved" ]; then sane=sane; else sane=INSANE; fi
                  echo "done $i $status $sane"
                done
                sleep 600
                """
            try script.write(toFile: sandbox.root + "/lane\(index).sh", atomically: true, encoding: .utf8)
            return "bash " + shellQuoted(sandbox.root + "/lane\(index).sh")
        }
        let perLane = total / lanes
        let tmux = try Tmux(command: try lane(0, sessions: perLane), environment: sandbox.environment)
        for index in 1..<lanes { try tmux.newWindow(try lane(index, sessions: perLane), environment: sandbox.environment) }
        let windows = try tmux.tmux(["list-windows", "-F", "#{window_id}"]).words

        var generator = SeededGenerator(seed: 1000)
        var tally = (exits: 0, proceeds: 0, deepens: 0)
        var insane: [String] = []
        let started = Date()
        for round in 1...perLane {
            for window in windows { try tmux.send("Enter", target: window) }
            for window in windows {
                try tmux.waitForScreen("pause \(round)", target: window) { $0.contains("Exit to Focus") }
                // Mostly exits; some deepen first; about one in five proceeds once the ring is empty.
                let choice = Int.random(in: 0..<10, using: &generator)
                if choice < 2 {
                    try tmux.send("d", target: window)
                    tally.deepens += 1
                }
                if choice >= 8 {
                    try tmux.waitForScreen("zero in pause \(round)", target: window) { $0.contains("the choice is yours") }
                    try tmux.send("p", target: window)
                    tally.proceeds += 1
                } else {
                    try tmux.send("e", target: window)
                    tally.exits += 1
                }
            }
            for window in windows {
                let screen = try tmux.waitForScreen("session \(round) to end", target: window) { $0.contains("done \(round) ") }
                if let line = screen.split(separator: "\n").first(where: { $0.hasPrefix("done \(round) ") }), line.hasSuffix("INSANE") {
                    insane.append("\(window) \(line)")
                }
                #expect(try tmux.value("#{alternate_on}", target: window) == "0")
                #expect(try tmux.value("#{cursor_flag}", target: window) == "1")
            }
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(insane.isEmpty, "the terminal was left changed: \(insane)")

        let stats = try run(migaBinary, ["stats", "--json"], environment: sandbox.environment)
        let totals = try #require(try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: Any])
        #expect(totals["sessions"] as? Int == perLane * lanes)
        #expect(totals["conscious_exits"] as? Int == tally.exits)
        #expect(totals["proceeds"] as? Int == tally.proceeds)
        #expect(totals["abandoned"] as? Int == 0)
        let rows = try sandbox.sessions()
        #expect(rows.filter { $0.deepenCount > 0 }.count == tally.deepens)
        // The full check, every page and index, not the quick one `miga doctor` runs.
        #expect(try SerialConnection(path: sandbox.storePath, .readWrite).read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
        print("soak: \(perLane * lanes) sessions in \(lanes) terminals, \(tally.exits) exits, \(tally.proceeds) proceeds, \(tally.deepens) deepened, in \(Int(seconds)) s")
    }
}
