#if canImport(Glibc)
import Glibc
#endif

/// Names one running process unambiguously, even after its pid is reused or the
/// machine reboots: the kernel's boot id, the pid, and the start time in clock
/// ticks since boot (field 22 of `/proc/PID/stat`).
///
/// An `open` session row carries the identity of its gateway, so the next run
/// can tell a gateway that was killed from one still showing its pause.
public struct ProcessIdentity: Equatable, Sendable, CustomStringConvertible {
    public let bootID: String
    public let pid: Int32
    public let startTicks: UInt64

    public init(bootID: String, pid: Int32, startTicks: UInt64) {
        self.bootID = bootID
        self.pid = pid
        self.startTicks = startTicks
    }

    /// This process.
    public static func current() -> ProcessIdentity {
        let pid = getpid()
        return ProcessIdentity(bootID: currentBootID, pid: pid, startTicks: startTicks(of: pid) ?? 0)
    }

    /// Whether the process this identity names is still alive (not a zombie).
    public var isRunning: Bool {
        bootID == Self.currentBootID && Self.startTicks(of: pid) == startTicks
    }

    /// `boot-id/pid/start-ticks`, as stored in the session row.
    public var description: String { "\(bootID)/\(pid)/\(startTicks)" }

    public init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 3, let pid = Int32(parts[1]), let ticks = UInt64(parts[2]) else { return nil }
        self.init(bootID: String(parts[0]), pid: pid, startTicks: ticks)
    }

    package static let currentBootID: String = {
        let text = (try? readTextFile("/proc/sys/kernel/random/boot_id")) ?? nil
        return text?.trimmingWhitespace().replacingNewlines() ?? "unknown-boot"
    }()

    /// The start time of a live process, or nil when there is none (or only a zombie).
    static func startTicks(of pid: Int32) -> UInt64? {
        guard let stat = ProcessStat(pid: pid), stat.isLive else { return nil }
        return stat.startTicks
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        String(filter { $0 != "\n" })
    }
}
