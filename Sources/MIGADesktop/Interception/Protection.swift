#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAConfig

/// Protecting a program: its entry in the config (the single source of truth)
/// and every route that leads a launch to the gateway, each undone cleanly.
public struct Protection: Sendable {
    public let paths: XDGPaths
    public let environment: [String: String]
    public let shims: ShimDirectory
    /// The application menu's entries.
    public let desktop: DesktopOverrides
    /// The entries that start programs at login.
    public let login: DesktopOverrides
    /// D-Bus activation.
    public let services: DBusServices

    /// Shells and MIGA itself are never protected: a pause in front of every
    /// script, or in front of the gateway, helps nobody.
    static let shells: Set<String> = ["sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "oksh", "tcsh", "csh",
                                      "ash", "busybox", "nu", "elvish", "xonsh", "pwsh", "rc", "es", "yash"]

    public init(paths: XDGPaths, environment: [String: String], gateway: String) {
        self.paths = paths
        self.environment = environment
        shims = ShimDirectory(path: paths.shimDirectory, gateway: gateway)
        desktop = DesktopOverrides(.menu, paths: paths, environment: environment, gateway: gateway)
        login = DesktopOverrides(.login, paths: paths, environment: environment, gateway: gateway)
        services = DBusServices(paths: paths, environment: environment, gateway: gateway)
    }

    /// The overrides written where `path` is: the menu's or the login's.
    func overrides(at path: String) -> DesktopOverrides {
        path.hasPrefix(login.userFolder + "/") ? login : desktop
    }

    var manifestPath: String { Manifest.path(in: paths) }
    var editor: ConfigEditor { ConfigEditor(path: paths.configFile) }
    /// The config as it is on disk now: read afresh each time, since
    /// protecting writes it. How protection and its routes read it (doctor
    /// reads its problems too, and the menu's family its own file).
    package var config: Config { ConfigLoader.load(from: paths.configFile).config }

    /// Protects `command` (idempotent): config entry first, then its shim and
    /// menu overrides. A program found only through its menu entry (a Flatpak
    /// app, say) gets no shim. `nil` settings keep what the config already says.
    /// Returns notes on what was left alone (an override edited by hand).
    @discardableResult
    public func protect(_ command: String, _ changes: ProgramChanges = ProgramChanges()) throws(MigaError) -> [String] {
        try Self.checkName(command)
        guard isInstalled(command) else {
            throw MigaError(notInstalled: changes.name ?? command)
        }
        if let problem = changes.problem {
            throw MigaError(usage: "\(problem)")
        }
        var changes = changes
        var command = command
        var notes: [String] = []
        // Read once: nothing writes the config until `setProgram` below.
        let config = self.config
        // Another name of a protected program (`firefox-esr` for Firefox) is that program.
        if let existing = config.program(named: command), existing.command != command {
            notes.append(Self.protectedAlready(existing))
            command = existing.command
        }
        takeInFlatpakApp(&command, &changes, config: config, notes: &notes)
        if changes.name == nil, config.programs[command]?.name == nil, let name = menuName(of: command) {
            changes.name = name
        }
        keepOtherCommands(of: command, config: config, into: &changes)
        do {
            try editor.setProgram(command, changes)
        } catch {
            throw MigaError("cannot change \(paths.configFile): \(error)")
        }
        stopKeeping(command)
        return try keepingFresh { () throws(MigaError) in
            var manifest = Manifest(path: manifestPath)
            defer { try? manifest.save() }
            return try notes + installRoutes(command, into: &manifest)
        }
    }

    /// What protecting another name of a protected program says.
    static func protectedAlready(_ program: ProgramSettings) -> String {
        "\(program.displayName) is protected already, as \(program.command); its settings are updated"
    }

    /// What the application menu calls `command` ("Firefox ESR" for
    /// firefox-esr), for a program protected without a name of its own; nil
    /// when no entry starts it, or its name is no more than the command.
    func menuName(of command: String) -> String? {
        guard let name = desktop.sources(for: command).lazy.compactMap({ $0.entry.value("Name") }).first else { return nil }
        let clean = printable(name).trimmingWhitespace()
        guard !clean.isEmpty, clean.count <= 60, clean.lowercased() != command.lowercased() else { return nil }
        return clean
    }

    /// Writes the shim and the menu overrides of `command`, each derived from
    /// what it stands for (never from what MIGA wrote before), so that any
    /// number of runs from any state leave the same files.
    func installRoutes(_ command: String, into manifest: inout Manifest) throws(MigaError) -> [String] {
        for name in shimNames(of: command) where realProgram(name) != nil {
            do {
                try shims.install(name)
                manifest.record(.shim(path: shims.path + "/" + name))
            } catch {
                throw MigaError("cannot write the shim for \(name): \(error)")
            }
        }
        return try desktop.install(command, into: &manifest) + login.install(command, into: &manifest)
            + services.install(command, appIDs: appIDs(of: command, settings: config.programs[command]), into: &manifest)
    }

    /// The shims that lead to `command`'s gateway: its own name; for a
    /// Flatpak app, its exported command (the app ID) and `flatpak`, which
    /// pauses only `flatpak run` of a protected app.
    func shimNames(of command: String) -> [String] {
        let settings = config.programs[command]
        return (settings?.commands ?? [command]) + flatpakShims(of: settings)
    }

    /// Takes `command` out of the config and removes its routes (idempotent).
    public func unprotect(_ command: String) throws(MigaError) {
        guard !command.isEmpty, !command.contains("/") else {
            throw MigaError(usage: "\"\(command)\" is not a command name")
        }
        // Another name of a protected program unprotects that program.
        let command = config.program(named: command)?.command ?? command
        try keepingFresh { () throws(MigaError) in try removeRoutes(command) }
        stopKeeping(command)
    }

    private func removeRoutes(_ command: String) throws(MigaError) {
        let settings = config.programs[command]
        do {
            try editor.removeProgram(command)
        } catch {
            throw MigaError("cannot change \(paths.configFile): \(error)")
        }
        var manifest = Manifest(path: manifestPath)
        defer { try? manifest.save() }
        for name in settings?.commands ?? [command] { try removeShim(name, from: &manifest) }
        for name in flatpakShims(removing: settings, from: config) { try removeShim(name, from: &manifest) }
        try desktop.remove(command, from: &manifest)
        try login.remove(command, from: &manifest)
        try services.remove(command, from: &manifest)
    }

    func removeShim(_ command: String, from manifest: inout Manifest) throws(MigaError) {
        do {
            try shims.remove(command)
            manifest.forget(.shim(path: shims.path + "/" + command))
        } catch {
            throw MigaError("cannot remove the shim for \(command): \(error)")
        }
    }

    /// Unprotects every program, and removes every route MIGA ever wrote.
    /// Returns the commands that were protected.
    @discardableResult
    public func unprotectAll() throws(MigaError) -> [String] {
        let all = protectedCommands()
        for command in all { try unprotect(command) }
        return all
    }

    /// Every command in the config or behind a shim MIGA wrote.
    public func protectedCommands() -> [String] {
        let configured = config.programs.keys.sorted()
        let apps = flatpakShimNames(config)
        let shimmed = Manifest(path: manifestPath).entries.compactMap { entry -> String? in
            guard case .shim(let path) = entry else { return nil }
            return baseName(of: path)
        }.filter { !apps.contains($0) }
        var all = configured
        for command in shimmed where !all.contains(command) { all.append(command) }
        return all
    }

    /// Whether MIGA has written anything outside its own folders (a shim, a
    /// menu override, a hook line, a browser part) that `uninstall` would remove.
    public var hasWrittenRoutes: Bool { !Manifest(path: manifestPath).entries.isEmpty }

    /// Every protected program and the routes that lead to its gateway now.
    public func list() -> [ProgramStatus] {
        let config = self.config
        let kept = keptCommands(in: config)
        return config.programs.values
            .sorted { $0.command < $1.command }
            .map { settings in
                ProgramStatus(settings: settings, realProgram: realProgram(settings.command),
                              shim: shimProblem(settings.command) == nil,
                              shell: firstOnPath(settings.command) == shims.path + "/" + settings.command,
                              desktopEntries: desktop.overrides(for: settings.command),
                              loginEntries: login.overrides(for: settings.command),
                              services: Manifest(path: manifestPath).entries.compactMap { entry in
                                  if case .service(let path, settings.command) = entry { path } else { nil }
                              }, kept: kept.contains(settings.command))
            }
    }

    /// The shim folder is on this shell's PATH.
    public var shimFolderIsOnPath: Bool {
        (environment["PATH"] ?? "").split(separator: ":").contains { $0 == shims.path }
    }

    // MARK: Internals

    static func checkName(_ command: String) throws(MigaError) {
        guard !command.isEmpty, !command.contains("/"), !command.hasPrefix("-"),
              !command.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw MigaError("\"\(command)\" is not a command name (give the name, not a path)",
                                  status: ExitStatus.usage)
        }
        if command.hasPrefix("miga") {
            throw MigaError(usage: "miga cannot protect itself")
        }
        if command == "flatpak" {
            throw MigaError(usage: "flatpak runs every Flatpak app and their updates; protect the app instead, by its name or ID (miga protect com.discordapp.Discord, or discord)")
        }
        if shells.contains(command) {
            throw MigaError("\(command) is a shell; a pause in front of it would stop every script that uses it, so miga does not protect shells",
                                  status: ExitStatus.usage)
        }
    }

    /// The real program behind `command`, as the gateway would find it.
    func realProgram(_ command: String) -> String? {
        programResolver.resolve(command)
    }

    /// Finds real programs on PATH, past the shims and the gateway.
    var programResolver: ProgramResolver {
        ProgramResolver(searchPath: environment["PATH"], skippingFiles: [FileIdentity(path: shims.gateway)],
                        skippingDirectories: [shims.path])
    }

    /// What this PATH runs for `command`, shims included, as a shell would.
    func firstOnPath(_ command: String) -> String? {
        for entry in (environment["PATH"] ?? "").split(separator: ":", omittingEmptySubsequences: false) {
            let directory = entry.isEmpty ? "." : String(entry)
            let candidate = directory + "/" + command
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

/// A protected program and how launches reach its gateway.
public struct ProgramStatus: Equatable, Sendable {
    public let settings: ProgramSettings
    /// The program the gateway opens on Proceed; nil when it is not installed.
    public let realProgram: String?
    /// Its shim is in place.
    public let shim: Bool
    /// Typing its name in this shell reaches the shim (the shim folder comes first in PATH).
    public let shell: Bool
    /// The overrides through which the application menu reaches the gateway.
    public let desktopEntries: [String]
    /// The overrides through which a start at login reaches the gateway.
    public let loginEntries: [String]
    /// The D-Bus service files through which an activation reaches the gateway.
    public let services: [String]
    /// Its rules stay in the config, but nothing routes it to the pause (after `miga uninstall`).
    public var kept = false

    /// Installed: on PATH, or reached through its menu entries (a Flatpak app).
    public var installed: Bool { realProgram != nil || !desktopEntries.isEmpty }
}
