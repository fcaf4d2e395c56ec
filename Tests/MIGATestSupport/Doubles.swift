import Foundation
import Testing
@testable import MIGACore
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGADesktop

/// A clock that moves only when told to.
final class ManualTime: TimeSource, @unchecked Sendable {
    private let lock = NSLock()
    private var wall: Date
    private var seconds: Double

    init(wall: Date = Date(timeIntervalSince1970: 1_800_000_000), monotonic: Double = 1000) {
        self.wall = wall
        seconds = monotonic
    }

    func now() -> Date { lock.withLock { wall } }
    func monotonic() -> Double { lock.withLock { seconds } }

    func advance(_ delta: Double) {
        lock.withLock {
            seconds += delta
            wall += delta
        }
    }

    /// The wall clock set by hand (or by NTP): the monotonic clock does not move.
    func stepWall(_ delta: Double) {
        lock.withLock { wall += delta }
    }
}

/// A terminal that plays a script: waits (which move the manual clock) and
/// events, and records what was written to it.
final class ScriptedTerminal: TerminalDevice {
    enum Step {
        case wait(Double)
        case events([TerminalEvent])
        /// The process is stopped (SIGSTOP) for this long, then continued.
        case frozen(Double)
        /// Something that happens elsewhere meanwhile (another gateway writes to the store).
        case meanwhile(() -> Void)
    }

    var size: TerminalSize
    var reportsFocus = false
    private let time: ManualTime
    private var script: [Step]
    private(set) var written = ""
    private(set) var enterCount = 0
    private(set) var leaveCount = 0
    private(set) var suspendCount = 0
    /// Seconds the clock moves while the process is stopped by `suspend()`.
    var stoppedFor = 0.0

    init(size: TerminalSize = TerminalSize(columns: 80, rows: 24), time: ManualTime, script: [Step]) {
        self.size = size
        self.time = time
        self.script = script
    }

    func enter() { enterCount += 1 }
    func leave() { leaveCount += 1 }
    func write(_ text: String) { written += text }

    func suspend() {
        suspendCount += 1
        time.advance(stoppedFor)
    }

    func nextEvents(timeout: Double) -> [TerminalEvent] {
        guard let step = script.first else { return [.hangup] }
        switch step {
        case .events(let events):
            script.removeFirst()
            return events
        case .frozen(let seconds):
            script.removeFirst()
            time.advance(seconds)
            return [.resumed]
        case .meanwhile(let happening):
            script.removeFirst()
            happening()
            return []
        case .wait(let seconds):
            let slept = min(seconds, timeout)
            time.advance(slept)
            if seconds - slept > 1e-9 { script[0] = .wait(seconds - slept) } else { script.removeFirst() }
            return []
        }
    }

    static func keys(_ text: String) -> Step {
        .events(text.map { TerminalEvent.key(.character($0)) })
    }
}

/// Keeps every notification instead of sending it.
final class RecordingNotifier: Notifier, @unchecked Sendable {
    private let lock = NSLock()
    private var posted: [DesktopNotification] = []

    var notifications: [DesktopNotification] { lock.withLock { posted } }

    func post(_ notification: DesktopNotification) -> PendingNotification {
        lock.withLock { posted.append(notification) }
        return PendingNotification(result: .delivered)
    }
}

/// A temporary folder, removed when the test is done with it.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/miga-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A program to run, written through a close-on-exec descriptor: a
    /// descriptor left open for writing would leak into children that other
    /// test threads spawn meanwhile, and running the file would fail with
    /// "text file busy".
    func writeProgram(_ text: String, to relative: String) throws {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        unlink(full)
        let fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        guard writeAll(fd, text) else { throw CocoaError(.fileWriteUnknown) }
    }

    func write(_ text: String, to relative: String) throws {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }
}

extension Quote {
    static func sample(_ id: String, _ text: String = "Breathe.", tags: [String] = ["Mindfulness"]) -> Quote {
        Quote(id: id, text: text, tags: tags)
    }
}

extension SessionStore {
    /// A pause opened as the gateway opens one without an allowance: the
    /// first quote drawn and the `open` row written, in one transaction.
    func openSession(id: String, program: String, startedAt: Date, owner: ProcessIdentity,
                     pool: [String], using generator: inout some RandomNumberGenerator) throws -> String? {
        guard case .pause(let quote, _) = try beginLaunch(GateFacts(now: startedAt, front: .here), id: id, program: program,
                                                          owner: owner, pool: pool, dayStart: startedAt, using: &generator) else {
            return nil
        }
        return quote
    }
}

/// A value shared with a closure that outlives the call that made it.
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Collects messages from the gateway (a class, so the closure can share it).
final class MessageBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    func append(_ line: String) { lock.withLock { stored.append(line) } }
}

/// A /proc of the test's making, its clock set around a moment (the one a program was protected).
struct FakeProc {
    let folder = TemporaryDirectory()
    let bootTime: Int

    init(around protectedAt: Date) throws {
        bootTime = Int(protectedAt.timeIntervalSince1970) - 1000
        try folder.write("cpu 1 2 3\nbtime \(bootTime)\n", to: "stat")
    }

    /// A process of `exe` that started `offset` seconds after steam was protected.
    func process(_ pid: Int32, exe: String, after offset: Int, environment: [String] = ["HOME=/home/u"], parent: Int32 = 1,
                 cmdline: [String]) throws {
        try folder.write("steam\n", to: "\(pid)/comm")
        #expect(symlink(exe, folder.path + "/\(pid)/exe") == 0)
        try folder.write(environment.map { $0 + "\0" }.joined(), to: "\(pid)/environ")
        let ticks = (1000 + offset) * LeakWatch.ticksPerSecond
        let fields = ["S", "\(parent)"] + Array(repeating: "0", count: 17) + ["\(ticks)"] + Array(repeating: "0", count: 10)
        try folder.write("\(pid) (steam) " + fields.joined(separator: " ") + "\n", to: "\(pid)/stat")
        try folder.write(cmdline.map { $0 + "\0" }.joined(), to: "\(pid)/cmdline")
        try folder.write("0::/user.slice\n", to: "\(pid)/cgroup")
    }

    var watch: LeakWatch { LeakWatch(proc: folder.path, uid: getuid()) }
}

/// A moment after every fixture's dates (2030), for checks of what is possible
/// "by now": fixtures dated 2027 are in the past then.
let testNow = Date(timeIntervalSince1970: 1_900_000_000)
