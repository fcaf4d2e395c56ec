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
        // A folder named with a line break (from XDG_DATA_DIRS, which anyone
        // can set) would write lines of its own into the unit: never watched.
        self.watched = watched.filter { !$0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
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
        \(watched.map { "PathChanged=" + Self.escaped($0) }.joined(separator: "\n"))

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
        ExecStart=\(Self.escaped(gateway)) refresh

        """
    }

    /// Writes both units and records them; unchanged files are not rewritten.
    func write(into manifest: inout Manifest) throws(MigaError) {
        for (path, text) in [(serviceUnitFile, serviceUnitText), (pathUnitFile, pathUnitText)] {
            do {
                try makeDirectories(folder)
                try writeIfChanged(text, to: path, mode: 0o644)
            } catch {
                throw MigaError("cannot write \(path): \(error)")
            }
            manifest.record(.unit(path: path))
        }
    }

    /// A path as a unit file reads it: spaces and specifiers escaped.
    static func escaped(_ path: String) -> String {
        path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "%%")
            .replacingOccurrences(of: " ", with: "\\x20")
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
