#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAStore
import MIGAConfig

/// One thing `miga doctor` looked at.
public struct Finding: Equatable, Sendable {
    public let ok: Bool
    public let text: String
    /// One line that puts it right, when it is not.
    public let fix: String?
    /// Worth knowing, and nothing to put right (a shell installed but not in
    /// use, a program whose rules are kept): never a problem.
    public let info: Bool

    public init(ok: Bool, text: String, fix: String? = nil) {
        self.ok = ok
        self.text = text
        self.fix = fix
        info = false
    }

    /// Information: fine as it is.
    public init(info text: String) {
        ok = true
        self.text = text
        fix = nil
        info = true
    }

    /// How doctor marks it: ✓ well, ✗ a problem, · information.
    public var mark: String { info ? "·" : ok ? "✓" : "✗" }
}

/// Checks that every route to the gateway works in this shell and desktop.
public struct Doctor {
    public let protection: Protection
    /// Asks the session bus for a notification server's name; nil when none answers in time.
    public let notificationServer: () -> String?

    public init(protection: Protection, notificationServer: @escaping () -> String? = { LibnotifyNotifier.serverName(within: 1) }) {
        self.protection = protection
        self.notificationServer = notificationServer
    }

    var environment: [String: String] { protection.environment }
    var paths: XDGPaths { protection.paths }

    public func examine() -> [Finding] {
        let loaded = ConfigLoader.load(from: paths.configFile)
        var findings = loaded.problems.map {
            Finding(ok: false, text: "config: \($0.description)", fix: "edit \(paths.configFile) at that line")
        }
        if findings.isEmpty {
            findings.append(Finding(ok: true, text: "config: \(paths.configFile) reads cleanly"))
        }
        findings.append(store())
        findings += sync()
        if let leaks = leaks(loaded.config) { findings.append(leaks) }
        findings += routes(loaded.config, readable: loaded.unreadable == nil)
        findings.append(pauseWindow())
        findings.append(notifications(loaded.config))
        return findings
    }

    /// Launches that went around the pause in the last week, with their
    /// routes: those recorded, and those running now that no run recorded
    /// yet, counted without writing them (see `Upkeep`).
    private func leaks(_ config: Config) -> Finding? {
        // With no history yet: an empty one in memory, to count the launches running now.
        guard let store = try? SessionStore.reading(path: paths.storeFile),
              let recorded = try? store.leaks(since: Date().addingTimeInterval(-7 * 86_400)) else { return nil }
        let leaks = recorded + protection.unrecordedLeaks(around: store, config: config)
        guard !leaks.isEmpty else { return nil }
        // Each way around once, in the order first taken, with how often.
        var times: [String: Int] = [:]
        var ways: [String] = []
        for name in leaks.map({ "\($0.program) \($0.route)" }) {
            if times[name] == nil { ways.append(name) }
            times[name, default: 0] += 1
        }
        let named = ways.map { way in times[way].map { $0 > 1 ? "\(way) (\($0) times)" : way } ?? way }
        return Finding(ok: false, text: "leaks: \(leaks.count) launch\(leaks.count == 1 ? "" : "es") went around the pause in the last 7 days ("
                                            + named.joined(separator: "; ") + ")",
                       fix: leaks.contains { if case .login = $0.route { true } else if case .menu = $0.route { true } else { false } }
                           ? "miga refresh puts the pause in front of login starts and menu entries that appeared since; miga list --routes shows each route"
                           : "miga list --routes shows each program's routes; a program started by its path, or by a launcher MIGA does not cover, walks around them")
    }

    private func store() -> Finding {
        guard access(paths.storeFile, F_OK) == 0 else {
            return Finding(ok: true, text: "history: none yet (it starts with the first pause)")
        }
        do {
            let store = try SessionStore.reading(path: paths.storeFile)
            let check = try store.integrityCheck()
            guard check == "ok" else {
                return Finding(ok: false, text: "history: \(paths.storeFile) is damaged (\(check))",
                               fix: "move it aside (mv \(paths.storeFile) \(paths.storeFile).damaged); a new one starts")
            }
            return Finding(ok: true, text: "history: \(paths.storeFile) is healthy (\(try store.sessions().count) runs)")
        } catch where SessionStore.isDamage(error) {
            return Finding(ok: false, text: "history: \(paths.storeFile) is damaged (\(SessionStore.describe(error)))",
                           fix: "move it aside (mv \(paths.storeFile) \(paths.storeFile).damaged); a new one starts")
        } catch {
            return Finding(ok: false, text: "history: \(paths.storeFile) cannot be opened (\(error))",
                           fix: "move it aside (mv \(paths.storeFile) \(paths.storeFile).damaged); a new one starts")
        }
    }

    private func routes(_ config: Config, readable: Bool) -> [Finding] {
        let (rcFile, rcLine) = protection.hookLine()
        let hookFix = "add this line to \(rcFile), then open a new shell:  \(rcLine)"
        var findings = shell(hookFix: hookFix)
        findings += programs(config, readable: readable)
        for override in Manifest(path: protection.manifestPath).menuOverrides() {
            findings.append(menuOverride(override))
        }
        findings += coverage()
        findings += unreadableRoutes(config)
        if protection.isStale {
            findings.append(Finding(ok: false, text: "routes: an application, login or D-Bus service folder changed since the last refresh; new entries may open without a pause",
                                    fix: "miga refresh"))
        }
        return findings
    }

    /// The shim folder on PATH and the shells' hooks that put it there.
    private func shell(hookFix: String) -> [Finding] {
        let shimFolder = protection.shims.path
        var findings: [Finding] = []
        if let problem = protection.shims.folderProblem {
            findings.append(Finding(ok: false, text: "shell: the shim folder \(shimFolder) \(problem)",
                                    fix: "move it aside (mv \(shimFolder) \(shimFolder).moved), then: miga doctor --fix"))
        }
        if protection.shims.folderProblem == nil {
            findings.append(protection.shimFolderIsOnPath
                ? Finding(ok: true, text: "shell: the shim folder is on PATH")
                : Finding(ok: false, text: "shell: the shim folder \(shimFolder) is not on PATH in this shell", fix: hookFix))
        }
        if let hook = protection.hookOffer() {
            let line = ShellHook.Shell.initLine(in: ((try? readTextFile(hook.file)) ?? nil) ?? "")
            if let line, let problem = protection.hookProblem(line) {
                findings.append(Finding(ok: false, text: "shell: \(hook.file) \(problem)",
                                        fix: protection.isHookLineOfMIGAs(line, in: hook.file) ? "miga doctor --fix" : hookFix))
            } else {
                findings.append(line != nil
                    ? Finding(ok: true, text: "shell: \(hook.file) runs miga init")
                    : Finding(ok: false, text: "shell: \(hook.file) does not run miga init", fix: hookFix))
            }
        }
        // A shell nobody here uses: typing in it starts nothing, so its hook is news, not a gap.
        for idle in protection.idleShells() {
            findings.append(Finding(info: "shell: \(idle.shell.rawValue) is installed but not in use here (no \(idle.file)); "
                                    + "if you start using it, add this line there:  \(idle.line)"))
        }
        return findings
    }

    /// Each protected program: whether typing it reaches the gateway.
    private func programs(_ config: Config, readable: Bool) -> [Finding] {
        var findings: [Finding] = []
        let onPath = protection.shimFolderIsOnPath
        if !readable {
            findings.append(Finding(ok: false, text: "programs: not known while the config cannot be read; the shims still pause what they name",
                                    fix: "mend \(paths.configFile) (see the config line above)"))
        } else if config.programs.isEmpty {
            findings.append(Finding(ok: true, text: "programs: none protected yet (miga protect NAME)"))
        }
        for status in protection.list() {
            let command = status.settings.command
            guard !status.kept else {
                findings.append(Finding(info: "\(printable(command)): \(Protection.keptNote(command))"))
                continue
            }
            guard status.installed else {
                findings.append(Finding(ok: false, text: "\(command): protected but not installed",
                                        fix: "install it, or: miga unprotect \(command)"))
                continue
            }
            // A Flatpak app is reached through its menu entries, each checked below.
            guard status.realProgram != nil else {
                findings.append(Finding(ok: true, text: "\(command): reaches the gateway from the application menu"))
                continue
            }
            if let problem = protection.shimProblem(command) {
                findings.append(Finding(ok: false, text: "\(command): its shim \(problem)", fix: protection.shimFix))
                continue
            }
            if onPath && !status.shell {
                let runs = protection.firstOnPath(command) ?? "nothing"
                findings.append(Finding(ok: false, text: "\(command): typing it runs \(runs), not the gateway",
                                        fix: "move the miga hook line below other PATH changes in your shell's start-up file"))
                continue
            }
            findings.append(Finding(ok: true, text: "\(command): reaches the gateway"
                + (status.desktopEntries.isEmpty ? "" : " (and from the application menu)")))
        }
        return findings
    }

    /// Every route of each program, counted: the shells' hooks, the shim, each entry, login start and service.
    private func coverage() -> [Finding] {
        protection.coverage().map { coverage in
            let missing = coverage.routes.filter { !$0.reaches }
            let named = missing.map { "\($0.kind.rawValue) \($0.place) \($0.problem ?? "")" }
            // Each fix once, in the order of the routes it puts right.
            var fixes: [String] = []
            for fix in missing.compactMap(\.fix) where !fixes.contains(fix) { fixes.append(fix) }
            return Finding(ok: missing.isEmpty, text: coverage.summary + (missing.isEmpty ? "" : " (not: " + named.joined(separator: "; ") + ")"),
                           fix: fixes.isEmpty ? nil : fixes.joined(separator: "; "))
        }
    }

    /// Files that would start a program and cannot be read, so MIGA cannot put the pause in front of them.
    private func unreadableRoutes(_ config: Config) -> [Finding] {
        var findings: [Finding] = []
        for command in protection.protectedOnly(config).programs.keys.sorted() {
            for (path, reason) in protection.unreadableRoutes(for: command) {
                findings.append(Finding(ok: false, text: "\(command): \(path) cannot be read (\(reason)); MIGA leaves it alone, so it may start \(command) without a pause",
                                        fix: "mend or remove it, then: miga refresh"))
            }
        }
        return findings
    }

    /// What a menu override does, read as a launcher reads it.
    private func menuOverride(_ override: Manifest.MenuOverride) -> Finding {
        let path = override.path
        let fix = "miga doctor --fix"
        let place = protection.overrides(at: path).place == .login ? "login" : "menu"
        switch protection.overrides(at: override.path).state(of: override) {
        case .inPlace(let source):
            return Finding(ok: true, text: "\(place): \(path) starts the pause, then \(override.program) as \(source) says")
        case .editedByHand(true):
            return Finding(ok: true, text: "\(place): \(path) was edited by hand; kept as it is, and it still starts the pause")
        case .editedByHand(false):
            return Finding(ok: false, text: "\(place): \(path) was edited by hand and no longer starts the pause; MIGA leaves it alone",
                           fix: "delete it, then: miga doctor --fix (MIGA writes its own again)")
        case .disowned:
            return Finding(ok: false, text: "\(place): \(path) no longer carries MIGA's mark, so the menu opens \(override.program) without a pause",
                           fix: "delete it or rename it, then: miga doctor --fix")
        case .sourceGone:
            return Finding(ok: false, text: "\(place): \(path) stands for an entry that is gone (was \(override.program) removed?)",
                           fix: "\(fix) (removes the override)")
        case .backupGone(let backup):
            return Finding(ok: false, text: "\(place): your own entry set aside for \(path) at \(backup) is gone; unprotecting cannot put it back",
                           fix: "\(fix) (forgets it)")
        case let state:
            return Finding(ok: false, text: "\(place): \(path) \(state.summary)", fix: fix)
        }
    }

    private func notifications(_ config: Config) -> Finding {
        guard config.notifications else { return Finding(ok: true, text: "notifications: off (notifications = false)") }
        guard let name = notificationServer() else {
            return Finding(ok: false, text: "notifications: no notification server answered within a second; celebrations stay on screen",
                           fix: "run your desktop's notification service (or dunst), or set notifications = false")
        }
        return Finding(ok: true, text: "notifications: \(name) is listening")
    }
}
