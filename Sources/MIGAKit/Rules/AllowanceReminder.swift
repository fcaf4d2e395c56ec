#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGADesktop

/// The gentle word when an allowance is over: "Your 15 minutes with Discord
/// are up — still what you want?", sent only if the program is still open.
///
/// The gateway becomes the program (exec), so the reminder is kept by a small
/// process of its own, `miga remind`, that sleeps until it is due.
public struct AllowanceReminder: Equatable, Sendable {
    /// The program's name as the person knows it.
    public var programName: String
    /// The allowance, in minutes (the program's setting).
    public var minutes: Double
    /// When it is over.
    public var due: Date
    /// The process that became the program (the gateway's pid, kept by exec),
    /// or 0 when the program was started detached and its pid is unknown.
    public var processID: Int32
    /// The program's file, to find it running when its first process is gone.
    public var executable: String

    public init(programName: String, minutes: Double, due: Date, processID: Int32, executable: String) {
        self.programName = programName
        self.minutes = minutes
        self.due = due
        self.processID = processID
        self.executable = executable
    }

    public var notification: DesktopNotification {
        // "Your 1 minute … is up", "Your 15 minutes … are up".
        let verb = Self.span(minutes).hasPrefix("1 ") ? "is" : "are"
        return DesktopNotification(summary: "Your \(Self.span(minutes)) with \(programName) \(verb) up — still what you want?",
                                   body: "The next time you open \(programName), the pause comes first.")
    }

    /// "15 minutes", "1 minute", "1.5 minutes", "30 seconds".
    static func span(_ minutes: Double) -> String {
        if minutes < 1 {
            let seconds = max(1, Int((minutes * 60).rounded()))
            return seconds == 1 ? "1 second" : "\(seconds) seconds"
        }
        if minutes == 1 { return "1 minute" }
        let number = decimal(minutes, places: 2, trimmingZeros: true)
        return "\(number) minutes"
    }

    // MARK: As a command line

    /// The words after `miga remind`.
    public var arguments: [String] {
        ["--due", String(due.milliseconds), "--minutes", String(minutes), "--pid", String(processID),
         "--exe", executable, "--name", programName]
    }

    /// The reminder `arguments` describe, or nil when they are not such words.
    public init?(arguments: [String]) {
        var values: [String: String] = [:]
        var words = arguments[...]
        while let flag = words.popFirst() {
            guard flag.hasPrefix("--"), let value = words.popFirst() else { return nil }
            values[String(flag.dropFirst(2))] = value
        }
        guard let due = values["due"].flatMap(Int64.init), let minutes = values["minutes"].flatMap(Double.init),
              let pid = values["pid"].flatMap(Int32.init), let executable = values["exe"], let name = values["name"],
              values.count == 5 else { return nil }
        self.init(programName: name, minutes: minutes, due: Date(milliseconds: due), processID: pid,
                  executable: executable)
    }

    // MARK: Keeping it

    /// Set in the environment of the process that waits, so that `miga remind`
    /// knows it is that process and not the short-lived one that starts it.
    public static let waitingVariable = "MIGA_REMINDER_WAITING"

    /// Starts `miga remind` to keep this reminder, and returns once it is on
    /// its own. A child left to the program that the gateway becomes would
    /// linger as a zombie, so the first process only starts the one that
    /// waits, in a session of its own, and is reaped here at once.
    public func schedule(gateway: String) -> Bool {
        guard let pid = Launcher.spawnDetached(gateway, arguments: [gateway] + InternalCommand.remind(arguments).words) else { return false }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return true
    }

    /// `miga remind`: in the first process, start the waiting one and end;
    /// in the waiting one, wait until due and notify if the program is open.
    public func keep(gateway: String, environment: [String: String], notifier: Notifier) {
        guard environment[Self.waitingVariable] == "1" else {
            _ = Launcher.spawnDetached(gateway, arguments: [gateway] + InternalCommand.remind(arguments).words,
                                       environment: [Self.waitingVariable: "1"])
            return
        }
        // The wall clock, in short sleeps: a laptop that slept through the
        // allowance reminds when it wakes, not an allowance later. A program
        // closed before then needs no reminder, and this process no waiting.
        while case let left = due.timeIntervalSinceNow, left > 0 {
            usleep(useconds_t(min(left, 30) * 1_000_000))
            guard Self.isRunning(processID: processID, executable: executable) else { return }
        }
        guard Self.isRunning(processID: processID, executable: executable) else { return }
        // A server that never answers must not keep this process for ever.
        _ = notifier.post(notification).wait(seconds: 25)
    }

    /// Whether the program is still open: the process the gateway became
    /// (exec keeps its pid), or any process running the program's file.
    static func isRunning(processID: Int32, executable: String, proc: String = "/proc") -> Bool {
        if processID > 0, isAlive(processID, proc: proc) { return true }
        let target = realpath(executable) ?? executable
        let names = (try? FileManager.default.contentsOfDirectory(atPath: proc)) ?? []
        return names.contains { name in
            name.allSatisfy(\.isNumber) && realpath("\(proc)/\(name)/exe") == target
        }
    }

    /// Running, and not a zombie waiting for its parent.
    static func isAlive(_ pid: Int32, proc: String) -> Bool {
        ProcessStat(pid: pid, proc: proc)?.isLive == true
    }
}
