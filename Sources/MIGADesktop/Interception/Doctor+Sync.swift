#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAStore

/// What doctor says of syncing: the timer, and each other machine's file
/// the last sync did not read to its end.
extension Doctor {
    func sync() -> [Finding] {
        var findings: [Finding] = []
        if let shared = protection.syncTimer.syncedFolder() {
            var info = stat()
            if stat(shared, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
                findings.append(Finding(ok: false, text: "sync: \(SyncTimer.timerUnit) syncs \(shared), which is not a folder",
                                        fix: "create it (or let your sync tool make it), or: miga sync --no-timer"))
            } else if SystemdUnits.userManagerRuns(environment: environment) {
                findings.append(Finding(ok: true, text: "sync: \(SyncTimer.timerUnit) syncs \(shared) every 15 minutes"))
            } else {
                findings.append(Finding(info: "sync: \(SyncTimer.timerUnit) would sync \(shared), but no systemd user manager "
                                        + "runs here; miga sync \(shared) syncs when you run it"))
            }
            // Two timers sync twice: harmless to the history, but not what anyone meant.
            for packaged in protection.syncTimer.packagedTimersEnabled() {
                findings.append(Finding(ok: false, text: "sync: \(printable(packaged)) is enabled too, and syncs on its own beside \(SyncTimer.timerUnit)",
                                        fix: "keep one: miga sync --no-timer, or: systemctl --user disable --now '\(printable(packaged))'"))
            }
        }
        guard let positions = try? SessionStore.reading(path: paths.storeFile).syncPositions() else { return findings }
        for (file, position) in positions {
            // A file that is gone since (its folder moved) says nothing now.
            guard let unread = position.unread, access(file, F_OK) == 0 else { continue }
            let shared = String(file.prefix(upTo: file.lastIndex(of: "/") ?? file.endIndex))
            var info = stat()
            let readable = stat(file, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(file, R_OK) == 0
            findings.append(Finding(ok: false, text: "sync: \(file) \(unread)",
                                    fix: readable ? "miga sync \(shared) reads on from where it stopped"
                                        : "it is another machine's file: mend it there (or remove this copy), then: miga sync \(shared)"))
        }
        return findings
    }
}
