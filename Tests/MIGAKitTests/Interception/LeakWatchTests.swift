import Foundation
import Testing
@testable import MIGAKit

/// The leak watch over a /proc of the test's making: which processes of
/// protected programs went around the pause, and which did not.
@Suite struct LeakWatchTests {
    let proc = TemporaryDirectory()

    /// A process as /proc shows it: its name, environment, stat line and command line.
    func process(_ pid: Int32, comm: String, environment: [String] = ["HOME=/home/u"], parent: Int32 = 1, cmdline: [String] = []) throws {
        try proc.write(comm + "\n", to: "\(pid)/comm")
        try proc.write(environment.map { $0 + "\0" }.joined(), to: "\(pid)/environ")
        // pid (comm) state ppid … field 22 is the start time.
        let fields = ["S", "\(parent)"] + Array(repeating: "0", count: 17) + ["\(1000 + pid)"] + Array(repeating: "0", count: 10)
        try proc.write("\(pid) (\(comm)) " + fields.joined(separator: " ") + "\n", to: "\(pid)/stat")
        try proc.write(cmdline.map { $0 + "\0" }.joined(), to: "\(pid)/cmdline")
    }

    var watch: LeakWatch { LeakWatch(proc: proc.path, uid: getuid()) }

    @Test func a_process_without_the_gateways_mark_is_a_leak_named_by_its_parent() throws {
        try process(200, comm: "bash", cmdline: ["bash"])
        try process(300, comm: "steam", parent: 200, cmdline: ["/usr/games/steam", "-silent"])
        let leaks = watch.look(for: ["steam", "firefox"])
        #expect(leaks.map(\.program) == ["steam"])
        #expect(leaks.first?.route == "bash")
        #expect(leaks.first?.process.pid == 300 && leaks.first?.process.startTicks == 1300)
    }

    @Test func a_process_the_gateway_started_and_its_children_are_not() throws {
        try process(300, comm: "firefox", environment: ["MIGA_GATE_PID=299", "MIGA_GATE_HOPS=1"])
        try process(301, comm: "firefox", environment: ["MIGA_GATE_PID=299"], parent: 300)
        #expect(watch.look(for: ["firefox"]).isEmpty)
    }

    @Test func the_children_of_a_leaked_process_are_one_leak_and_an_orphan_has_no_route() throws {
        try process(400, comm: "firefox", parent: 1)
        try process(401, comm: "firefox", parent: 400)
        try process(402, comm: "firefox", parent: 400)
        let leaks = watch.look(for: ["firefox"])
        #expect(leaks.map(\.process.pid) == [400])
        #expect(leaks.first?.route == nil)
    }

    @Test func long_names_are_matched_as_the_kernel_cuts_them() throws {
        try process(500, comm: "telegram-deskto")
        #expect(watch.look(for: ["telegram-desktop"]).map(\.program) == ["telegram-desktop"])
    }

    @Test func vanished_unreadable_and_foreign_processes_are_skipped() throws {
        try process(600, comm: "steam")
        unlink(proc.path + "/600/environ")            // gone mid-read
        try process(601, comm: "steam")
        chown(proc.path + "/601", 12345, 12345)        // another user's
        try proc.write("x", to: "self/comm")           // not a pid
        try proc.write("x", to: "0/comm")
        #expect(watch.look(for: ["steam"]).isEmpty)
        #expect(watch.look(for: []).isEmpty)
        #expect(LeakWatch(proc: proc.path + "/missing").look(for: ["steam"]).isEmpty)
    }

    @Test func each_leak_is_recorded_once_and_counted_by_route() throws {
        let store = try SessionStore(path: proc.path + "/store.sqlite")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let leak = Leak(program: "steam", process: ProcessIdentity(bootID: "b", pid: 7, startTicks: 9), route: "/usr/bin/dex -a")
        #expect(try store.recordLeaks([leak], at: now) == 1)
        #expect(try store.recordLeaks([leak], at: now.addingTimeInterval(60)) == 0)
        let recorded = try store.leaks(since: now.addingTimeInterval(-1))
        #expect(recorded == [RecordedLeak(program: "steam", seenAt: now, route: "/usr/bin/dex -a")])
        #expect(recorded.first?.routeName == "dex -a")
        #expect(RecordedLeak(program: "x", seenAt: now, route: nil).routeName == "a launcher that has exited")
    }
}
