#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAConfig

/// One program is often several commands: on Debian, `firefox-esr` is a link
/// to `/usr/lib/firefox-esr/firefox-esr` and `/usr/bin/firefox` a script that
/// execs `firefox-esr`; Chrome is `google-chrome` and `google-chrome-stable`.
/// A person who protects one means all of them, so protecting one finds the
/// others and keeps them as the program's `also`: each gets its shim, its
/// menu entries are overridden, and each pauses as the one program.
extension Protection {
    /// The other commands on PATH that start the program `command` runs: the
    /// catalog's other names for it that are installed here, links to the
    /// same file, and launcher scripts that hand over to it (or that it hands
    /// over to). Never a command protected as a program of its own, a shell,
    /// a launcher of many programs, or MIGA.
    func otherCommands(of command: String, config: Config) -> [String] {
        let resolver = programResolver
        var found: [String] = []
        func take(_ name: String) {
            guard name != command, !found.contains(name), config.programs[name] == nil, Config.isCommandName(name),
                  (try? Self.checkName(name)) != nil else { return }
            found.append(name)
        }
        for sibling in ProgramCatalog.programs.first(where: { $0.commands.contains(command) })?.commands ?? []
        where resolver.resolve(sibling) != nil || !desktop.sources(for: sibling).isEmpty {
            take(sibling)
        }
        guard let path = resolver.resolve(command), let own = FileIdentity(path: path) else { return found }
        // The binaries the program is: the file itself, or what its launcher script hands over to.
        let ownScript = WatchedProgram.script(at: path)
        let binaries = ownScript.map { WatchedProgram.binaries(handedOverBy: $0, at: path, resolver: resolver) } ?? [own]
        // A launcher script names what it hands over to: only the scripts that
        // mention one of these names are read closely (PATH holds hundreds).
        let names = Set([path, realpath(path) ?? path].map(baseName(of:))
            + (ownScript.map { WatchedProgram.handedOver(in: $0, at: path) } ?? []).map(baseName(of:)))
        for (name, file) in commandsOnPath(resolver) {
            guard let identity = FileIdentity(path: file) else { continue }
            let same = identity == own || binaries.contains(identity)
            let handsOver = !same && Self.mayBeScript(file) && WatchedProgram.script(at: file).map { script in
                names.contains { script.contains($0) }
                    && !WatchedProgram.binaries(handedOverBy: script, at: file, resolver: resolver).isDisjoint(with: binaries)
            } == true
            if same || handsOver, !WatchedProgram.isLauncher(file), !Self.isAlternative(file) { take(name) }
        }
        return found
    }

    /// Every command on PATH, past the shims, each by the first file of its name.
    private func commandsOnPath(_ resolver: ProgramResolver) -> [(name: String, path: String)] {
        var seenFolders: Set<FileIdentity> = []
        var seenNames: Set<String> = []
        var commands: [(name: String, path: String)] = []
        for entry in (environment["PATH"] ?? "").split(separator: ":") where entry.hasPrefix("/") {
            let folder = String(entry)
            guard let identity = FileIdentity(path: folder), !resolver.skippedDirectories.contains(identity),
                  seenFolders.insert(identity).inserted else { continue }
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            where seenNames.insert(name).inserted {
                commands.append((name, folder + "/" + name))
            }
        }
        return commands
    }

    /// A name the system points at whichever program is chosen for a role
    /// (`x-www-browser` through /etc/alternatives): tomorrow it may start another.
    private static func isAlternative(_ path: String) -> Bool {
        var current = path
        for _ in 0..<8 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return false }
            current = target.hasPrefix("/") ? target : folderName(of: current) + "/" + target
            if folderName(of: current).hasSuffix("/etc/alternatives") { return true }
        }
        return false
    }

    /// A regular file small enough to be a launcher script: only those are read.
    private static func mayBeScript(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_size < 65_536
    }

    /// Protecting `command` keeps its other commands as its `also`: those it
    /// had, then those found now (unless the changes set them). Returns the
    /// ones found now.
    @discardableResult
    func keepOtherCommands(of command: String, config: Config, into changes: inout ProgramChanges) -> [String] {
        guard changes["also"] == nil else { return [] }
        let kept = config.programs[command]?.also ?? []
        let new = otherCommands(of: command, config: config).filter { !kept.contains($0) }
        if !(kept + new).isEmpty { changes["also"] = .strings(kept + new) }
        return new
    }

    /// Adds to each program's `also` the commands that start it and do not
    /// pause yet (installed since it was protected). Returns what was done.
    func takeInOtherCommands() throws(MigaError) -> [String] {
        var done: [String] = []
        let config = self.config
        for settings in protectedOnly(config).programs.values.sorted(by: { $0.command < $1.command }) {
            var changes = ProgramChanges()
            let new = keepOtherCommands(of: settings.command, config: config, into: &changes)
            guard !new.isEmpty else { continue }
            do {
                try editor.setProgram(settings.command, changes)
            } catch {
                throw MigaError("cannot change \(paths.configFile): \(error)")
            }
            done.append("\(new.joined(separator: ", ")) \(new.count == 1 ? "starts" : "start") \(settings.displayName) too, and now \(new.count == 1 ? "pauses" : "pause") as it.")
        }
        return done
    }

    /// The commands of `settings`' program that are installed but do not
    /// pause: another name of it that appeared since it was protected (a
    /// package installed later). `miga refresh` takes them in.
    public func uncoveredCommands(of settings: ProgramSettings, config: Config) -> [String] {
        otherCommands(of: settings.command, config: config).filter { !settings.also.contains($0) }
    }
}
