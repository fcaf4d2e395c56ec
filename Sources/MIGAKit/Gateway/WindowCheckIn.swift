#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGADesktop

/// A window opened for a pause is known to be there only when the gateway
/// in it says so: an emulator that cannot reach a display, or dies at once,
/// starts nothing and says nothing. The gateway that opens the window names
/// a small file on the window's command line (`--ready-file`, which every
/// emulator passes on, unlike the environment); the gateway in the window
/// makes it as it starts. Whoever makes the file first decides: the window's
/// gateway (the pause is on), or the opener once its patience is over (the
/// window never opened, and one that opens later stands aside, so no launch
/// is decided twice).
public struct WindowCheckIn: Sendable {
    /// How long a window may take to open: emulators start in well under a second.
    static let patience = 3.0
    static let prefix = "miga-window-"
    public let path: String

    /// A fresh file name, in the session's runtime folder when there is one.
    init(environment: [String: String], processID: Int32) {
        let folder = ["XDG_RUNTIME_DIR", "TMPDIR"].lazy.compactMap { environment[$0] }.first { $0.hasPrefix("/") } ?? "/tmp"
        path = (folder.hasSuffix("/") ? folder : folder + "/") + Self.prefix + "\(processID)-\(newUUID().prefix(8))"
    }

    /// Opens `window` and waits for its gateway to check in: true when it
    /// did within `patience`. A window that never comes is claimed here.
    func open(_ window: Launch, patience: Double = Self.patience) -> Bool {
        guard let pid = Launcher.spawnDetached(window) else { return false }
        let deadline = Date().addingTimeInterval(patience)
        var reaped = false
        while Date() < deadline {
            if access(path, F_OK) == 0 { break }
            // An emulator that ends at once is reaped, so no zombie is left to the program.
            var status: Int32 = 0
            if !reaped, waitpid(pid, &status, WNOHANG) == pid { reaped = true }
            usleep(10_000)
        }
        if !reaped { _ = waitpid(pid, nil, WNOHANG) }
        // The window's gateway made the file (now or at the last moment): it is on.
        guard Self.make(path) else {
            unlink(path)
            return true
        }
        return false
    }

    /// In the window, as the gateway starts: checks in at `path`. False
    /// when the opener already gave up on this window (the launch was
    /// decided without it).
    static func checkIn(_ path: String) -> Bool {
        // Only a file of this kind is ever made or removed, whatever the command line says.
        guard baseName(of: path).hasPrefix(Self.prefix) else { return true }
        if make(path) { return true }
        guard errno == EEXIST else { return true }
        unlink(path)
        return false
    }

    /// Makes the file; false when it was there already (or cannot be made).
    private static func make(_ path: String) -> Bool {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }
}
