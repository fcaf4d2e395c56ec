#if canImport(Glibc)
import Glibc
#endif

/// One thing `miga doctor` looked at.
public struct Finding: Equatable, Sendable {
    public let ok: Bool
    public let text: String
    /// One line that puts it right, when it is not.
    public let fix: String?

    public init(ok: Bool, text: String, fix: String? = nil) {
        self.ok = ok
        self.text = text
        self.fix = fix
    }
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
        findings += routes(loaded.config)
        findings.append(notifications(loaded.config))
        return findings
    }

    private func store() -> Finding {
        guard access(paths.storeFile, F_OK) == 0 else {
            return Finding(ok: true, text: "history: none yet (it starts with the first pause)")
        }
        do {
            let store = try SessionStore(path: paths.storeFile)
            let check = try store.integrityCheck()
            guard check == "ok" else {
                return Finding(ok: false, text: "history: \(paths.storeFile) is damaged (\(check))",
                               fix: "move it aside (mv \(paths.storeFile) \(paths.storeFile).damaged); a new one starts")
            }
            return Finding(ok: true, text: "history: \(paths.storeFile) is healthy (\(try store.sessions().count) runs)")
        } catch {
            return Finding(ok: false, text: "history: \(paths.storeFile) cannot be opened (\(error))",
                           fix: "move it aside (mv \(paths.storeFile) \(paths.storeFile).damaged); a new one starts")
        }
    }

    private func routes(_ config: Config) -> [Finding] {
        let shimFolder = protection.shims.path
        let shell = environment["SHELL"]?.split(separator: "/").last.map(String.init) ?? "bash"
        let (rcFile, rcLine) = protection.hookLine()
        let hookFix = "add this line to \(rcFile), then open a new shell:  \(rcLine)"
        var findings: [Finding] = []
        let onPath = (environment["PATH"] ?? "").split(separator: ":").contains { $0 == shimFolder }
        findings.append(onPath
            ? Finding(ok: true, text: "shell: the shim folder is on PATH")
            : Finding(ok: false, text: "shell: the shim folder \(shimFolder) is not on PATH in this shell", fix: hookFix))
        if let (file, hasHook) = hookFile(for: shell) {
            findings.append(hasHook
                ? Finding(ok: true, text: "shell: \(file) runs miga init")
                : Finding(ok: false, text: "shell: \(file) does not run miga init", fix: hookFix))
        }
        if config.programs.isEmpty {
            findings.append(Finding(ok: true, text: "programs: none protected yet (miga protect NAME)"))
        }
        for status in protection.list() {
            let command = status.settings.command
            guard status.realProgram != nil else {
                findings.append(Finding(ok: false, text: "\(command): protected but not installed",
                                        fix: "install it, or: miga unprotect \(command)"))
                continue
            }
            guard status.shim else {
                findings.append(Finding(ok: false, text: "\(command): its shim is missing or points to a miga that is gone",
                                        fix: "miga protect \(command)"))
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
        for entry in Manifest(path: protection.manifestPath).entries {
            guard case .desktopEntry(let path, _, let program) = entry else { continue }
            findings.append(desktopEntry(path, program: program))
        }
        return findings
    }

    private func desktopEntry(_ path: String, program: String) -> Finding {
        guard let text = (try? readTextFile(path)) ?? nil, let entry = try? DesktopEntry(text: text),
              let exec = entry.value("Exec"), case .text(let gateway)? = try? DesktopExec.split(exec).first else {
            return Finding(ok: false, text: "menu: \(path) is missing or unreadable", fix: "miga protect \(program)")
        }
        guard access(gateway, X_OK) == 0 else {
            return Finding(ok: false, text: "menu: \(path) starts \(gateway), which is gone", fix: "miga protect \(program)")
        }
        return Finding(ok: true, text: "menu: \(path) is in place")
    }

    private func notifications(_ config: Config) -> Finding {
        guard config.notifications else { return Finding(ok: true, text: "notifications: off (notifications = false)") }
        guard let name = notificationServer() else {
            return Finding(ok: false, text: "notifications: no notification server answered within a second; celebrations stay on screen",
                           fix: "run your desktop's notification service (or dunst), or set notifications = false")
        }
        return Finding(ok: true, text: "notifications: \(name) is listening")
    }

    /// The start-up file of `shell` and whether it runs `miga init`.
    private func hookFile(for shell: String) -> (String, Bool)? {
        let home = environment["HOME"] ?? ""
        let file: String
        switch shell {
        case "bash": file = home + "/.bashrc"
        case "zsh": file = (environment["ZDOTDIR"] ?? home) + "/.zshrc"
        case "fish": file = paths.configHome + "/fish/config.fish"
        default: return nil
        }
        let text = ((try? readTextFile(file)) ?? nil) ?? ""
        return (file, text.contains("miga init"))
    }
}
