#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore

/// `miga uninstall`: everything MIGA wrote outside its own folder taken away.
extension Protection {
    /// Removes everything MIGA wrote outside its own folder (shims, menu
    /// overrides, hook lines it added, what lets a browser reach it) and its
    /// bookkeeping. The settings stay, every program's and site's rules with
    /// them, kept, so that protecting one again later finds them as they
    /// were; with `purge`, the history and the config go too. `letGo` runs
    /// once the rules are kept and before anything is removed: browsers
    /// connected now are told that no site is protected while they can
    /// still hear it. Returns what stays and where.
    public func uninstall(purge: Bool, letGo: () -> Void = {}) throws(MigaError) -> [String] {
        // The sites first: the programs are kept only once their routes are gone.
        try keepAll(sitesOnly: true)
        letGo()
        var manifest = Manifest(path: manifestPath)
        defer { try? manifest.save() }
        // A file MIGA made is looked at once its lines are gone.
        for entry in manifest.entries.sorted(by: { !isCreatedFile($0) && isCreatedFile($1) }) {
            try undo(entry, in: &manifest)
        }
        do { try manifest.save() } catch {
            throw MigaError("cannot update \(manifestPath): \(error)")
        }
        for folder in [shims.path, desktop.backups, login.backups, paths.dataDirectory + "/backups"] { rmdir(folder) }
        var remaining: [String] = []
        // Every program's rules stay, kept: protected no more until `miga protect NAME`.
        if !purge { try keepAll() }
        if purge {
            for folder in [paths.dataDirectory, paths.configDirectory] { try? FileManager.default.removeItem(atPath: folder) }
        } else {
            if access(paths.dataDirectory, F_OK) == 0 {
                remaining.append("Your history is kept in \(paths.dataDirectory) (miga uninstall --purge removes it).")
            }
            if access(paths.configFile, F_OK) == 0 {
                remaining.append("Your settings are kept in \(paths.configFile), every program's and site's rules with them: "
                                 + "miga protect NAME (or --site NAME) brings one back as it was.")
            }
        }
        for file in ShellHook.Shell.allCases.map({ $0.startupFile(environment: environment, paths: paths).path }) {
            if ShellHook.Shell.initLine(in: ((try? readTextFile(file)) ?? nil) ?? "") != nil {
                remaining.append("\(file) still runs `miga init` (a line MIGA did not write); remove it when miga is gone.")
            }
        }
        return remaining
    }

    /// Takes away one thing MIGA wrote, and its record.
    private func undo(_ entry: Manifest.Entry, in manifest: inout Manifest) throws(MigaError) {
        switch entry {
        case .shim(let path):
            try removeShim(baseName(of: path), from: &manifest)
        case .desktopEntry(let override):
            try overrides(at: override.path).remove(override, from: &manifest)
        case .service(let path, let program):
            try services.remove(path: path, program: program, from: &manifest)
        case .unit(let path):
            // The units that were enabled: stopped before they go.
            if let unit = [SystemdUnits.pathUnit, SyncTimer.timerUnit].first(where: { path.hasSuffix("/" + $0) }),
               SystemdUnits.userManagerRuns(environment: environment) {
                _ = SystemdUnits.systemctl(["disable", "--now", unit], environment: environment)
            }
            unlink(path)
            manifest.forget(entry)
        case .hookLine(let file, let line):
            do {
                try removeLine(line, from: file)
                manifest.forget(entry)
            } catch {
                throw MigaError("cannot remove the hook line from \(file): \(error)")
            }
        case .browserPart(let path):
            try? FileManager.default.removeItem(atPath: path)
            manifest.forget(entry)
        case .createdFile(let path):
            if let text = (try? readTextFile(path)) ?? nil, text.trimmingWhitespace().isEmpty { unlink(path) }
            manifest.forget(entry)
        }
    }

    private func isCreatedFile(_ entry: Manifest.Entry) -> Bool {
        if case .createdFile = entry { true } else { false }
    }

    /// Removes the lines equal to `line` from `file`, keeping everything else.
    private func removeLine(_ line: String, from file: String) throws(FileSystemError) {
        guard let text = try readTextFile(file) else { return }
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter { $0 != line }
        try atomicWrite(kept.joined(separator: "\n"), to: file, mode: 0o644)
    }
}
