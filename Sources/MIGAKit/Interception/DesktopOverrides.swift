#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Launches from the application menu: for a protected program's `.desktop`
/// file, a user-level override with the same name (which the desktop prefers
/// over the system's) whose Exec runs the gateway in a terminal.
///
/// The override is the original with three changes: every Exec (the main one
/// and each action's) becomes `miga gate --detach --as CMD ORIGINAL -- ARGS`,
/// keeping the original's field codes for the launcher to expand; Terminal is
/// true, so the desktop opens a window for the pause; DBusActivatable goes,
/// so the desktop uses Exec. Name, Icon, MimeType, Categories, translations
/// and actions stay as they were. A file of the person's own that was already
/// there is set aside and put back on undo.
public struct DesktopOverrides: Sendable {
    /// Where the system's entries are: `$XDG_DATA_DIRS` and Flatpak's exports.
    public let dataDirectories: [String]
    /// `$XDG_DATA_HOME/applications`, where overrides go.
    public let userApplications: String
    /// Where the person's own entries are kept while an override stands in their place.
    public let backups: String
    public let gateway: String

    /// Marks a file as MIGA's override, and names the program it stands for.
    static let programKey = "X-MIGA-Program"

    public init(paths: XDGPaths, environment: [String: String], gateway: String) {
        let home = environment["HOME"] ?? "/"
        var directories = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        for flatpak in [paths.dataHome + "/flatpak/exports/share", "/var/lib/flatpak/exports/share"] where !directories.contains(flatpak) {
            directories.append(flatpak)
        }
        dataDirectories = directories.filter { $0 != paths.dataHome && !$0.hasPrefix(home + "/.local/share/applications") }
        userApplications = paths.dataHome + "/applications"
        backups = paths.dataDirectory + "/backups/applications"
        self.gateway = gateway
    }

    /// The desktop entries that start `command`: their file names and the
    /// files the desktop would use for them (the person's own first).
    public func entries(for command: String) -> [(name: String, path: String)] {
        var chosen: [String: String] = [:]
        var order: [String] = []
        for directory in [userApplications] + dataDirectories.map({ $0 + "/applications" }) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names.sorted() where name.hasSuffix(".desktop") && chosen[name] == nil {
                chosen[name] = directory + "/" + name
                order.append(name)
            }
        }
        return order.compactMap { name in
            guard let path = chosen[name], let entry = Self.read(path) else { return nil }
            // An override of ours stands for the entry it replaced; match it by the program it names.
            if let program = entry.value(Self.programKey) { return program == command ? (name, path) : nil }
            return Self.launches(entry, command, fileName: name) ? (name, path) : nil
        }
    }

    /// Writes the overrides for `command`, returning what the manifest must remember.
    public func install(_ command: String) throws(ProtectionError) -> [Manifest.Entry] {
        var written: [Manifest.Entry] = []
        for (name, path) in entries(for: command) {
            let target = userApplications + "/" + name
            guard let original = Self.read(path) else { continue }
            var backup: String?
            if path == target && original.value(Self.programKey) == nil {
                // The person's own entry: keep it, byte for byte, to put back later.
                backup = backups + "/" + name
                do {
                    try makeDirectories(backups)
                    try atomicWrite(original.text, to: backup!, mode: 0o600)
                } catch {
                    throw ProtectionError(message: "miga: cannot set aside \(target): \(error)", status: ExitStatus.failure)
                }
            } else if path == target {
                // Protected again: the person's entry was set aside the first time.
                backup = existingBackup(name)
            }
            let override: DesktopEntry
            do {
                override = try overriding(original, for: command)
            } catch {
                throw ProtectionError(message: "miga: \(path) cannot be read as a desktop entry (\(error)); left alone", status: ExitStatus.failure)
            }
            do {
                try atomicWrite(override.text, to: target, mode: 0o644)
            } catch {
                throw ProtectionError(message: "miga: cannot write \(target): \(error)", status: ExitStatus.failure)
            }
            written.append(.desktopEntry(path: target, backup: backup, program: command))
        }
        return written
    }

    /// Removes the overrides for `command` named in `manifest`, putting back
    /// what they replaced. An override the person has since made their own
    /// (it no longer carries MIGA's mark) is theirs: it stays, and so does
    /// anything set aside for it.
    public func remove(_ command: String, from manifest: inout Manifest) throws(ProtectionError) {
        for entry in manifest.entries {
            guard case .desktopEntry(let path, let backup, let program) = entry, program == command else { continue }
            let current = Self.read(path)
            if current != nil && current?.value(Self.programKey) != command {
                manifest.forget(entry)
                continue
            }
            if current != nil && unlink(path) != 0 && errno != ENOENT {
                throw ProtectionError(message: "miga: cannot remove \(path): \(String(cString: strerror(errno)))", status: ExitStatus.failure)
            }
            if let backup, access(backup, F_OK) == 0 {
                guard rename(backup, path) == 0 else {
                    throw ProtectionError(message: "miga: cannot put \(backup) back at \(path): \(String(cString: strerror(errno)))", status: ExitStatus.failure)
                }
            }
            manifest.forget(entry)
        }
    }

    // MARK: Internals

    func existingBackup(_ name: String) -> String? {
        access(backups + "/" + name, F_OK) == 0 ? backups + "/" + name : nil
    }

    /// The override of `original` for `command`.
    func overriding(_ original: DesktopEntry, for command: String) throws(DesktopEntryError) -> DesktopEntry {
        var entry = original
        // A program that runs in a terminal already shares its window with the
        // pause; one that opens its own window is started detached, to outlive it.
        let inTerminal = original.value("Terminal")?.lowercased() == "true"
        for group in [DesktopEntry.mainGroup] + original.actionGroups {
            guard let exec = original.value("Exec", in: group) else { continue }
            let words = try DesktopExec.split(exec)
            guard let program = words.first else { continue }
            let gate: [ExecArgument] = [.text(gateway), .text("gate")] + (inTerminal ? [] : [.text("--detach")])
                + [.text("--as"), .text(command), program, .text("--")] + words.dropFirst()
            entry.setValue(DesktopExec.join(gate), for: "Exec", in: group)
        }
        entry.setValue("true", for: "Terminal")
        entry.removeValue(for: "DBusActivatable")
        entry.setValue(command, for: Self.programKey)
        return entry
    }

    /// Whether `entry` starts `command`: by its Exec program (past `env`
    /// assignments), its TryExec, its file name, or a Flatpak `--command=`.
    static func launches(_ entry: DesktopEntry, _ command: String, fileName: String) -> Bool {
        guard entry.value("Type") == "Application", entry.value("Hidden")?.lowercased() != "true" else { return false }
        if fileName == command + ".desktop" { return true }
        if let tryExec = entry.value("TryExec"), basename(tryExec) == command { return true }
        guard let exec = entry.value("Exec"), let words = try? DesktopExec.split(exec) else { return false }
        let texts = words.compactMap { word -> String? in
            if case .text(let text) = word { return text }
            return nil
        }
        var program = texts.first.map(basename)
        if program == "env" { program = texts.dropFirst().first { !$0.contains("=") }.map(basename) }
        if program == command { return true }
        return program == "flatpak" && texts.contains("--command=\(command)")
    }

    static func basename(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func read(_ path: String) -> DesktopEntry? {
        guard let text = (try? readTextFile(path)) ?? nil else { return nil }
        return try? DesktopEntry(text: text)
    }
}
