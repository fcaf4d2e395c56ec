#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A protected program as the leak watch knows it: the files whose processes
/// are that program, and the command lines its login starts run.
public struct WatchedProgram: Equatable, Sendable {
    public let command: String
    /// Binaries: a process whose executable is one of these runs the program.
    public var executables: Set<FileIdentity> = []
    /// Scripts: each runs as its interpreter, with the script as its first argument.
    public var scripts: Set<FileIdentity> = []
    /// The names the kernel gives a script's process (its file name, cut to 15 bytes).
    public var scriptNames: Set<String> = []
    /// The command lines of the program's login starts, field codes dropped.
    public var loginStarts: [[String]] = []

    public init(command: String) {
        self.command = command
    }

    /// Adds the program file at `path`: a binary, or a script together with
    /// the binaries it hands over to (Chromium's launcher ends in `exec` of the real one).
    mutating func add(file path: String) {
        guard let identity = FileIdentity(path: path) else { return }
        guard let script = Self.script(at: path) else {
            executables.insert(identity)
            return
        }
        scripts.insert(identity)
        for name in [path, realpath(path) ?? path] {
            scriptNames.insert(String(decoding: name.split(separator: "/").last.map { Array($0.utf8.prefix(15)) } ?? [], as: UTF8.self))
        }
        for target in Self.handedOver(in: script) where Self.script(at: target) == nil {
            if let binary = FileIdentity(path: target), !Self.isInterpreter(target) { executables.insert(binary) }
        }
    }

    /// The text of the file at `path` when it is a script (`#!`), else nil.
    static func script(at path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var head: [UInt8] = [0, 0]
        let count = read(fd, &head, 2)
        close(fd)
        guard count == 2, head == [0x23, 0x21] else { return nil }
        return (try? readTextFile(path, limit: 65_536)) ?? nil
    }

    /// The absolute paths a shell script `exec`s, with the plain assignments
    /// before it filled in (`exec $LIBDIR/$APPNAME "$@"` after `LIBDIR=/usr/lib/chromium`).
    static func handedOver(in script: String) -> [String] {
        var variables: [String: String] = [:]
        var found: [String] = []
        for line in script.lines().map({ $0.trimmingWhitespace() }) {
            if let equals = line.firstIndex(of: "="), !line.hasPrefix("exec"),
               line[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !line[..<equals].isEmpty {
                let value = line[line.index(after: equals)...].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                if !value.contains(" "), !value.contains("$(") { variables[String(line[..<equals])] = value }
                continue
            }
            let words = line.split(separator: " ")
            guard words.first == "exec", let word = words.dropFirst().first(where: { !$0.hasPrefix("-") }) else { continue }
            var path = String(word).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            for (name, value) in variables {
                path = path.replacingOccurrences(of: "${\(name)}", with: value).replacingOccurrences(of: "$\(name)", with: value)
            }
            if path.hasPrefix("/"), !path.contains("$") { found.append(path) }
        }
        return found
    }

    /// Interpreters and shells: never taken as a program of the person's.
    static func isInterpreter(_ path: String) -> Bool {
        let name = String(path.split(separator: "/").last ?? "")
        return Protection.shells.contains(name) || ["env", "python", "python3", "perl", "ruby", "node", "java"].contains(name)
            || name.hasPrefix("python3.")
    }
}

extension Protection {
    /// The protected programs as the leak watch looks for them: the file the
    /// gateway would run, the files MIGA's menu overrides stand in front of,
    /// and the login starts. Never MIGA itself.
    public func watchedPrograms() -> [WatchedProgram] {
        let config = ConfigLoader.load(from: paths.configFile).config
        let manifest = Manifest(path: manifestPath)
        let gateway = FileIdentity(path: shims.gateway)
        return config.programs.keys.sorted().map { command in
            var watched = WatchedProgram(command: command)
            if let path = realProgram(command) { watched.add(file: path) }
            for override in manifest.menuOverrides(for: command) {
                let place = overrides(at: override.path)
                guard let source = place.source(named: DesktopOverrides.basename(override.path)),
                      let first = source.entry.value("Exec").map(DesktopExec.texts)?.first else { continue }
                if let path = first.contains("/") ? first : realProgram(first) { watched.add(file: path) }
            }
            watched.loginStarts = login.sources(for: command).compactMap { $0.entry.value("Exec").map(DesktopExec.texts) }.filter { !$0.isEmpty }
            if let gateway {
                watched.executables.remove(gateway)
                watched.scripts.remove(gateway)
            }
            return watched
        }
    }

    /// Looks once for launches of protected programs that went around the
    /// pause, and records the new ones in `store`. A process that started
    /// around a launch the store has through the gate is that launch (a
    /// wrapper may drop the gateway's mark). Returns how many were new.
    @discardableResult
    public func recordLeaks(in store: SessionStore, now: Date = Date()) -> Int {
        let leaks = LeakWatch().look(for: watchedPrograms()).filter { leak in
            guard let started = leak.startedAt else { return true }
            return !((try? store.launchedThroughGate(leak.program, around: started)) ?? false)
        }
        return (try? store.recordLeaks(leaks, at: now)) ?? 0
    }
}
