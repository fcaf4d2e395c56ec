import Foundation
@testable import MIGACore
@testable import MIGAKit

/// A pseudo terminal of the test's own, for what tmux cannot do: be the
/// terminal that answers the gateway's questions (OSC 11, DA1), byte by
/// byte, cut in pieces and late, as a slow or remote terminal does.
final class PseudoTerminal {
    private let master: Int32
    let pid: pid_t
    /// Everything the program has written so far.
    private(set) var output: [UInt8] = []

    init(_ arguments: [String], environment: [String: String], columns: Int = 80, rows: Int = 24) throws {
        var master: Int32 = -1, slave: Int32 = -1
        var window = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &window) == 0 else { throw SpawnFailure(executable: "openpty", code: errno) }
        // Neither end leaks into what other tests start meanwhile.
        for fd in [master, slave] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        self.master = master
        defer { close(slave) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_adddup2(&actions, slave, fd) }
        var attributes = shellLikeSpawnAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        // A session of its own, as a terminal emulator starts its shell
        // (POSIX_SPAWN_SETSID, 0x80 in glibc, which Swift's Glibc does not bring in).
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | 0x80))
        let argv = ([migaBinary] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, migaBinary, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw SpawnFailure(executable: migaBinary, code: spawned) }
        pid = child
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    /// Whether the program is still running (not ended, not a zombie).
    var isRunning: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// What the program wrote, as text.
    var text: String { String(decoding: output, as: UTF8.self) }

    /// Writes `bytes` as the terminal's own input (what it answers, or keys).
    func send(_ text: String) {
        _ = writeAll(master, text)
    }

    /// Goes on reading what the program writes for `seconds`: the pace of a
    /// terminal that sends the rest of its answer later.
    func keepReading(for seconds: Double) {
        let end = Date() + seconds
        while Date() < end { drain(upTo: end.timeIntervalSinceNow) }
    }

    /// Reads what the program writes until `condition` holds of all of it.
    @discardableResult
    func waitForOutput(_ what: String, timeout: Double = 30, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date() + timeout
        while Date() < deadline {
            drain(upTo: 0.05)
            if condition(text) { return text }
        }
        throw Timeout(what: what, last: String(text.suffix(2000)))
    }

    /// Takes in what is there to read, waiting at most `seconds` for the first of it.
    private func drain(upTo seconds: Double) {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        var wait = Int32(max(0, seconds) * 1000)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while poll(&descriptor, 1, wait) > 0 {
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { return }
            output += buffer[0..<count]
            wait = 0
        }
    }
}
