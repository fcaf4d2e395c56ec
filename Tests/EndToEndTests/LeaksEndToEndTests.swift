import Foundation
import Testing
@testable import MIGAKit

/// Launches that went around the pause, with real processes: a protected
/// program started by its path, and by a login start no override covers
/// yet, is reported as a leak with its route; one started through the gate
/// never is: not the gateway showing its pause under the program's name,
/// not what it starts, not a wrapper that drops the gateway's mark.
@Suite(.serialized) struct LeaksEndToEndTests {
    let sandbox = Sandbox()
    /// A name of its own, so that no other run's processes count here.
    let program = "slow" + UUID().uuidString.prefix(6).lowercased()

    init() throws {
        // A program that keeps running, as a browser or a game launcher does: a binary.
        try copyExecutable(from: "/usr/bin/sleep", to: sandbox.root + "/bin/" + program)
    }

    /// Ends every process of the programs this test started, however it went.
    func stopAll() throws {
        let found = try run("/usr/bin/pgrep", ["-f", sandbox.root + "/bin/"]).output
        for pid in found.split(whereSeparator: \.isNewline).compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
    }

    var environment: [String: String] {
        sandbox.environment.merging(["XDG_CONFIG_DIRS": sandbox.root + "/xdg", "XDG_DATA_DIRS": sandbox.root + "/system"]) { $1 }
    }

    func leaks() throws -> (count: Int, routes: [String: Int])? {
        let json = try run(migaBinary, ["stats", "--json"], environment: environment).output
        guard let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let leaks = document["leaks"] as? [String: Any], let count = leaks["this_week"] as? Int,
              let routes = leaks["routes"] as? [[String: Any]] else { return nil }
        return (count, Dictionary(uniqueKeysWithValues: routes.compactMap { route in
            (route["route"] as? String).flatMap { name in (route["count"] as? Int).map { (name, $0) } }
        }))
    }

    func leakCount() throws -> Int? { try leaks()?.count }

    @Test func a_program_started_around_the_gate_is_a_leak_and_one_started_through_it_is_not() throws {
        defer { try? stopAll() }
        #expect(try run(migaBinary, ["protect", program], environment: environment).status == 0)
        try sandbox.config("pause = 3\n[programs.\(program)]\n")

        // By its path, around the gate: one leak, named by that path.
        let around = try spawn(sandbox.root + "/bin/" + program, ["600"], environment: environment)
        #expect(try eventually("the leak") { try leakCount() == 1 ? true : nil } == true)
        #expect(try leaks()?.routes == ["from \(sandbox.root)/bin/\(program)": 1])
        // Seen again: still one.
        #expect(try leakCount() == 1)
        let stats = try run(migaBinary, ["stats"], environment: environment.merging(["COLUMNS": "200"]) { $1 })
        #expect(stats.output.contains("1 launch went around the pause this week (1 from \(sandbox.root)/bin/\(program))"), "\(stats.output)")

        // A login start written after protect, started by dex before any miga looked at it.
        try FileManager.default.createDirectory(atPath: sandbox.root + "/config/autostart", withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Slow\nExec=\(sandbox.root)/bin/\(program) 601\n"
            .write(toFile: sandbox.root + "/config/autostart/\(program).desktop", atomically: true, encoding: .utf8)
        // (Not captured: the program dex starts would hold the pipe open for as long as it runs.)
        #expect(try run("/usr/bin/dex", ["-a"], environment: environment, captureOutput: false).status == 0)
        try eventually("the login start") { try run("/usr/bin/pgrep", ["-f", "\(program) 601"]).status == 0 ? true : nil }
        let doctor = try run(migaBinary, ["doctor"], environment: environment)
        #expect(doctor.output.contains("✗ leaks: 2 launches went around the pause in the last 7 days"), "\(doctor.output)")
        #expect(doctor.output.contains("\(program) at login (\(sandbox.root)/bin/\(program) 601)"), "\(doctor.output)")
        #expect(doctor.output.contains("miga refresh puts the pause in front of login starts"), "\(doctor.output)")
        #expect(try leaks()?.routes == ["from \(sandbox.root)/bin/\(program)": 1, "at login": 1])
        let week = try run(migaBinary, ["stats"], environment: environment.merging(["COLUMNS": "200"]) { $1 })
        #expect(week.output.contains("2 launches went around the pause this week (1 at login, 1 from \(sandbox.root)/bin/\(program))"),
                "\(week.output)")

        // Typed in a shell, through the shim: while the pause is on screen the
        // gateway goes by the program's name, and is no launch around it.
        let shim = sandbox.root + "/data/miga/shims/" + program
        let paused = try Tmux(command: shellQuoted(shim) + " 602", environment: environment)
        try paused.waitForScreen("the pause") { $0.contains("a pause before") }
        #expect(try run("/usr/bin/pgrep", ["-x", program]).output.split(separator: "\n").count >= 3,
                "the gateway, named after the program, beside the two launches around it")
        #expect(try leakCount() == 2)
        // Proceed: the program runs, carrying the gateway's mark.
        try paused.waitForScreen("the end of the countdown") { $0.contains("the choice is yours") }
        try paused.send("p")
        // The gateway becomes the program (exec keeps its pid).
        let gateway = try paused.value("#{pane_pid}")
        try eventually("the program through the gate") {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(gateway)/exe")) == sandbox.root + "/bin/" + program ? true : nil
        }
        #expect(try leakCount() == 2)

        // Through the gate without a terminal, by a wrapper that drops the
        // gateway's mark before the real start: the pass-through accounts for it.
        try sandbox.program("wrapped", """
            #!/bin/sh
            [ -n "$MIGA_GATE_PID" ] && exec env -u MIGA_GATE_PID "$0" "$@"
            while :; do sleep 1; done
            """)
        #expect(try run(migaBinary, ["protect", "wrapped"], environment: environment).status == 0)
        let gated = try spawn(migaBinary, ["gate", "wrapped"], environment: environment)
        try eventually("the wrapped program, unmarked") {
            try run("/usr/bin/pgrep", ["-f", sandbox.root + "/bin/wrapped"]).status == 0 ? true : nil
        }
        #expect(try leakCount() == 2)
        kill(gated, SIGTERM)
        kill(around, SIGTERM)
        var status: Int32 = 0
        waitpid(gated, &status, 0)
        waitpid(around, &status, 0)
    }
}
