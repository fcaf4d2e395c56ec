#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A launch of a protected program that went around the pause: a process of
/// the person's own whose program is protected and whose environment carries
/// no mark of the gateway. Everything a gateway starts (after a Proceed, a
/// pass-through, an allowance) inherits `MIGA_GATE_PID`, and so do its
/// children; nothing else has it.
public struct Leak: Equatable, Sendable {
    public let program: String
    /// The process, unambiguously (boot id, pid, start time).
    public let process: ProcessIdentity
    /// The parent's command line when it was seen: the likely route (`dex -a`,
    /// `bash`), or nil when the parent is gone (the launcher exited; the
    /// process now belongs to init).
    public let route: String?
}

/// One bounded pass over `/proc`, looking for leaks.
///
/// Per process it costs a `stat` of its folder (is it the person's?) and a
/// read of its 16-byte `comm`; only a process named like a protected program
/// has its environment and parent read. A process that vanishes mid-read, or
/// whose files cannot be read (another user's), is skipped, never reported.
public struct LeakWatch: Sendable {
    public let proc: String
    public let uid: uid_t
    /// At most this many processes are looked at in one pass.
    public static let processLimit = 20_000

    public init(proc: String = "/proc", uid: uid_t = getuid()) {
        self.proc = proc
        self.uid = uid
    }

    /// The leaks among the running processes of `programs` (commands).
    public func look(for programs: [String]) -> [Leak] {
        // A process's `comm` is its program's file name, cut to 15 bytes.
        var byName: [String: String] = [:]
        for program in programs { byName[String(decoding: program.utf8.prefix(15), as: UTF8.self)] = program }
        guard !byName.isEmpty, let folder = opendir(proc) else { return [] }
        defer { closedir(folder) }
        var candidates: [(pid: Int32, program: String)] = []
        var seen = 0
        while let entry = readdir(folder), seen < Self.processLimit {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid > 0 else { continue }
            seen += 1
            var info = stat()
            guard stat("\(proc)/\(pid)", &info) == 0, info.st_uid == uid,
                  let comm = read("\(proc)/\(pid)/comm")?.trimmingWhitespace().replacingOccurrences(of: "\n", with: ""),
                  let program = byName[comm] else { continue }
            candidates.append((pid, program))
        }
        let pids = Set(candidates.map(\.pid))
        return candidates.compactMap { pid, program in
            guard let environment = read("\(proc)/\(pid)/environ"), let stat = ProcessStat(pid: pid, proc: proc), stat.isLive,
                  let ticks = stat.startTicks else { return nil }
            if environment.split(separator: "\0").contains(where: { $0.hasPrefix(Gateway.launchVariable + "=") }) { return nil }
            // A child of a process of the same program is part of that launch, not another one.
            let parent = stat.parent
            if let parent, pids.contains(parent) { return nil }
            let route = parent.flatMap { read("\(proc)/\($0)/cmdline") }.map {
                $0.split(separator: "\0").map(String.init).joined(separator: " ")
            }.flatMap { $0.isEmpty ? nil : printable($0) }
            return Leak(program: program, process: ProcessIdentity(bootID: ProcessIdentity.currentBootID, pid: pid, startTicks: ticks),
                        route: parent == 1 ? nil : route)
        }
    }

    /// A small file of /proc, or nil when it is gone or not ours to read.
    private func read(_ path: String) -> String? {
        (try? readTextFile(path, limit: 262_144)) ?? nil
    }
}

extension Protection {
    /// Looks once for launches of protected programs that went around the
    /// pause, and records the new ones in `store`. Returns how many were new.
    @discardableResult
    public func recordLeaks(in store: SessionStore, now: Date = Date()) -> Int {
        let programs = ConfigLoader.load(from: paths.configFile).config.programs.keys.sorted()
        return (try? store.recordLeaks(LeakWatch().look(for: programs), at: now)) ?? 0
    }
}
