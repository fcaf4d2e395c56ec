import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal

/// The reliability figures `make soak` prints: hundreds of pauses ending at
/// the same moment, and two machines syncing over and over at once. Minutes
/// long, so it runs in `make soak` (MIGA_SOAK=1), not `make test`.
@Suite(.serialized, .soak)
struct LoadSoakEndToEndTests {
    let sandbox = Sandbox()

    @Test func hundreds_of_pauses_ending_at_once_leave_as_many_rows() throws {
        let count = Int(ProcessInfo.processInfo.environment["MIGA_SOAK_BURST"] ?? "") ?? 500
        try sandbox.config("reduced_motion = true\nnotifications = false\n")
        let arguments = ["--pause", "2", "argv-dump"]
        let tmux = try Tmux(command: try sandbox.gateScript(arguments, named: "g0.sh"), environment: sandbox.environment)
        for index in 1..<count {
            try tmux.newWindow(try sandbox.gateScript(arguments, named: "g\(index).sh"), environment: sandbox.environment)
        }
        let windows = try tmux.tmux(["list-windows", "-F", "#{window_id}"]).words
        #expect(windows.count == count)
        for window in windows {
            try tmux.waitForScreen("every pause to reach zero", timeout: 600, target: window) { $0.contains("the choice is yours") }
        }
        // One tmux command delivers every key: half exit, half proceed, at once.
        var burst: [String] = []
        for (index, window) in windows.enumerated() {
            burst += (burst.isEmpty ? [] : [";"]) + ["send-keys", "-t", window, index.isMultiple(of: 2) ? "e" : "p"]
        }
        let started = Date()
        try tmux.tmux(burst)
        for index in 0..<count { _ = try sandbox.status(of: "g\(index).sh", timeout: 600) }
        let rows = try sandbox.sessions()
        let complete = rows.filter { $0.outcome == .exit || $0.outcome == .proceed }.count
        print("soak: \(count) pauses ending at once → \(rows.count) rows, \(complete) complete (\(rows.filter { $0.outcome == .exit }.count) exits, \(rows.filter { $0.outcome == .proceed }.count) proceeds) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        #expect(rows.count == count && complete == count)
    }

    @Test func two_machines_syncing_at_once_hold_each_id_once_per_file() throws {
        let laptop = Sandbox(), desktop = Sandbox()
        let shared = sandbox.root + "/Sync"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        for home in [laptop, desktop] {
            for _ in 0..<25 { try run(migaBinary, ["gate", "argv-dump"], environment: home.environment) }
        }
        // Each machine syncs twenty times, four at a time, while the other does the same.
        let environments = [laptop.environment, desktop.environment]
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            _ = try? run(migaBinary, ["sync", shared], environment: environments[index % 2])
        }
        var lines = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: shared) {
            let ids = try String(contentsOfFile: shared + "/" + name, encoding: .utf8).split(separator: "\n").map { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String ?? ""
            }
            lines += ids.count
            #expect(Set(ids).count == ids.count, "\(name) holds an id twice")
            #expect(ids.count == 25, "\(name): \(ids.count) lines")
        }
        let here = try laptop.sessions().count, there = try desktop.sessions().count
        print("soak: two machines syncing 20 times each at once → \(lines) lines for 50 ids; \(here) and \(there) sessions")
        #expect(here == 50 && there == 50)
    }
}
