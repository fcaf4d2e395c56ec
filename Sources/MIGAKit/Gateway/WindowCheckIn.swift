#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGADesktop

/// A window opened for a pause is known to be there only when the gateway
/// in it says so: an emulator that cannot reach a display, or dies at once,
/// starts nothing and says nothing. The gateway that opens the window makes
/// a small empty file and names it on the window's command line
/// (`--ready-file`, which every emulator passes on, unlike the
/// environment); the gateway in the window takes it away as it starts.
/// Whoever removes the file first decides: the window's gateway (the pause
/// is on), or the opener once its patience is over (the window never
/// opened, and one that opens later finds no file and stands aside, so no
/// launch is decided twice). Either way the file is gone: nothing is left in
/// the runtime folder for a window that never came.
public struct WindowCheckIn: Sendable {
    /// How long one window may take to open: emulators start in well under a second.
    static let patience = 3.0
    /// How long a launch waits for windows in all, the next emulator tried
    /// after one that opened none: a person who clicked waits no longer.
    static let totalPatience = 6.0
    static let prefix = "miga-window-"
    public let path: String

    /// How a window's opening went.
    public enum Outcome: Equatable, Sendable {
        /// Its gateway checked in.
        case opened
        /// The emulator ended, with this status, before anything checked in.
        case ended(Int32)
        /// Neither within the patience given.
        case silent(seconds: Int)
        /// The emulator could not be started.
        case notStarted
    }

    /// A fresh file, made in the session's runtime folder (else `TMPDIR`,
    /// else /tmp), for one window to check in at; nil when none can be made.
    init?(environment: [String: String], processID: Int32) {
        let folders = ["XDG_RUNTIME_DIR", "TMPDIR"].compactMap { environment[$0] }.filter { $0.hasPrefix("/") } + ["/tmp"]
        for folder in folders {
            let path = (folder.hasSuffix("/") ? folder : folder + "/") + Self.prefix + "\(processID)-\(newUUID().prefix(8))"
            let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else { continue }
            close(fd)
            self.path = path
            return
        }
        return nil
    }

    /// Opens `window` and waits for its gateway to check in, for `patience`
    /// at most; an emulator that ends first opened none (one whose client
    /// hands the window to a server ends with 0, and its window may still
    /// come: that one is waited for).
    func open(_ window: Launch, patience: Double) -> Outcome {
        // The caller takes the file away when no window opened.
        guard let pid = Launcher.spawnDetached(window) else { return .notStarted }
        let deadline = Date().addingTimeInterval(patience)
        var ended: Int32?
        while Date() < deadline, access(path, F_OK) == 0 {
            // An emulator that ends is reaped, so no zombie is left to the program.
            var status: Int32 = 0
            if ended == nil, waitpid(pid, &status, WNOHANG) == pid {
                ended = switch ProcessEnding(waitStatus: status) {
                case .exited(let code): code
                case .signalled(let number): ExitStatus.signal(number)
                }
                if ended != 0 { break }
            }
            usleep(10_000)
        }
        if ended == nil { _ = waitpid(pid, nil, WNOHANG) }
        // The window's gateway took the file (now or at the last moment): it is on.
        guard withdraw() else { return .opened }
        if let ended, ended != 0 { return .ended(ended) }
        return .silent(seconds: Int(patience.rounded()))
    }

    /// Takes the file away, so that a window that opens after this stands
    /// aside: true when it was still there (no window has checked in).
    @discardableResult
    func withdraw() -> Bool {
        unlink(path) == 0 || errno != ENOENT
    }

    /// In the window, as the gateway starts: checks in at `path`. False
    /// when the opener already gave up on this window (the launch was
    /// decided without it).
    static func checkIn(_ path: String) -> Bool {
        // Only a file of this kind is ever removed, whatever the command line says.
        guard baseName(of: path).hasPrefix(Self.prefix) else { return true }
        if unlink(path) == 0 { return true }
        // Gone: the opener gave up. Any other failure says nothing of the opener: the pause goes on.
        return errno != ENOENT
    }
}
