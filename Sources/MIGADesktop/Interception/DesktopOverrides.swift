#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAConfig

/// Launches from the application menu, and starts at login: for a protected
/// program's `.desktop` file, a user-level override with the same name
/// (which the desktop prefers over the system's) whose Exec runs the gateway.
///
/// The override is its *source* with these changes: every Exec (the main one
/// and each action's) becomes `miga gate --window [--detach] [--at-login]
/// --as CMD ORIGINAL -- ARGS`, keeping the source's field codes for the
/// launcher to expand; the gateway opens the window for the pause itself,
/// with the emulator MIGA chooses, so Terminal is false; DBusActivatable
/// goes, so the desktop uses Exec. Name, Icon, MimeType, Categories,
/// translations and actions stay as they were.
///
/// The source is always the entry the override stands in front of: the
/// system's or Flatpak's, or the person's own file that was set aside —
/// never an override of MIGA's own. So writing the overrides again, from any
/// state, gives the same bytes: one gateway in each Exec, however often it runs.
public struct DesktopOverrides: Sendable {
    /// Which launches these overrides stand in front of.
    public enum Place: String, Sendable {
        /// The application menu: `applications` folders of the data directories.
        case menu
        /// Starts at login: `autostart` folders of the config directories.
        case login
    }

    public let place: Place
    /// Where the system's entries are: `$XDG_DATA_DIRS/applications` and
    /// Flatpak's exports, or `$XDG_CONFIG_DIRS/autostart`.
    public let sourceFolders: [String]
    /// `$XDG_DATA_HOME/applications` or `$XDG_CONFIG_HOME/autostart`, where overrides go.
    public let userFolder: String
    /// Where the person's own entries are kept while an override stands in their place.
    public let backups: String
    /// Where a copy of each override as MIGA last wrote it is kept: what
    /// tells a desktop's edits from its source's changes.
    public let written: String
    public let gateway: String
    /// Finds the real program behind a command (past the shims and the gateway),
    /// so that an entry whose Exec names the same file under another name
    /// (Discord's `/usr/share/discord/Discord` for `discord`) is found too.
    let resolver: ProgramResolver
    /// Where the config says which commands are one program.
    let configFile: String

    /// Marks a file as MIGA's override, and names the program it stands for.
    static let programKey = "X-MIGA-Program"
    /// What an override is written with: readable by the desktop, like any entry.
    static let mode: mode_t = 0o644

    public init(_ place: Place = .menu, paths: XDGPaths, environment: [String: String], gateway: String) {
        self.place = place
        self.gateway = gateway
        configFile = paths.configFile
        resolver = ProgramResolver(searchPath: environment["PATH"], skippingFiles: [FileIdentity(path: gateway)],
                                   skippingDirectories: [paths.shimDirectory])
        switch place {
        case .menu:
            sourceFolders = Self.dataDirectories(paths: paths, environment: environment).map { $0 + "/applications" }
            userFolder = paths.dataHome + "/applications"
            backups = paths.dataDirectory + "/backups/applications"
            written = paths.dataDirectory + "/written/applications"
        case .login:
            sourceFolders = Self.searchPath(environment["XDG_CONFIG_DIRS"], default: "/etc/xdg")
                .filter { $0 != paths.configHome }.map { $0 + "/autostart" }
            userFolder = paths.configHome + "/autostart"
            backups = paths.dataDirectory + "/backups/autostart"
            written = paths.dataDirectory + "/written/autostart"
        }
    }

    /// `$XDG_DATA_DIRS` and Flatpak's exports, without the person's own folder.
    static func dataDirectories(paths: XDGPaths, environment: [String: String]) -> [String] {
        var directories = searchPath(environment["XDG_DATA_DIRS"], default: "/usr/local/share:/usr/share")
        for flatpak in [paths.dataHome + "/flatpak/exports/share", "/var/lib/flatpak/exports/share"] where !directories.contains(flatpak) {
            directories.append(flatpak)
        }
        return directories.filter { $0 != paths.dataHome }
    }

    /// The absolute folders of a colon-separated variable, or of its default when it is unset or empty.
    static func searchPath(_ value: String?, default fallback: String) -> [String] {
        (value.flatMap { $0.isEmpty ? nil : $0 } ?? fallback).split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    }

    /// A menu entry that starts a program, read from where MIGA overrides it from.
    public struct Source: Sendable {
        /// The file name, which the override takes: `slack.desktop`.
        public let name: String
        /// The source file: the system's, or the person's own (in place, or set aside).
        public let path: String
        let entry: DesktopEntry
    }

    /// The desktop entries that start `command`, or another command of the
    /// same program (its `also` in the config), each read from its source.
    public func sources(for command: String) -> [Source] {
        var seen: Set<String> = []
        var names: [String] = []
        for directory in [userFolder] + sourceFolders {
            let found = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in found.sorted() where name.hasSuffix(".desktop") && seen.insert(name).inserted {
                names.append(name)
            }
        }
        let family = family(of: command)
        return names.compactMap { name in
            guard let source = source(named: name), family.starts(source) else { return nil }
            return source
        }
    }

    /// The commands of the program `command` is one of, and the files they run.
    struct Family {
        let commands: [String]
        let files: Set<FileIdentity>

        func starts(_ source: Source) -> Bool {
            commands.contains { DesktopOverrides.launches(source.entry, $0, fileName: source.name, programs: files) }
        }
    }

    /// `command` and the other commands the config says start the same program.
    func family(of command: String) -> Family {
        let program = ConfigLoader.load(from: configFile).config.program(named: command)
        let commands = [command] + (program?.commands ?? []).filter { $0 != command }
        return Family(commands: commands, files: programFiles(of: commands))
    }

    /// The files `commands` run: each one's own, and for a launcher script
    /// the binary it hands over to, so that an entry naming the binary
    /// (`Exec=/usr/lib/firefox-esr/firefox-esr`) is found by `firefox`.
    func programFiles(of commands: [String]) -> Set<FileIdentity> {
        var files: Set<FileIdentity> = []
        for command in commands {
            guard let path = resolver.resolve(command), let identity = FileIdentity(path: path) else { continue }
            files.insert(identity)
            if let script = WatchedProgram.script(at: path) {
                files.formUnion(WatchedProgram.binaries(handedOverBy: script, at: path, resolver: resolver))
            }
        }
        return files
    }

    /// What the override named `name` is derived from: the person's own file
    /// standing there, or set aside for an override of MIGA's; else the first
    /// system entry of that name. Never MIGA's own override.
    public func source(named name: String) -> Source? {
        let target = userFolder + "/" + name
        if access(target, F_OK) == 0 {
            // A file of the person's that cannot be read shadows the system's entry: it stays alone.
            guard let current = Self.read(target) else { return nil }
            if current.value(Self.programKey) == nil { return Source(name: name, path: target, entry: current) }
            if let backup = existingBackup(name) {
                return Self.read(backup).map { Source(name: name, path: backup, entry: $0) }
            }
        }
        for directory in sourceFolders {
            let path = directory + "/" + name
            guard access(path, F_OK) == 0 else { continue }
            return Self.read(path).map { Source(name: name, path: path, entry: $0) }
        }
        return nil
    }

    /// The overrides of MIGA's that stand for `command` now, wherever they came from.
    public func overrides(for command: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: userFolder)) ?? []
        return names.sorted().map { userFolder + "/" + $0 }.filter { path in
            path.hasSuffix(".desktop") && Self.read(path)?.value(Self.programKey) == command
        }
    }

    /// Writes the overrides for `command` from their sources and records them
    /// in `manifest`. An override that is already right is left untouched;
    /// one edited since MIGA wrote it keeps the edits that leave the gate
    /// alone (a desktop's MimeType, a person's Icon) and follows its source
    /// in the rest; one whose gate was edited by hand is kept as it is, with
    /// a note saying so. Returns those notes.
    public func install(_ command: String, into manifest: inout Manifest) throws(MigaError) -> [String] {
        var notes: [String] = []
        for source in sources(for: command) {
            let target = userFolder + "/" + source.name
            let recorded = manifest.menuOverrides().first { $0.path == target }
            var backup = existingBackup(source.name)
            if source.path == target {
                // The person's own entry: keep it, byte for byte and with its mode, to put back later.
                if let backup, !Self.sameBytes(backup, target) {
                    notes.append("\(target) is your own, and another of yours is set aside at \(backup); both are left alone, so the menu opens \(command) without a pause")
                    continue
                }
                backup = backups + "/" + source.name
                do {
                    try makeDirectories(backups)
                    try Self.copy(target, to: backup!)
                } catch {
                    throw MigaError("cannot set aside \(target): \(error)")
                }
            }
            let derived: DesktopEntry
            do {
                derived = try overriding(source.entry, for: command)
            } catch {
                notes.append("\(source.path) has an Exec line MIGA cannot rewrite (\(error)); left alone, so it opens \(command) without a pause")
                continue
            }
            var text = derived.text
            if source.path != target, let current = Self.readText(target), let recorded {
                guard case .leavingTheGate(let base) = edits(of: current, recorded: recorded, derivedNow: derived.text) else {
                    notes.append("\(target) was edited by hand since MIGA wrote it; kept as it is (delete it and protect \(command) again for MIGA's)")
                    continue
                }
                text = Self.wanted(current, base: base, derived: derived)
            }
            do {
                try keepCopy(derived.text, of: target)
                try writeIfChanged(text, to: target, mode: Self.mode)
            } catch {
                throw MigaError("cannot write \(target): \(error)")
            }
            manifest.record(.desktopEntry(Manifest.MenuOverride(path: target, backup: backup, program: command,
                                                                 fingerprint: Manifest.MenuOverride.fingerprint(of: derived.text))))
        }
        return notes
    }

    /// Removes the overrides for `command` named in `manifest`, putting back
    /// what they replaced.
    public func remove(_ command: String, from manifest: inout Manifest) throws(MigaError) {
        for override in manifest.menuOverrides(for: command) { try remove(override, from: &manifest) }
    }

    /// Removes one override, putting back what it replaced. An override the
    /// person has since made their own (it no longer carries MIGA's mark) is
    /// theirs: it stays, and so does anything set aside for it.
    func remove(_ override: Manifest.MenuOverride, from manifest: inout Manifest) throws(MigaError) {
        let path = override.path
        let current = Self.read(path)
        if current != nil && current?.value(Self.programKey) != override.program {
            forget(override, in: &manifest)
            return
        }
        if current != nil && unlink(path) != 0 && errno != ENOENT {
            throw MigaError("cannot remove \(path): \(String(cString: strerror(errno)))")
        }
        if let backup = override.backup, access(backup, F_OK) == 0 {
            guard rename(backup, path) == 0 else {
                throw MigaError("cannot put \(backup) back at \(path): \(String(cString: strerror(errno)))")
            }
        }
        forget(override, in: &manifest)
    }

    /// Takes `override` out of `manifest`, with the copy of what MIGA wrote there.
    func forget(_ override: Manifest.MenuOverride, in manifest: inout Manifest) {
        unlink(copyPath(override.path))
        manifest.forget(.desktopEntry(override))
    }

    // MARK: Internals

    func existingBackup(_ name: String) -> String? {
        access(backups + "/" + name, F_OK) == 0 ? backups + "/" + name : nil
    }

    /// Why an Exec of `entry` cannot be rewritten, or nil when each can.
    static func execProblem(in entry: DesktopEntry) -> String? {
        for group in [DesktopEntry.mainGroup] + entry.actionGroups {
            guard let exec = entry.value("Exec", in: group), let problem = DesktopExec.problem(in: exec) else { continue }
            return group == DesktopEntry.mainGroup ? problem : "in \(group): \(problem)"
        }
        return nil
    }

    /// The override of `source` for `command`.
    func overriding(_ source: DesktopEntry, for command: String) throws(DesktopEntryError) -> DesktopEntry {
        var entry = source
        // A program that runs in a terminal shares the pause's window; one
        // that opens its own window is started detached, to outlive it.
        let inTerminal = source.value("Terminal")?.lowercased() == "true"
        let invocation = GateInvocation(command: command, detach: !inTerminal, window: true, loginStart: place == .login,
                                        identity: command)
        for group in [DesktopEntry.mainGroup] + source.actionGroups {
            guard let exec = source.value("Exec", in: group) else { continue }
            let words = try DesktopExec.split(exec)
            guard let program = words.first else { continue }
            // The program as the entry wrote it (quoted, or a field code) takes the invocation's command's place.
            let gate: [ExecArgument] = [.text(gateway)] + invocation.wordsBeforeCommand.map { .text($0) }
                + [program, .text(GateInvocation.argumentsFollow)] + words.dropFirst()
            entry.setValue(DesktopExec.join(gate), for: "Exec", in: group)
        }
        // The gateway opens the window for the pause with the emulator MIGA
        // chooses; a launcher's own choice is a fixed list that may hold none
        // of the person's (GLib's never tries kitty, foot or x-terminal-emulator).
        entry.setValue("false", for: "Terminal")
        entry.removeValue(for: "DBusActivatable")
        entry.setValue(command, for: Self.programKey)
        return entry
    }
}
