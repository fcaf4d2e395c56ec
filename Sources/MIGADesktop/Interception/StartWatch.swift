#if canImport(Glibc)
import Glibc
#endif
import MIGACore
import MIGATerminal
import MIGAStore

/// The first moments of a program started detached after a Proceed.
///
/// A detached program's error output goes nowhere, so a program that stops
/// at once (Chromium as root) leaves the person before an empty desktop. The
/// gateway therefore hands the start to `miga watch-start`, in a session of
/// its own, and ends (its window closes at once). That watcher starts the
/// program with its standard error on a pipe, reads it for `EarlyStop.window`
/// seconds, and, when the program ended unasked in that time, records it
/// with the session and sends a notification.
///
/// A pipe nobody reads fills up (64 KiB) and blocks its writer, and one
/// whose reader is gone kills it with SIGPIPE; so a program that runs on past
/// the window (or left a child holding its standard error) has its pipe
/// handed to `miga watch-start --drain`, which reads it to the end and throws
/// it away, for as long as anyone writes to it. The watcher itself then ends
/// and never lingers as the program's parent.
public struct StartWatch: Equatable, Sendable {
    /// The `miga` binary that watches.
    public let watcher: String
    /// The session whose Proceed this is.
    public let sessionID: String
    /// The program's name as the person knows it.
    public let programName: String
    /// Whether a stop is also said in a notification (`notifications` in the config).
    public let notify: Bool

    public init(watcher: String, sessionID: String, programName: String, notify: Bool) {
        self.watcher = watcher
        self.sessionID = sessionID
        self.programName = programName
        self.notify = notify
    }

    /// After `miga watch-start`: only drain standard input.
    public static let drainFlag = "--drain"
    /// How long the gateway waits for the watcher to say whether the program started.
    static let answerDeadline = 10.0

    /// The words after `miga watch-start`, before `--` and the program.
    public var arguments: [String] {
        ["--session", sessionID, "--name", programName] + (notify ? [] : ["--quiet"])
    }

    /// The watch that `words` (after `miga watch-start`) describe, and how
    /// many of them it took, `--` included: the program's path and its
    /// arguments follow. Nil when they are not such words.
    public static func parse(_ words: [String], watcher: String) -> (watch: StartWatch, taken: Int)? {
        var values: [String: String] = [:]
        var quiet = false
        var index = 0
        while index < words.count, words[index] != "--" {
            if words[index] == "--quiet" {
                quiet = true
                index += 1
                continue
            }
            guard ["--session", "--name"].contains(words[index]), index + 1 < words.count else { return nil }
            // Through constants: `values[words[index]] = words[index + 1]` stored
            // nothing in a debug build of this toolchain (Swift 6.3.1).
            let (flag, value) = (words[index], words[index + 1])
            values[flag] = value
            index += 2
        }
        guard index < words.count, let session = values["--session"], let name = values["--name"] else { return nil }
        return (StartWatch(watcher: watcher, sessionID: session, programName: name, notify: !quiet), index + 1)
    }

    // MARK: In the gateway

    /// Starts the watcher, which starts the program at `path` with `arguments`.
    /// The watcher's answer: 0 once the program started, else why it could
    /// not (an errno); nil when the watcher itself could not start.
    func start(_ path: String, arguments: [[UInt8]]) -> Int32? {
        var answer: [Int32] = [-1, -1]
        guard closeOnExecPipe(&answer) else { return nil }
        defer { close(answer[0]) }
        let words = [watcher] + InternalCommand.watchStart(self.arguments + ["--", path]).words
        let spawned = Launcher.cStrings(words.map { Array($0.utf8) } + arguments) { vector in
            Launcher.spawnDetached(watcher, vector, output: answer[1])
        }
        close(answer[1])
        guard spawned == 0 else { return nil }
        // Whatever happens to the watcher, the gateway waits only so long.
        let said = readAll(answer[0], upTo: 64, deadline: SystemTime().monotonic() + Self.answerDeadline)
        guard let text = said.text else { return said.timedOut ? 0 : nil }
        return Self.code(fromAnswer: text)
    }

    /// "started" is 0, "failed N" is N, anything else nil.
    static func code(fromAnswer text: String) -> Int32? {
        let words = text.split(separator: " ")
        if words == ["started"] { return 0 }
        guard words.count == 2, words[0] == "failed", let code = Int32(words[1]), code > 0 else { return nil }
        return code
    }

    // MARK: In the watcher

    /// `miga watch-start`: starts the program, tells the gateway (on standard
    /// output) whether it could, and watches it. `report` is called with a
    /// stop to record and say, after the program's pipe is in safe hands.
    public func keep(_ path: [UInt8], arguments: [[UInt8]], report: (EarlyStop) -> Void) {
        // The program gets the signals a shell would give it, and the watcher
        // sees its ending (an ignored SIGCHLD would have it reaped unseen).
        SignalRouting.resetForExec()
        signal(SIGCHLD, SIG_DFL)
        var errors: [Int32] = [-1, -1]
        // Without a pipe (no descriptors left) it starts unwatched, as before there were watchers.
        let watched = closeOnExecPipe(&errors)
        var pid: pid_t = 0
        let file = String(decoding: path, as: UTF8.self)
        let code = Launcher.cStrings(arguments) { Launcher.spawnDetached(file, $0, pid: &pid, errors: watched ? errors[1] : nil) }
        if watched { close(errors[1]) }
        // The watcher alone must not die writing to a gateway that is gone.
        signal(SIGPIPE, SIG_IGN)
        writeAll(1, code == 0 ? "started\n" : "failed \(code)\n")
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if null >= 0 {
            dup2(null, 1)
            close(null)
        }
        guard watched else { return }
        defer { close(errors[0]) }
        guard code == 0 else { return }
        let (ending, after, output, ended) = watch(pid, errors: errors[0])
        if !ended { handOver(errors[0]) }
        if let stop = EarlyStop(ending: ending, after: after, errorOutput: output.bytes) { report(stop) }
    }

    /// Keeps `stop` with the session, and says it in a notification unless
    /// notifications are off. A store too busy to take it (or whose row the
    /// inbox still holds) gets it through the inbox. The watcher has no one
    /// to hurry for: it waits for the server as the reminder does, never for ever.
    public func record(_ stop: EarlyStop, storePath: String, notifier: Notifier) {
        let pending = notify ? notifier.post(stop.notification(programName: programName)) : nil
        if (try? SessionStore(path: storePath).recordEarlyStop(sessionID: sessionID, stop)) != true {
            try? Inbox(besideStoreAt: storePath).dropEarlyStop(sessionID: sessionID, stop)
        }
        _ = pending?.wait(seconds: 25)
    }

    /// Reads the program's error output until it ends or the window is over:
    /// how it ended (nil while running), when, what it said, and whether its
    /// error output has ended too (everyone holding it closed it).
    private func watch(_ pid: pid_t, errors fd: Int32) -> (ProcessEnding?, Double, ErrorTail, Bool) {
        let clock = SystemTime()
        let start = clock.monotonic()
        var output = ErrorTail()
        var outputEnded = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // What is readable now, without waiting, and at most a few chunks of
        // it: a program that never stops writing must not keep the watcher
        // from its clock. Notes when the output has ended.
        func readAvailable() {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            var chunks = 0
            while !outputEnded, chunks < 16, poll(&entry, 1, 0) > 0 {
                chunks += 1
                let count = read(fd, &buffer, buffer.count)
                if count > 0 { output.append(buffer[0..<count]) } else if count == 0 || errno != EINTR { outputEnded = true }
            }
        }
        while true {
            let elapsed = clock.monotonic() - start
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                // What it wrote before it ended is in the pipe already.
                readAvailable()
                return (ProcessEnding(waitStatus: status), elapsed, output, outputEnded)
            }
            guard elapsed < EarlyStop.window else { break }
            // Woken by output at once; a tick for an ending that closes nothing
            // (a child of the program still holds the pipe).
            let tick = Int32(min(50, max(1, (EarlyStop.window - elapsed) * 1000)))
            if outputEnded {
                usleep(useconds_t(tick) * 1000)
            } else {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&entry, 1, tick) > 0 { readAvailable() }
            }
        }
        readAvailable()
        return (nil, clock.monotonic() - start, output, outputEnded)
    }

    /// Gives the pipe to `miga watch-start --drain`; when that cannot start,
    /// drains it here (a program must never block on its error output).
    private func handOver(_ fd: Int32) {
        let words = ([watcher] + InternalCommand.watchStart([Self.drainFlag]).words).map { Array($0.utf8) }
        let spawned = Launcher.cStrings(words) { Launcher.spawnDetached(watcher, $0, input: fd) }
        if spawned != 0 { Self.drain(fd) }
    }

    /// Reads `fd` to its end, keeping nothing.
    public static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 || (count < 0 && errno == EINTR) { continue }
            return
        }
    }
}

/// A pipe whose ends no program started later inherits (pipe2 is a GNU
/// extension the Glibc module does not export).
private func closeOnExecPipe(_ ends: inout [Int32]) -> Bool {
    guard pipe(&ends) == 0 else { return false }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return true
}

/// Bytes read from `fd` until its end, `limit` bytes, or `deadline` on the
/// monotonic clock; the text is nil when nothing whole came (an end with no
/// bytes, or a timeout).
private func readAll(_ fd: Int32, upTo limit: Int, deadline: Double) -> (text: String?, timedOut: Bool) {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: limit)
    while bytes.count < limit {
        let left = deadline - SystemTime().monotonic()
        guard left > 0 else { return (nil, true) }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, Int32(left * 1000) + 1)
        if ready < 0 && errno == EINTR { continue }
        guard ready > 0 else { return (nil, true) }
        let count = read(fd, &buffer, limit - bytes.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        bytes += buffer[0..<count]
        if bytes.last == UInt8(ascii: "\n") { break }
    }
    let text = String(decoding: bytes, as: UTF8.self).trimming("\n")
    return (text.isEmpty ? nil : text, false)
}
