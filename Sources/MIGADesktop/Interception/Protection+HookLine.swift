#if canImport(Glibc)
import Glibc
#endif
import MIGACore

/// The line in a shell's start-up file that runs `miga init`: which line,
/// where, whether it is there and reaches a live miga, adding it, and
/// writing again one of MIGA's that names a miga that is gone.
extension Protection {
    /// The hook line for the shell in `$SHELL`, and whether its start-up file runs it already.
    public func hookOffer() -> HookOffer? {
        // No $SHELL: bash's file, as the hook line says; a shell MIGA has no hook for: no offer.
        guard let shell = environment["SHELL"] == nil ? .bash : ShellHook.Shell(loginShell: environment["SHELL"]) else { return nil }
        let (file, shown) = shell.startupFile(environment: environment, paths: paths)
        let present = ShellHook.Shell.initLine(in: ((try? readTextFile(file)) ?? nil) ?? "") != nil
        return HookOffer(shownFile: shown, file: file, line: hookLine(for: shell), present: present)
    }

    /// Appends the hook line to the shell's start-up file, remembering it for `uninstall`.
    public func addHookLine(_ hook: HookOffer) throws(MigaError) {
        let created = access(hook.file, F_OK) != 0
        let existing = ((try? readTextFile(hook.file)) ?? nil) ?? ""
        let text = existing + (existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n") + hook.line + "\n"
        do {
            try atomicWrite(text, to: hook.file, mode: 0o644)
            var manifest = Manifest(path: manifestPath)
            if created { manifest.record(.createdFile(path: hook.file)) }
            manifest.record(.hookLine(file: hook.file, line: hook.line))
            try manifest.save()
        } catch {
            throw MigaError("cannot add the hook line to \(hook.file): \(error)")
        }
    }

    /// When the shim folder is not on this shell's PATH: the one line to add,
    /// for the shell in `$SHELL`.
    public func pathHint() -> String? {
        if shimFolderIsOnPath { return nil }
        if let hook = hookOffer(), hook.present {
            return "\(hook.shownFile) runs miga init already: in a new shell, typing the name reaches the pause."
        }
        let (file, line) = hookLine()
        return "To reach the pause by typing the name, add this line to \(file) and open a new shell:\n  \(line)"
    }

    /// The start-up file of the shell in `$SHELL` (bash's when it is none
    /// MIGA knows), as a person writes it, and the hook line it needs.
    public func hookLine() -> (file: String, line: String) {
        let shell = ShellHook.Shell(loginShell: environment["SHELL"]) ?? .bash
        return (shell.startupFile(environment: environment, paths: paths).shown, hookLine(for: shell))
    }

    /// The hook line for `shell`: `miga` by name when this PATH finds this
    /// miga, else its path (a new shell may not have its folder on PATH; the
    /// hook then puts it there, so `miga` works by name from then on).
    public func hookLine(for shell: ShellHook.Shell) -> String {
        let found = ProgramResolver(searchPath: environment["PATH"]).resolve("miga").flatMap(FileIdentity.init(path:))
        return shell.hookLine(miga: found != nil && found == FileIdentity(path: shims.gateway) ? "miga" : shims.gateway)
    }

    /// Whether `line` in `file` is a hook line MIGA wrote there.
    public func isHookLineOfMIGAs(_ line: String, in file: String) -> Bool {
        Manifest(path: manifestPath).entries.contains(.hookLine(file: file, line: line))
    }

    /// The person's login shell: `$SHELL`, which the login sets from the
    /// passwd entry, else that entry itself; nil when it is none MIGA has a hook for.
    var loginShell: ShellHook.Shell? {
        if let named = environment["SHELL"], !named.isEmpty { return ShellHook.Shell(loginShell: named) }
        guard let entry = getpwuid(getuid()), let shell = entry.pointee.pw_shell else { return nil }
        return ShellHook.Shell(loginShell: String(cString: shell))
    }

    /// The shells installed here (on PATH), each with whether this person
    /// uses it: their login shell, and a shell whose start-up file exists. A
    /// shell that is only installed is no way in: typing in it is something
    /// nobody does here, so its hook is information, not a missing route.
    func installedShells() -> [(shell: ShellHook.Shell, inUse: Bool)] {
        let resolver = ProgramResolver(searchPath: environment["PATH"])
        let login = loginShell
        return ShellHook.Shell.allCases.filter { resolver.resolve($0.rawValue) != nil }.map { shell in
            (shell, shell == login || access(shell.startupFile(environment: environment, paths: paths).path, F_OK) == 0)
        }
    }

    /// The shells installed but not in use, each with its start-up file as a
    /// person writes it and the line that would hook it, for doctor's information.
    public func idleShells() -> [(shell: ShellHook.Shell, file: String, line: String)] {
        installedShells().filter { !$0.inUse }.map { ($0.shell, $0.shell.startupFile(environment: environment, paths: paths).shown,
                                                       hookLine(for: $0.shell)) }
    }

    /// Hook lines MIGA wrote that run a miga that is gone, written again for this one.
    func repairHookLines(in manifest: inout Manifest) -> [String] {
        var done: [String] = []
        for case .hookLine(let file, let line) in manifest.entries where hookProblem(line) != nil {
            guard let shell = ShellHook.Shell.allCases.first(where: { $0.startupFile(environment: environment, paths: paths).path == file }),
                  let text = (try? readTextFile(file)) ?? nil else { continue }
            let replacement = hookLine(for: shell)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0 == line ? replacement : String($0) }
            do {
                try atomicWrite(lines.joined(separator: "\n"), to: file, mode: 0o644)
            } catch {
                continue
            }
            manifest.forget(.hookLine(file: file, line: line))
            manifest.record(.hookLine(file: file, line: replacement))
            done.append("Wrote the hook line in \(file) again: \(replacement)")
        }
        return done
    }
}
