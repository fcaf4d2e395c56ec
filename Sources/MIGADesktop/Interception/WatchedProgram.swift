#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAConfig

/// A protected program as the leak watch knows it: the files whose processes
/// are that program, and the command lines its login starts run.
public struct WatchedProgram: Equatable, Sendable {
    public let command: String
    /// Binaries: a process whose executable is one of these runs the program.
    public var executables: Set<FileIdentity> = []
    /// Those of the binaries that a launcher script hands over to by a path of
    /// its own: their command line names that path, which says nothing of the route.
    public var handedOver: Set<FileIdentity> = []
    /// Scripts: each runs as its interpreter, with the script among its first arguments.
    public var scripts: Set<FileIdentity> = []
    /// What runs those scripts, from their `#!` lines (`env`'s program too).
    public var interpreters: Set<FileIdentity> = []
    /// The command lines of the program's login starts, field codes dropped.
    public var loginStarts: [[String]] = []

    public init(command: String) {
        self.command = command
    }

    /// Adds the program file at `path`: a binary, or a script together with
    /// the binaries it hands over to (Chromium's launcher ends in `exec` of the
    /// real one). A launcher of many programs (`snap`, `flatpak`, `env`, a
    /// shell) is never one: each of its runs would look like this program.
    ///   - resolver: finds a program the script hands over to by its name
    ///     (`exec firefox-esr "$@"`, Debian's `/usr/bin/firefox`), past the shims.
    mutating func add(file path: String, resolver: ProgramResolver? = nil) {
        guard !Self.isLauncher(path), let identity = FileIdentity(path: path) else { return }
        guard let script = Self.script(at: path) else {
            executables.insert(identity)
            return
        }
        scripts.insert(identity)
        if let interpreter = Self.interpreter(of: script) { interpreters.insert(interpreter) }
        for binary in Self.binaries(handedOverBy: script, at: path, resolver: resolver) {
            executables.insert(binary)
            handedOver.insert(binary)
        }
    }

    /// The binaries a launcher script hands over to: by path, or by a name
    /// `resolver` finds. A script it hands over to is followed in turn
    /// (Google Chrome's `/usr/bin/google-chrome` to `/opt/google/chrome/google-chrome`
    /// to `chrome`), to `scriptLevels` scripts in all; launchers of many programs never.
    ///   - path: where the script is, for one that finds its binary beside itself (`$0`).
    static func binaries(handedOverBy script: String, at path: String? = nil, resolver: ProgramResolver?,
                         level: Int = 1) -> Set<FileIdentity> {
        var found: Set<FileIdentity> = []
        for target in handedOver(in: script, at: path) {
            guard let file = target.hasPrefix("/") ? target : resolver?.resolve(target),
                  file.hasPrefix("/"), isExecutableFile(file), !Self.isLauncher(file) else { continue }
            if let next = Self.script(at: file) {
                if level < scriptLevels { found.formUnion(binaries(handedOverBy: next, at: file, resolver: resolver, level: level + 1)) }
            } else if let binary = FileIdentity(path: file) {
                found.insert(binary)
            }
        }
        return found
    }

    /// How many launcher scripts in a row are read, the protected one included.
    static let scriptLevels = 2
    /// The most of a script that is read: launchers are a few KiB (Debian's
    /// Chromium's is 5); a larger file is another kind of program, left unread.
    static let scriptLimit = 16_384

    /// Whether `path` is a regular file this user may run.
    static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }

    /// The text of the file at `path` when it is a script (`#!`), else nil:
    /// its first `scriptLimit` bytes, to the last whole line (another
    /// package's file, which may be anything: read so far and never run).
    static func script(at path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: scriptLimit)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        guard filled >= 2, bytes[0] == 0x23, bytes[1] == 0x21 else { return nil }
        var text = bytes.prefix(filled)
        // Cut short: a line cut in two is no line of the script's.
        if filled == scriptLimit, let lastEnd = text.lastIndex(of: 0x0A) { text = text.prefix(lastEnd + 1) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The program a script's `#!` line runs it with: the interpreter named,
    /// or the one `env` finds (`#!/usr/bin/env python3`, `#!/usr/bin/env -S bash -e`).
    static func interpreter(of script: String) -> FileIdentity? {
        guard let first = script.lines().first, first.hasPrefix("#!") else { return nil }
        let words = first.dropFirst(2).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let program = DesktopExec.program(in: words) else { return nil }
        guard !program.hasPrefix("/") else { return FileIdentity(path: program) }
        return ProgramResolver(searchPath: "/usr/local/bin:/usr/bin:/bin").resolve(program).flatMap(FileIdentity.init(path:))
    }

    /// The absolute paths and the command names a shell script `exec`s, with
    /// the plain assignments before it filled in as they stood when made
    /// (`exec $LIBDIR/$APPNAME "$@"` after `APPNAME=chromium` and
    /// `LIBDIR=/usr/lib/$APPNAME`; `exec -a "$0" "$HERE/chrome"`; `exec firefox-esr "$@"`).
    /// Nothing of the script is run: a value it would compute is unknown,
    /// but for where the script itself is (`computed`), when `path` says.
    static func handedOver(in script: String, at path: String? = nil) -> [String] {
        var variables: [String: String] = [:]
        var found: [String] = []
        for line in script.lines().map({ $0.trimmingWhitespace() }) {
            if let (name, value) = assignment(in: line) {
                let plain = value.contains(" ") || value.contains("$(") || value.contains("`") ? nil : expand(value, with: variables)
                variables[name] = (computed(value, script: path, variables: variables) ?? plain).flatMap { $0.contains("$") ? nil : $0 }
                continue
            }
            var words = line.split(separator: " ").map(String.init)
            guard words.first == "exec" else { continue }
            words.removeFirst()
            // exec's own options: -c, -l, and -a with the name it gives.
            while let option = words.first, option.hasPrefix("-") {
                words.removeFirst(option == "-a" ? min(2, words.count) : 1)
            }
            guard let word = words.first else { continue }
            let target = expand(word.trimming("\"'"), with: variables)
            if !target.contains("$"), !target.contains("`"), !target.isEmpty, target.hasPrefix("/") || !target.contains("/") {
                found.append(target)
            }
        }
        return found
    }

    /// A plain assignment's name and value (`LIBDIR=/usr/lib/$APPNAME`,
    /// `export X="y"`), quotes around it dropped; nil for any other line.
    static func assignment(in line: String) -> (name: String, value: String)? {
        let line = line.hasPrefix("export ") ? String(line.dropFirst(7)).trimmingWhitespace() : line
        guard let equals = line.firstIndex(of: "="), !line.hasPrefix("exec") else { return nil }
        let name = line[..<equals]
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !(name.first?.isNumber ?? true) else { return nil }
        return (String(name), line[line.index(after: equals)...].trimming("\"'"))
    }

    /// The two values a launcher computes from where it is, and nothing
    /// else: `readlink -f "$0"` (the script's real path, when `path` is
    /// known) and `dirname` of a path known (Google Chrome's
    /// `HERE="`dirname "$CHROME_WRAPPER"`"`).
    static func computed(_ value: String, script path: String?, variables: [String: String]) -> String? {
        let inner: Substring
        if value.count > 2, value.hasPrefix("`"), value.hasSuffix("`") {
            inner = value.dropFirst().dropLast()
        } else if value.count > 3, value.hasPrefix("$("), value.hasSuffix(")") {
            inner = value.dropFirst(2).dropLast()
        } else {
            return nil
        }
        let words = inner.split(separator: " ").map { $0.trimming("\"'") }
        func known(_ word: String) -> String? {
            if ["$0", "${0}", "$BASH_SOURCE", "${BASH_SOURCE}", "${BASH_SOURCE[0]}"].contains(word) { return path }
            let expanded = expand(word, with: variables)
            return expanded.hasPrefix("/") && !expanded.contains("$") ? expanded : nil
        }
        if words.count == 3, words[0] == "readlink", ["-f", "-e"].contains(words[1]) { return known(words[2]).flatMap(realpath) }
        if words.count == 2, words[0] == "dirname" { return known(words[1]).map(folderName(of:)) }
        return nil
    }

    /// `text` with the variables known filled in (`$NAME`, `${NAME}`), longest names first.
    static func expand(_ text: String, with variables: [String: String]) -> String {
        var text = text
        for (name, value) in variables.sorted(by: { ($1.key.count, $0.key) < ($0.key.count, $1.key) }) {
            text = text.replacingOccurrences(of: "${\(name)}", with: value).replacingOccurrences(of: "$\(name)", with: value)
        }
        return text
    }

    /// Programs that start other programs: shells, interpreters, sandboxes and
    /// launchers. Never taken as a program of the person's, by the name it is
    /// reached by or the file it is (`/snap/bin/firefox` is `/usr/bin/snap`).
    static func isLauncher(_ path: String) -> Bool {
        [path, realpath(path) ?? path].contains { candidate in
            let name = baseName(of: candidate)
            return launchers.contains(name) || Protection.shells.contains(name) || name.hasPrefix("python3.") || name.hasPrefix("miga")
        }
    }

    static let launchers: Set<String> = [
        "env", "snap", "flatpak", "flatpak-spawn", "bwrap", "firejail", "gio", "gtk-launch", "xdg-open", "dex", "exo-open",
        "kioclient", "kioclient5", "kde-open", "sudo", "pkexec", "nice", "ionice", "taskset", "nohup", "setsid",
        "gamemoderun", "prime-run", "steam-run", "xdg-terminal-exec", "x-terminal-emulator",
        "x-www-browser", "gnome-www-browser", "www-browser", "sensible-browser", "sensible-editor", "sensible-pager",
        "sensible-terminal",
        "python", "python3", "perl", "ruby", "node", "java",
    ]
}

extension Protection {
    /// The protected programs as the leak watch looks for them: the file the
    /// gateway would run, the files MIGA's menu overrides stand in front of,
    /// and the login starts. Never MIGA itself.
    ///   - config: the config when the caller has it loaded already; read here when not.
    public func watchedPrograms(config: Config? = nil) -> [WatchedProgram] {
        let config = config ?? self.config
        let manifest = Manifest(path: manifestPath)
        let gateway = FileIdentity(path: shims.gateway)
        return config.programs.values.sorted(by: { $0.command < $1.command }).map { settings in
            let command = settings.command
            var watched = WatchedProgram(command: command)
            for name in settings.commands {
                if let path = realProgram(name) { watched.add(file: path, resolver: programResolver) }
            }
            for override in manifest.menuOverrides(for: command) {
                let place = overrides(at: override.path)
                guard let source = place.source(named: baseName(of: override.path)),
                      let words = source.entry.value("Exec").map(DesktopExec.texts) else { continue }
                if let program = DesktopExec.program(in: words), let path = program.contains("/") ? program : realProgram(program) {
                    watched.add(file: path, resolver: programResolver)
                }
            }
            watched.loginStarts = login.sources(for: command).compactMap { $0.entry.value("Exec").map(DesktopExec.texts) }.filter { !$0.isEmpty }
            if let gateway {
                watched.executables.remove(gateway)
                watched.scripts.remove(gateway)
                watched.interpreters.remove(gateway)
            }
            return watched
        }
    }
}
