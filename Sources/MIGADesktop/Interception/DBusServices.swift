#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore

/// D-Bus activation: a launcher (or another app) that asks the session bus
/// for `org.telegram.desktop` starts the Exec of that name's service file,
/// never the menu entry's. The bus prefers a same-named file in
/// `$XDG_DATA_HOME/dbus-1/services`, so MIGA writes one there whose Exec runs
/// the gateway in a window, then the original Exec on Proceed.
public struct DBusServices: Sendable {
    /// `dbus-1/services` of the data directories and Flatpak's exports.
    public let sourceFolders: [String]
    /// `$XDG_DATA_HOME/dbus-1/services`, where overrides go.
    public let userFolder: String
    public let gateway: String

    static let group = "[D-BUS Service]"

    public init(paths: XDGPaths, environment: [String: String], gateway: String) {
        self.init(sourceFolders: DesktopOverrides.dataDirectories(paths: paths, environment: environment).map { $0 + "/dbus-1/services" },
                  userFolder: paths.dataHome + "/dbus-1/services", gateway: gateway)
    }

    package init(sourceFolders: [String], userFolder: String, gateway: String) {
        self.sourceFolders = sourceFolders
        self.userFolder = userFolder
        self.gateway = gateway
    }

    /// A service file: the bus name it provides and the command line that provides it.
    package struct Service: Equatable {
        package let path: String
        package let name: String
        package let exec: String
        /// The program it stands for, when it is an override of MIGA's.
        package let program: String?
    }

    /// The services that start `command`: named after one of `appIDs` (the
    /// IDs of its menu entries, `org.telegram.desktop`), or running it.
    func sources(for command: String, appIDs: Set<String>) -> [Service] {
        var seen: Set<String> = []
        var found: [Service] = []
        for folder in sourceFolders {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            for name in names where name.hasSuffix(".service") && seen.insert(name).inserted {
                guard let service = Self.read(folder + "/" + name), service.program == nil else { continue }
                let words = DesktopExec.words(service.exec, fieldCodes: false)
                let program = DesktopExec.program(in: words).map(baseName(of:))
                let flatpak = program == "flatpak" ? FlatpakRun.appID(in: Array(words.dropFirst())) : nil
                if appIDs.contains(service.name) || program == command || flatpak.map(appIDs.contains) == true {
                    found.append(service)
                }
            }
        }
        return found
    }

    /// Writes the overrides for `command`. A file of the person's own at the
    /// same place is left alone, and said so. Returns the notes.
    func install(_ command: String, appIDs: Set<String>, into manifest: inout Manifest) throws(MigaError) -> [String] {
        var notes: [String] = []
        for source in sources(for: command, appIDs: appIDs) {
            let target = userFolder + "/" + baseName(of: source.path)
            if access(target, F_OK) == 0, Self.read(target)?.program == nil {
                notes.append("\(target) is your own D-Bus service file; left alone, so activating \(source.name) opens \(command) without a pause")
                continue
            }
            guard let text = overriding(source, for: command) else {
                let why = DesktopExec.problem(in: source.exec, fieldCodes: false) ?? "it has no program"
                notes.append("\(source.path) has a command line MIGA cannot rewrite (\(why)); left alone, so activating \(source.name) opens \(command) without a pause")
                continue
            }
            do {
                try makeDirectories(userFolder)
                try writeIfChanged(text, to: target, mode: DesktopOverrides.mode)
            } catch {
                throw MigaError("cannot write \(target): \(error)")
            }
            manifest.record(.service(path: target, program: command))
        }
        return notes
    }

    /// Removes the overrides of `command` that `manifest` names, if they are still MIGA's.
    func remove(_ command: String, from manifest: inout Manifest) throws(MigaError) {
        for case .service(let path, let program) in manifest.entries where program == command {
            try remove(path: path, program: program, from: &manifest)
        }
    }

    func remove(path: String, program: String, from manifest: inout Manifest) throws(MigaError) {
        if Self.read(path)?.program == program, unlink(path) != 0, errno != ENOENT {
            throw MigaError("cannot remove \(path): \(String(cString: strerror(errno)))")
        }
        manifest.forget(.service(path: path, program: program))
    }

    /// The override's text, or nil when the source's Exec cannot be read.
    package func overriding(_ source: Service, for command: String) -> String? {
        // dbus-daemon reads Exec with GLib's quoting and no field codes: `%` is text.
        guard let words = try? DesktopExec.split(source.exec, fieldCodes: false), case .text? = words.first else { return nil }
        let invocation = GateInvocation(command: command, detach: true, window: true, identity: command)
        let gate: [ExecArgument] = [.text(gateway)] + invocation.wordsBeforeCommand.map { .text($0) }
            + [words[0], .text(GateInvocation.argumentsFollow)] + words.dropFirst()
        return """
            # Written by MIGA: activating \(source.name) shows the pause first (from \(source.path)).
            \(Self.group)
            Name=\(source.name)
            Exec=\(DesktopExec.join(gate, fieldCodes: false))
            \(DesktopOverrides.programKey)=\(command)

            """
    }

    /// A service file's name, Exec and mark, read as dbus-daemon reads them; nil when it has no name or Exec.
    static func read(_ path: String) -> Service? {
        DesktopOverrides.readText(path).flatMap { parse($0, path: path) }
    }

    package static func parse(_ text: String, path: String) -> Service? {
        var inGroup = false
        var values: [String: String] = [:]
        for raw in text.lines() {
            let line = raw.trimmingWhitespace()
            if line.hasPrefix("[") { inGroup = line == group; continue }
            guard inGroup, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingWhitespace()
            if values[key] == nil { values[key] = line[line.index(after: equals)...].trimmingWhitespace() }
        }
        guard let name = values["Name"], !name.isEmpty, let exec = values["Exec"], !exec.isEmpty else { return nil }
        return Service(path: path, name: name, exec: exec, program: values[DesktopOverrides.programKey])
    }
}
