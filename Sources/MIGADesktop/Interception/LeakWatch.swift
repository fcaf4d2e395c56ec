#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore

/// One bounded pass over `/proc`, looking for leaks.
///
/// Per process it costs a `stat` of its folder (is it the person's?) and a
/// `stat` of its executable (is it a protected program's?); a process of a
/// protected program has its environment, parent and command line read, and
/// so has one of the interpreters that run a protected script (which script?).
/// A process that vanishes mid-read, or whose files cannot be read (another
/// user's), is skipped, never reported.
public struct LeakWatch: Sendable {
    public let proc: String
    public let uid: uid_t
    /// At most this many processes are looked at in one pass.
    public static let processLimit = 20_000

    public init(proc: String = "/proc", uid: uid_t = getuid()) {
        self.proc = proc
        self.uid = uid
    }

    /// The leaks among the running processes of `programs`.
    public func look(for programs: [WatchedProgram]) -> [Leak] {
        var byExecutable: [FileIdentity: WatchedProgram] = [:]
        var byScript: [FileIdentity: WatchedProgram] = [:]
        var interpreters: Set<FileIdentity> = []
        // Where two protected programs share a file, the first one named keeps it.
        for program in programs {
            for identity in program.executables where byExecutable[identity] == nil { byExecutable[identity] = program }
            for identity in program.scripts where byScript[identity] == nil { byScript[identity] = program }
            interpreters.formUnion(program.interpreters)
        }
        guard !byExecutable.isEmpty || !byScript.isEmpty, let folder = opendir(proc) else { return [] }
        defer { closedir(folder) }
        var candidates: [Candidate] = []
        var seen = 0
        while let entry = readdir(folder), seen < Self.processLimit {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid > 0 else { continue }
            seen += 1
            var info = stat()
            guard stat("\(proc)/\(pid)", &info) == 0, info.st_uid == uid,
                  let executable = FileIdentity(path: "\(proc)/\(pid)/exe") else { continue }
            if let program = byExecutable[executable] {
                // A binary a launcher script handed over to is named by the
                // script's own path for it, which says nothing of the route.
                candidates.append(Candidate(pid: pid, program: program, arguments: commandLine(of: pid) ?? [],
                                            pathTells: !program.handedOver.contains(executable)))
                continue
            }
            // A script runs as its interpreter, the script among the first
            // arguments (after the interpreter's own options), named by the
            // full path the kernel found it at: that path tells no route.
            guard interpreters.contains(executable), let arguments = commandLine(of: pid),
                  let index = arguments.indices.dropFirst().prefix(3).first(where: { arguments[$0].contains("/") &&
                      FileIdentity(path: arguments[$0]).map { byScript[$0] != nil } == true }),
                  let script = FileIdentity(path: arguments[index]), let program = byScript[script] else { continue }
            candidates.append(Candidate(pid: pid, program: program, arguments: Array(arguments[index...]), pathTells: false))
        }
        var pidsByProgram: [String: Set<Int32>] = [:]
        for candidate in candidates { pidsByProgram[candidate.program.command, default: []].insert(candidate.pid) }
        let bootTime = Self.bootTime(proc: proc)
        return candidates.compactMap { candidate in
            let pid = candidate.pid
            guard let environment = read("\(proc)/\(pid)/environ"), let stat = ProcessStat(pid: pid, proc: proc), stat.isLive,
                  let ticks = stat.startTicks else { return nil }
            if Self.startedByItsGate(environment, program: candidate.program.command) { return nil }
            // A child of a process of the same program is part of that launch, not another one.
            let parent = stat.parent
            if let parent, pidsByProgram[candidate.program.command]?.contains(parent) == true { return nil }
            let startedAt = bootTime.map { Date(timeIntervalSince1970: $0 + Double(ticks) / Double(Self.ticksPerSecond)) }
            let launched = MenuLaunch(environment: environment)
            return Leak(program: candidate.program.command,
                        process: ProcessIdentity(bootID: ProcessIdentity.currentBootID, pid: pid, startTicks: ticks),
                        route: route(of: candidate, parent: parent, menu: launched), startedAt: startedAt, menuEntry: launched?.entry)
        }
    }

    /// Whether a process carries the mark of a gateway of `program`: every
    /// process a gateway starts inherits it, so a different protected program
    /// started from inside a gated one (a browser opened by path from a mail
    /// client that went through its pause) carries a mark, but not its own.
    /// A mark that names no program is an older gateway's, taken as it was.
    static func startedByItsGate(_ environment: String, program: String) -> Bool {
        let variables = environment.split(separator: "\0")
        return value(of: GateMarks.launch, in: variables) != nil
            && (value(of: GateMarks.program, in: variables).map { $0 == program } ?? true)
    }

    /// The value of `name` among a process's variables (`NAME=value`), if it is set.
    static func value(of name: String, in variables: [Substring]) -> Substring? {
        variables.first { $0.hasPrefix(name + "=") }.map { $0.dropFirst(name.count + 1) }
    }

    /// What GLib's launchers (gio, gtk-launch, GNOME's and others' menus)
    /// leave in the environment of what they start: the entry, and the pid
    /// they started. A child inherits both, with a pid not its own.
    struct MenuLaunch: Equatable {
        let entry: String
        let pid: Int32?

        init?(environment: String) {
            let variables = environment.split(separator: "\0")
            guard let entry = LeakWatch.value(of: "GIO_LAUNCHED_DESKTOP_FILE", in: variables), !entry.isEmpty else { return nil }
            self.entry = String(entry)
            pid = LeakWatch.value(of: "GIO_LAUNCHED_DESKTOP_FILE_PID", in: variables).flatMap { Int32($0) }
        }
    }

    /// Launchers of menu entries, by process name (cut to 15 bytes by the
    /// kernel): the command-line ones and the desktops' own menus and panels.
    static let menuLaunchers: Set<String> = [
        "gio", "gtk-launch", "gtk4-launch", "dex", "kioclient", "kioclient5", "kioclient6", "exo-open", "kstart", "kstart5",
        "gnome-shell", "plasmashell", "krunner", "xfce4-panel", "xfdesktop", "xfce4-appfinder", "mate-panel", "budgie-panel",
        "cinnamon", "lxpanel", "lxqt-panel", "wf-panel", "nwg-drawer", "rofi", "wofi", "fuzzel",
    ]

    /// A process found running a protected program, before its environment is read.
    struct Candidate {
        let pid: Int32
        let program: WatchedProgram
        /// Its command line from the program on (an interpreter's own words dropped).
        let arguments: [String]
        /// Whether a path as its first word is how it was started (not a
        /// script's path as the kernel found it, nor a launcher script's own).
        let pathTells: Bool
    }

    /// How the process was most likely started: a login start (run as one of
    /// systemd's autostart units, or with a login start's exact command line
    /// by a launcher that has exited), by its path, or by a launcher still running.
    func route(of candidate: Candidate, parent: Int32?, menu: MenuLaunch? = nil) -> LeakRoute {
        let arguments = candidate.arguments
        // Orphans belong to init, or to the person's service manager.
        let launcherGone = parent == nil || parent == 1 || processName(of: parent ?? 1) == "systemd"
        let cgroup = read("\(proc)/\(candidate.pid)/cgroup") ?? ""
        if cgroup.contains("@autostart.service") || cgroup.contains("-autostart.service") {
            return .login(printable(arguments.joined(separator: " ")))
        }
        if launcherGone, let start = candidate.program.loginStarts.first(where: { Self.same($0, arguments) }) {
            return .login(printable(start.joined(separator: " ")))
        }
        // Started by a menu's launcher: the path in its command line is the entry's, not one typed.
        if let menu, menu.pid == candidate.pid || (menu.pid != nil && menu.pid == parent) { return .menu(printable(menu.entry)) }
        let launcherLine = launcherGone ? nil : parent.flatMap(commandLine(of:)).flatMap { $0.isEmpty ? nil : $0 }
        if let parent, let launcherLine, let name = processName(of: parent), Self.menuLaunchers.contains(name) {
            return .menu(printable(launcherLine.joined(separator: " ")))
        }
        if candidate.pathTells, let first = arguments.first, first.contains("/") { return .path(printable(first)) }
        if let launcherLine { return .launcher(printable(launcherLine.joined(separator: " "))) }
        return .unknown
    }

    /// Whether a process's arguments are a login start's command line: the
    /// same arguments, and the same program (by file, or by name).
    static func same(_ start: [String], _ arguments: [String]) -> Bool {
        guard let program = start.first, let running = arguments.first, Array(start.dropFirst()) == Array(arguments.dropFirst()) else {
            return false
        }
        if let a = FileIdentity(path: program), let b = FileIdentity(path: running) { return a == b }
        return baseName(of: program) == baseName(of: running)
    }

    /// A process's name (its program's file name, cut to 15 bytes by the kernel).
    func processName(of pid: Int32) -> String? {
        read("\(proc)/\(pid)/comm")?.split(separator: "\n").first.map(String.init)
    }

    /// A process's command line, its arguments in order; nil when it is gone.
    func commandLine(of pid: Int32) -> [String]? {
        guard let text = read("\(proc)/\(pid)/cmdline") else { return nil }
        // Each argument ends in a NUL; a process that rewrote its title may leave none.
        let arguments = text.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        return text.hasSuffix("\0") ? Array(arguments.dropLast()) : arguments
    }

    /// When the machine started (`btime` in /proc/stat), in seconds since
    /// 1970. `btime` is whole seconds; when the boot clock agrees with it (this
    /// machine's /proc), the instant it gives instead, so that a start is told
    /// to a clock tick, as `protect` a moment before is.
    static func bootTime(proc: String) -> Double? {
        guard let text = (try? readTextFile("\(proc)/stat")) ?? nil,
              let whole = text.split(separator: "\n").first(where: { $0.hasPrefix("btime ") })
                  .flatMap({ Double(String($0.dropFirst(6)).trimmingWhitespace()) }) else { return nil }
        var sinceBoot = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &sinceBoot) == 0 else { return whole }
        let instant = Date().timeIntervalSince1970 - (Double(sinceBoot.tv_sec) + Double(sinceBoot.tv_nsec) / 1e9)
        return abs(instant - whole) < 2 ? instant : whole
    }

    static let ticksPerSecond = max(1, sysconf(Int32(_SC_CLK_TCK)))

    /// A small file of /proc, or nil when it is gone or not ours to read.
    private func read(_ path: String) -> String? {
        (try? readTextFile(path, limit: 262_144)) ?? nil
    }
}
