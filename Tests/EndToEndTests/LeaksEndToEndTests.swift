import Foundation
import Testing
@testable import MIGAKit

/// Launches that went around the pause, with real processes: a protected
/// program started by its path, and by a login start no override covers
/// yet, is reported as a leak; one started through the gate never is.
@Suite(.serialized) struct LeaksEndToEndTests {
    let sandbox = Sandbox()
    /// A name of its own, so that no other run's processes count here.
    let program = "slow" + UUID().uuidString.prefix(6).lowercased()

    init() throws {
        // A program that keeps running, as a browser or a game launcher does.
        try sandbox.program(program, "#!/bin/sh\nwhile :; do sleep 1; done\n")
    }

    /// Ends every process of the program this test started, however it went.
    func stopAll() throws {
        let found = try run("/usr/bin/pgrep", ["-f", sandbox.root + "/bin/" + program]).output
        for pid in found.split(whereSeparator: \.isNewline).compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
    }

    var environment: [String: String] {
        sandbox.environment.merging(["XDG_CONFIG_DIRS": sandbox.root + "/xdg", "XDG_DATA_DIRS": sandbox.root + "/system"]) { $1 }
    }

    func leakCount() throws -> Int? {
        let json = try run(migaBinary, ["stats", "--json"], environment: environment).output
        let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return (document?["leaks"] as? [String: Any])?["this_week"] as? Int
    }

    @Test func a_program_started_around_the_gate_is_a_leak_and_one_started_through_it_is_not() throws {
        defer { try? stopAll() }
        #expect(try run(migaBinary, ["protect", program], environment: environment).status == 0)
        // Through the gate, without a terminal: a pass-through, carrying the gateway's mark.
        let gated = try spawn(migaBinary, ["gate", program], environment: environment)
        try eventually("the gated program") { try run("/usr/bin/pgrep", ["-f", sandbox.root + "/bin/" + program]).status == 0 ? true : nil }
        #expect(try leakCount() == 0)
        // By its path, around the gate.
        let around = try spawn(sandbox.root + "/bin/" + program, [], environment: environment)
        #expect(try eventually("the leak") { try leakCount() == 1 ? true : nil } == true)
        // Seen again: still one.
        #expect(try leakCount() == 1)
        let stats = try run(migaBinary, ["stats"], environment: environment.merging(["COLUMNS": "100"]) { $1 })
        #expect(stats.output.contains("1 launch went around the pause this week (1 from "), "\(stats.output)")
        // A login start written after protect, started by dex before any miga looked at it.
        try FileManager.default.createDirectory(atPath: sandbox.root + "/config/autostart", withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Slow\nExec=\(sandbox.root)/bin/\(program) --at-login\n"
            .write(toFile: sandbox.root + "/config/autostart/\(program).desktop", atomically: true, encoding: .utf8)
        // (Not captured: the program dex starts would hold the pipe open for as long as it runs.)
        #expect(try run("/usr/bin/dex", ["-a"], environment: environment, captureOutput: false).status == 0)
        try eventually("the login start") { try run("/usr/bin/pgrep", ["-f", "\(program) --at-login"]).status == 0 ? true : nil }
        let doctor = try run(migaBinary, ["doctor"], environment: environment)
        #expect(doctor.output.contains("✗ leaks: 2 launches went around the pause in the last 7 days"), "\(doctor.output)")
        #expect(try leakCount() == 2)
        kill(gated, SIGTERM)
        kill(around, SIGTERM)
        var status: Int32 = 0
        waitpid(gated, &status, 0)
        waitpid(around, &status, 0)
    }
}
