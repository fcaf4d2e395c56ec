import FoundationEssentials

/// A launch of a protected program that went around the pause: a process of
/// the person's own whose executable is a protected program's and whose
/// environment carries no mark of the gateway. Everything a gateway starts
/// (after a Proceed, a pass-through, an allowance) inherits `MIGA_GATE_PID`,
/// and so do its children; nothing else has it.
public struct Leak: Equatable, Sendable {
    public let program: String
    /// The process, unambiguously (boot id, pid, start time).
    public let process: ProcessIdentity
    /// How it was most likely started.
    public let route: LeakRoute
    /// When it started, by the wall clock (to a second or so); nil when unknown.
    public let startedAt: Date?
    /// The menu entry a desktop launcher opened for it or for what started
    /// it (`GIO_LAUNCHED_DESKTOP_FILE`, which its children inherit), if any.
    public let menuEntry: String?

    public init(program: String, process: ProcessIdentity, route: LeakRoute, startedAt: Date? = nil, menuEntry: String? = nil) {
        self.program = program
        self.process = process
        self.route = route
        self.startedAt = startedAt
        self.menuEntry = menuEntry
    }
}

/// How a launch that went around the pause was most likely started.
public enum LeakRoute: Equatable, Sendable {
    /// By a login start (its command line), which no override of MIGA's covered.
    case login(String)
    /// From the application menu: the entry a desktop launcher opened
    /// (gio, gtk-launch, the desktop session), or the launcher's command line.
    case menu(String)
    /// By its path, which a shim on PATH never sees (`/snap/bin/firefox`).
    case path(String)
    /// By the launcher whose command line this is (`bash`, `dex -a`).
    case launcher(String)
    /// By a launcher that has exited since.
    case unknown

    /// As the store keeps it: what kind of route, and its detail.
    package var stored: (how: String?, detail: String?) {
        switch self {
        case .login(let line): ("login", line)
        case .menu(let entry): ("menu", entry)
        case .path(let path): ("path", path)
        case .launcher(let line): ("launcher", line)
        case .unknown: (nil, nil)
        }
    }

    /// Read back from the store. Rows from before routes had kinds hold the
    /// parent's command line alone.
    package init(how: String?, detail: String?) {
        switch (how, detail) {
        case ("login", let line?): self = .login(line)
        case ("menu", let entry?): self = .menu(entry)
        case ("path", let path?): self = .path(path)
        case (_, let line?) where !line.isEmpty: self = .launcher(line)
        default: self = .unknown
        }
    }
}
