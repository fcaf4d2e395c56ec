#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore

/// Keeping every route current as the desktop changes: a package adds a
/// second entry, Steam writes a shortcut per game, a Flatpak update renames
/// its command, an AppImage tool writes a new versioned file name.
///
/// `refresh` derives every route again from what is installed now. It runs
/// when asked (`miga refresh`), from the systemd path unit when an
/// application folder changes, and from any miga command (never the gate)
/// that finds a watched folder newer than the last refresh: a `stat` per
/// folder, no scan.
extension Protection {
    /// The folders whose changes can add, change or remove a route.
    public var watchedFolders: [String] {
        [desktop.userFolder] + desktop.sourceFolders + [login.userFolder] + login.sourceFolders + services.sourceFolders
    }

    var refreshStampPath: String { paths.dataDirectory + "/refreshed" }

    /// Derives every route again (as `doctor --fix` does), covering entries
    /// that appeared and dropping those whose original is gone, then notes
    /// the folders' state. Returns what was done, a line each.
    @discardableResult
    public func refresh() throws(MigaError) -> [String] {
        try repair()
    }

    /// Notes the watched folders' state as refreshed.
    func noteRefreshed() {
        try? atomicWrite(Self.stamp(newestChange()), to: refreshStampPath, mode: 0o600)
    }

    /// Runs `body`, which writes routes of MIGA's own; when everything was
    /// refreshed before, it still is after (MIGA's own writes are no news).
    func keepingFresh<T>(_ body: () throws(MigaError) -> T) throws(MigaError) -> T {
        let fresh = !isStale
        let result = try body()
        if fresh { noteRefreshed() }
        return result
    }

    /// Whether a watched folder changed since the last refresh; false when
    /// nothing is protected (there is nothing to keep current). A change in
    /// the same tick of the file system's clock as MIGA's own last write
    /// cannot be told from it; the systemd path unit sees it anyway.
    public var isStale: Bool {
        guard access(manifestPath, F_OK) == 0 else { return false }
        let recorded = ((try? readTextFile(refreshStampPath)) ?? nil).map { $0.trimmingWhitespace() }
        return recorded != Self.stamp(newestChange())
    }

    /// Refreshes when a watched folder changed; quiet, and never in the way
    /// of the command that asked (a failure is left for `miga doctor`).
    public func refreshIfStale() {
        guard isStale else { return }
        _ = try? refresh()
    }

    /// The latest modification time among the watched folders.
    func newestChange() -> timespec {
        var newest = timespec()
        for folder in watchedFolders {
            var info = stat()
            guard stat(folder, &info) == 0 else { continue }
            let time = info.st_mtim
            if (time.tv_sec, time.tv_nsec) > (newest.tv_sec, newest.tv_nsec) { newest = time }
        }
        return newest
    }

    static func stamp(_ time: timespec) -> String { "\(time.tv_sec).\(time.tv_nsec)" }
}
