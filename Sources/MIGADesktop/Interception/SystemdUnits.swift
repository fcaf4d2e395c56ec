#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore

/// A systemd user path unit that runs `miga refresh` whenever an
/// application, autostart or D-Bus service folder changes, so that an entry
/// installed while no miga command runs is covered within moments.
public struct SystemdUnits: Sendable {
    /// `$XDG_CONFIG_HOME/systemd/user`.
    public let folder: String
    public let gateway: String
    public let watched: [String]

    public static let pathUnit = "miga-refresh.path"
    public static let serviceUnit = "miga-refresh.service"

    public init(paths: XDGPaths, gateway: String, watched: [String]) {
        folder = paths.configHome + "/systemd/user"
        self.gateway = gateway
        self.watched = watched.filter(Self.canWatch)
    }

    public var pathUnitFile: String { folder + "/" + Self.pathUnit }
    public var serviceUnitFile: String { folder + "/" + Self.serviceUnit }

    /// The path unit: one PathChanged per folder (systemd waits for a folder
    /// that does not exist yet to appear).
    public var pathUnitText: String {
        """
        # Written by MIGA (miga refresh --units); removed by miga uninstall.
        [Unit]
        Description=MIGA: keep new and changed application entries behind the pause

        [Path]
        \(watched.map { "PathChanged=" + Self.pathValue($0) }.joined(separator: "\n"))

        [Install]
        WantedBy=default.target

        """
    }

    public var serviceUnitText: String {
        """
        # Written by MIGA (miga refresh --units); removed by miga uninstall.
        [Unit]
        Description=MIGA: refresh the routes to the pause

        [Service]
        Type=oneshot
        ExecStart=\(UnitArgument(gateway).written) refresh

        """
    }

    /// Writes both units and records them; unchanged files are not rewritten.
    func write(into manifest: inout Manifest) throws(MigaError) {
        try Self.write([(serviceUnitFile, serviceUnitText), (pathUnitFile, pathUnitText)], in: folder, into: &manifest)
    }

    /// Writes unit files into `folder` and records each in the manifest;
    /// unchanged files are not rewritten. Every unit of MIGA's is written here.
    static func write(_ units: [(path: String, text: String)], in folder: String,
                      into manifest: inout Manifest) throws(MigaError) {
        for (path, text) in units {
            do {
                try makeDirectories(folder)
                try writeIfChanged(text, to: path, mode: 0o644)
            } catch {
                throw MigaError("cannot write \(path): \(error)")
            }
            manifest.record(.unit(path: path))
        }
    }

    /// Whether a folder can be named in a `PathChanged=` line. A line break
    /// (from XDG_DATA_DIRS, which anyone can set) would write lines of its
    /// own into the unit; systemd strips a value's trailing blanks and reads
    /// a trailing backslash as a continued line, so either would watch
    /// another folder. Such a folder is never watched.
    static func canWatch(_ folder: String) -> Bool {
        !folder.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            && folder.last != "\\" && folder.last != " "
    }

    /// A folder as `PathChanged=` reads it: systemd expands specifiers there
    /// and nothing else (no escapes, no variables, no quotes), so only `%`
    /// is written twice.
    static func pathValue(_ folder: String) -> String {
        folder.replacingOccurrences(of: "%", with: "%%")
    }

    /// Whether a systemd user manager runs for this session.
    public static func userManagerRuns(environment: [String: String]) -> Bool {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return false }
        return access(runtime + "/systemd/private", F_OK) == 0
    }

    /// `systemctl --user ARGUMENTS`; whether it succeeded.
    static func systemctl(_ arguments: [String], environment: [String: String]) -> Bool {
        guard let path = ProgramResolver(searchPath: environment["PATH"]).resolve("systemctl") else { return false }
        return Launcher.runAndWait(path, arguments: ["systemctl", "--user"] + arguments) == 0
    }
}

extension Protection {
    /// The refresh on changes of the watched folders, as systemd user units.
    public var units: SystemdUnits {
        SystemdUnits(paths: paths, gateway: shims.gateway, watched: watchedFolders)
    }

    /// Writes the systemd units and, where a user manager runs, enables and
    /// starts the path unit. Returns what was done, in words.
    public func installUnits() throws(MigaError) -> String {
        var manifest = Manifest(path: manifestPath)
        defer { try? manifest.save() }
        try units.write(into: &manifest)
        guard SystemdUnits.userManagerRuns(environment: environment) else {
            return "Wrote \(units.pathUnitFile); no systemd user manager runs here, so new entries are covered when a miga command next runs."
        }
        _ = SystemdUnits.systemctl(["daemon-reload"], environment: environment)
        guard SystemdUnits.systemctl(["enable", "--now", SystemdUnits.pathUnit], environment: environment) else {
            return "Wrote \(units.pathUnitFile), but systemctl --user could not enable it; new entries are covered when a miga command next runs."
        }
        return "Enabled \(SystemdUnits.pathUnit): new and changed application entries are covered as they appear."
    }
}

/// A systemd user timer that runs `miga sync FOLDER` every 15 minutes and a
/// little after each login: `miga sync FOLDER --timer` writes it and enables
/// it, `miga sync --no-timer` and `miga uninstall` take it away, and doctor
/// says what it syncs.
public struct SyncTimer: Sendable {
    /// `$XDG_CONFIG_HOME/systemd/user`, where the refresh's units are too.
    public let folder: String
    public let gateway: String

    public static let timerUnit = "miga-sync.timer"
    public static let serviceUnit = "miga-sync.service"
    /// When it runs: as the package's `miga-sync@.timer` does (a test holds the two alike).
    static let schedule = ["OnStartupSec=2min", "OnUnitActiveSec=15min", "RandomizedDelaySec=1min"]

    public init(paths: XDGPaths, gateway: String) {
        folder = paths.configHome + "/systemd/user"
        self.gateway = gateway
    }

    public var timerUnitFile: String { folder + "/" + Self.timerUnit }
    public var serviceUnitFile: String { folder + "/" + Self.serviceUnit }

    public var timerUnitText: String {
        """
        # Written by MIGA (miga sync FOLDER --timer); removed by miga sync --no-timer and miga uninstall.
        [Unit]
        Description=MIGA: sync the history through a shared folder

        [Timer]
        \(Self.schedule.joined(separator: "\n"))

        [Install]
        WantedBy=timers.target

        """
    }

    /// The service the timer starts, syncing `shared` (an absolute path).
    func serviceUnitText(syncing shared: String) -> String {
        """
        # Written by MIGA (miga sync FOLDER --timer); removed by miga sync --no-timer and miga uninstall.
        [Unit]
        Description=MIGA: sync the history through a shared folder

        [Service]
        Type=oneshot
        ExecStart=\(UnitArgument(gateway).written) sync \(UnitArgument(shared).written)

        """
    }

    /// The folder the timer written here syncs; nil when there is none.
    public func syncedFolder() -> String? {
        guard let text = (try? readTextFile(serviceUnitFile)) ?? nil,
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ExecStart=") }) else { return nil }
        let words = line.dropFirst("ExecStart=".count).split(separator: " ")
        guard words.count == 3, words[1] == "sync" else { return nil }
        return UnitArgument(written: String(words[2]))?.value
    }

    /// The package's templated timers (`miga-sync@FOLDER.timer`) enabled for
    /// this user, by name: each syncs on its own, beside this one.
    public func packagedTimersEnabled() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/timers.target.wants")) ?? []
        return names.filter { $0.hasPrefix("miga-sync@") && $0.hasSuffix(".timer") }.sorted()
    }

    /// Writes both units and records them; unchanged files are not rewritten.
    func write(syncing shared: String, into manifest: inout Manifest) throws(MigaError) {
        // UnitArgument writes a control character (a line break) as \xNN, which systemd reads back.
        try SystemdUnits.write([(serviceUnitFile, serviceUnitText(syncing: shared)), (timerUnitFile, timerUnitText)],
                               in: folder, into: &manifest)
    }
}

/// One argument of a unit's ExecStart= as systemd reads it back: `%`
/// written `%%` (no specifier), `$` written `$$` (no variable), and every
/// other character that would split, quote or escape written as `\xNN`.
/// Characters past ASCII are written as they are.
struct UnitArgument: Equatable {
    let value: String

    init(_ value: String) {
        self.value = value
    }

    private static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@=~".unicodeScalars)

    var written: String {
        var text = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "%": text += "%%"
            case "$": text += "$$"
            case _ where scalar.value >= 0x80 || Self.plain.contains(scalar): text.unicodeScalars.append(scalar)
            default: text += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            }
        }
        return text
    }

    /// The argument `written` stands for; nil when it is no argument this writes.
    init?(written: String) {
        var scalars = written.unicodeScalars[...]
        var value = String.UnicodeScalarView()
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "%", "$":
                guard scalars.popFirst() == scalar else { return nil }
                value.append(scalar)
            case "\\":
                guard scalars.popFirst() == "x", let high = scalars.popFirst(), let low = scalars.popFirst(),
                      let code = UInt8(String([Character(high), Character(low)]), radix: 16) else { return nil }
                value.append(Unicode.Scalar(code))
            default:
                value.append(scalar)
            }
        }
        self.value = String(value)
    }
}

extension Protection {
    /// The sync timer of this user's units folder.
    public var syncTimer: SyncTimer { SyncTimer(paths: paths, gateway: shims.gateway) }

    /// Writes the timer that syncs `shared` (an absolute path) and, where a
    /// user manager runs, enables and starts it. Returns what was done, in words.
    public func installSyncTimer(syncing shared: String) throws(MigaError) -> String {
        var manifest = Manifest(path: manifestPath)
        defer { try? manifest.save() }
        try syncTimer.write(syncing: shared, into: &manifest)
        return enableSyncTimer(syncing: shared) + syncTimer.packagedTimersEnabled().map {
            " \(printable($0)) is enabled too and syncs on its own; keep one (systemctl --user disable --now '\(printable($0))')."
        }.joined()
    }

    private func enableSyncTimer(syncing shared: String) -> String {
        guard SystemdUnits.userManagerRuns(environment: environment) else {
            return "Wrote \(syncTimer.timerUnitFile); no systemd user manager runs here, so it does not run by itself "
                + "(miga sync \(shared) syncs when you run it)."
        }
        _ = SystemdUnits.systemctl(["daemon-reload"], environment: environment)
        guard SystemdUnits.systemctl(["enable", "--now", SyncTimer.timerUnit], environment: environment) else {
            return "Wrote \(syncTimer.timerUnitFile), but systemctl --user could not enable it; "
                + "systemctl --user enable --now \(SyncTimer.timerUnit) starts it."
        }
        return "Enabled \(SyncTimer.timerUnit): \(shared) is synced every 15 minutes, and a little after each login."
    }

    /// Stops and takes away the sync timer. Returns what was done, in words.
    public func removeSyncTimer() throws(MigaError) -> String {
        let timer = syncTimer
        guard access(timer.timerUnitFile, F_OK) == 0 || access(timer.serviceUnitFile, F_OK) == 0 else {
            return "No sync timer of MIGA's is there; nothing to remove."
        }
        var manifest = Manifest(path: manifestPath)
        defer { try? manifest.save() }
        let runs = SystemdUnits.userManagerRuns(environment: environment)
        if runs { _ = SystemdUnits.systemctl(["disable", "--now", SyncTimer.timerUnit], environment: environment) }
        for path in [timer.timerUnitFile, timer.serviceUnitFile] {
            if unlink(path) != 0 && errno != ENOENT {
                throw MigaError("cannot remove \(path): \(String(cString: strerror(errno)))")
            }
            manifest.forget(.unit(path: path))
        }
        if runs { _ = SystemdUnits.systemctl(["daemon-reload"], environment: environment) }
        return "Removed \(SyncTimer.timerUnit); miga sync runs when you run it."
    }
}
