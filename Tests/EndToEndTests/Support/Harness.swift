import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGADesktop

/// The `miga` binary built beside this test bundle (or `MIGA_BINARY`).
let migaBinary: String = {
    if let path = ProcessInfo.processInfo.environment["MIGA_BINARY"] { return path }
    let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return (bundle as NSString).deletingLastPathComponent + "/miga"
}()

struct SpawnFailure: Error, CustomStringConvertible {
    let executable: String
    let code: Int32
    var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
}

struct Timeout: Error, CustomStringConvertible {
    let what: String
    let last: String
    var description: String { "timed out waiting for \(what); last seen:\n\(last)" }
}

/// Polls until `check` returns a value, up to a generous ceiling: CI machines
/// are small and loaded, and a fixed sleep is either too short or wasteful.
@discardableResult
func eventually<T>(_ what: String, timeout: Double = 30, _ check: () throws -> T?) throws -> T {
    let deadline = Date() + timeout
    var last = ""
    while Date() < deadline {
        do {
            if let value = try check() { return value }
        } catch {
            last = "\(error)"
        }
        usleep(50_000)
    }
    throw Timeout(what: what, last: last)
}

/// Copies an executable without leaking its write descriptor into children
/// that other test threads spawn meanwhile (FileManager's copy opens without
/// O_CLOEXEC, and a leaked descriptor makes the copy "text file busy").
func copyExecutable(from source: String, to destination: String) throws {
    guard let bytes = FileManager.default.contents(atPath: source) else { throw SpawnFailure(executable: source, code: ENOENT) }
    let fd = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw SpawnFailure(executable: destination, code: errno) }
    defer { close(fd) }
    guard bytes.withUnsafeBytes({ writeAll(fd, $0) }) else { throw SpawnFailure(executable: destination, code: errno) }
}

/// Quotes a word for sh.
func shellQuoted(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// Runs a program to completion and returns its status and output. Built on
/// posix_spawn and waitpid: Foundation's Process can miss the exit of a child
/// that starts a daemon (tmux does), and wait forever.
@discardableResult
func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
         input: String? = nil, captureOutput: Bool = true) throws -> (status: Int32, output: String, error: String) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var inputPipe: [Int32] = [-1, -1], outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
    if input != nil {
        pipe(&inputPipe)
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
    } else {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    if captureOutput {
        pipe(&outputPipe)
        pipe(&errorPipe)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    for fd in inputPipe + outputPipe + errorPipe where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }

    var attributes = shellLikeSpawnAttributes()
    defer { posix_spawnattr_destroy(&attributes) }
    let spawned = Result { try spawnProcess(executable, arguments, environment: environment ?? ProcessInfo.processInfo.environment,
                                            actions: &actions, attributes: &attributes) }
    for fd in [inputPipe[0], outputPipe[1], errorPipe[1]] where fd >= 0 { close(fd) }
    let pid = try spawned.get()

    if let input {
        // A program that stops reading (as it may on input it refuses) makes
        // the rest of the write fail, not end the tests; children still get
        // SIGPIPE's default (shellLikeSpawnAttributes).
        signal(SIGPIPE, SIG_IGN)
        var bytes = Array(input.utf8)
        _ = write(inputPipe[1], &bytes, bytes.count)
        close(inputPipe[1])
    }
    var output: [UInt8] = [], error: [UInt8] = []
    if captureOutput {
        var fds = [pollfd(fd: outputPipe[0], events: Int16(POLLIN), revents: 0),
                   pollfd(fd: errorPipe[0], events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while fds.contains(where: { $0.fd >= 0 }) {
            guard poll(&fds, 2, -1) > 0 else { continue }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = read(fds[index].fd, &buffer, buffer.count)
                if count > 0 {
                    if index == 0 { output += buffer[0..<count] } else { error += buffer[0..<count] }
                } else {
                    close(fds[index].fd)
                    fds[index].fd = -1
                }
            }
        }
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (exitStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
}

/// Spawn attributes that start a child as a shell would: no signals blocked,
/// none ignored. The test runner's threads block most signals, and a child
/// inherits the mask. (Destroy them after use.)
/// `executable` started with `arguments` and `environment` (as C arrays made
/// and freed here), with the file actions and attributes given; its pid.
func spawnProcess(_ executable: String, _ arguments: [String], environment: [String: String],
                  actions: inout posix_spawn_file_actions_t, attributes: inout posix_spawnattr_t) throws -> pid_t {
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    var spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    // A program a test has just written (copyExecutable) can be "busy" for
    // a moment: a child another test forked meanwhile holds the write end
    // until its own exec closes it. Tried again for up to two seconds.
    var waited = 0
    while spawned == ETXTBSY && waited < 200 {
        usleep(10_000)
        waited += 1
        spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    }
    guard spawned == 0 else { throw SpawnFailure(executable: executable, code: spawned) }
    return pid
}

func shellLikeSpawnAttributes() -> posix_spawnattr_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    var empty = sigset_t(), all = sigset_t()
    sigemptyset(&empty)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return attributes
}

/// A private home for one test: XDG folders, a bin folder of fake programs,
/// and the store the gateway writes. Nothing outside it is touched.
final class Sandbox {
    let root: String
    /// The programs started with `start`, to reap.
    private var started: [pid_t] = []

    init() {
        var template = Array("/tmp/miga-e2e-XXXXXX".utf8CString)
        root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        try? FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        // A program that writes its arguments, NUL-terminated, and exits with 7.
        // Written aside and renamed, so a test polling for the file never reads it half-written.
        try? program("argv-dump", """
            #!/bin/sh
            printf '%s\\0' "$@" > "\(root)/argv.$$"
            /bin/mv "\(root)/argv.$$" "\(root)/argv"
            exit 7
            """)
    }

    deinit {
        if !started.isEmpty { try? stopPrograms() }
        try? FileManager.default.removeItem(atPath: root)
    }

    var storePath: String { root + "/data/miga/miga.sqlite" }

    /// The sandbox's own programs, menu entries and login starts, and the
    /// machine's tools without the programs a fixture gives itself (see
    /// `systemPath`): whatever else is installed here, a test sees the same.
    var environment: [String: String] {
        ["HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_DATA_HOME": root + "/data",
         "XDG_DATA_DIRS": root + "/system", "XDG_CONFIG_DIRS": root + "/xdg",
         "PATH": root + "/bin:" + Self.systemPath, "LANG": "C.UTF-8", "TZ": "UTC"]
    }

    /// The machine's commands (`/usr/bin`, which `/bin` is on Debian) as links
    /// in a folder of this test run's, less the ones a test must give itself:
    /// the catalog's programs (a browser installed on the machine would
    /// otherwise be "installed" in setup) and every terminal emulator but
    /// xterm, the one the window tests are written for. Made once a run.
    static let systemPath: String = {
        let hidden = Set(ProgramCatalog.programs.flatMap(\.commands) + TerminalEmulator.known.map(\.name)
            + ["flatpak", "snap", "uxterm", "koi8rxterm", "lxterm"])
            .subtracting(["xterm"])
        var template = Array("/tmp/miga-e2e-system-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/usr/bin")) ?? [] where !hidden.contains(name) {
            var info = stat()
            guard stat("/usr/bin/" + name, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { continue }
            symlink("/usr/bin/" + name, folder + "/" + name)
        }
        return folder
    }()

    /// A stand-in program, written with a close-on-exec descriptor so that it
    /// can be executed at once (see `copyExecutable`).
    func program(_ name: String, _ script: String) throws {
        let path = root + "/bin/" + name
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw SpawnFailure(executable: path, code: errno) }
        defer { close(fd) }
        guard writeAll(fd, script) else { throw SpawnFailure(executable: path, code: errno) }
    }

    func config(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: root + "/config/miga", withIntermediateDirectories: true)
        try text.write(toFile: root + "/config/miga/config.toml", atomically: true, encoding: .utf8)
    }

    func read(_ name: String) -> String? {
        try? String(contentsOfFile: root + "/" + name, encoding: .utf8)
    }

    func bytes(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: root + "/" + name).map { Array($0) }
    }

    /// The rows the gateways wrote, read through the real store (which folds
    /// in pass-throughs waiting in its inbox).
    func sessions() throws -> [SessionRecord] {
        guard FileManager.default.fileExists(atPath: root + "/data/miga") else { return [] }
        return try SessionStore(path: storePath).sessions()
    }

    /// A script that runs `miga gate ARGS` under sh, saving its pid and exit
    /// status, then stays alive so the pane (and its terminal) remain to inspect.
    func gateScript(_ arguments: [String], named name: String = "run.sh") throws -> String {
        try migaScript(["gate"] + arguments, named: name)
    }

    /// The same for any `miga` command line.
    func migaScript(_ arguments: [String], named name: String = "run.sh") throws -> String {
        let words = ([migaBinary] + arguments).map(shellQuoted).joined(separator: " ")
        let script = """
            cd \(shellQuoted(root))
            sh -c 'echo $$ > \(name).pid; exec "$0" "$@"' \(words)
            echo "$?" > \(name).status
            sleep 600
            """
        try script.write(toFile: root + "/" + name, atomically: true, encoding: .utf8)
        return "sh " + shellQuoted(root + "/" + name)
    }

    func pid(of name: String = "run.sh") throws -> Int32 {
        try eventually("the gateway's pid") { read(name + ".pid").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } }
    }

    func status(of name: String = "run.sh", timeout: Double = 30) throws -> Int32 {
        try eventually("the gateway's exit status", timeout: timeout) {
            read(name + ".status").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }
}

extension Sandbox {
    /// A program of the sandbox's that keeps running, as a browser or a game
    /// launcher does (a copy of `sleep`, a binary), under a name of its own so
    /// that no other run's processes count; returns the name.
    func longRunningProgram() throws -> String {
        let name = "slow" + UUID().uuidString.prefix(6).lowercased()
        try copyExecutable(from: "/usr/bin/sleep", to: root + "/bin/" + name)
        return name
    }

    /// Starts one of the sandbox's programs in the background; `stopPrograms`
    /// ends it and waits for it, so that it never stays behind as a zombie
    /// (one left unreaped keeps Swift Testing's exit tests waiting forever).
    func start(_ program: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
        let pid = try spawn(root + "/bin/" + program, arguments, environment: environment)
        started.append(pid)
        return pid
    }

    /// Ends every process of the sandbox's programs, however the test went,
    /// and reaps those this test process started.
    func stopPrograms() throws {
        let found = try run("/usr/bin/pgrep", ["-f", root + "/bin/"]).output
        for pid in found.split(whereSeparator: \.isNewline).compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
        for pid in started {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        started = []
    }
}

extension Sandbox {
    /// `miga setup` run again in a real terminal, Enter on every page: the
    /// choices as they stand are applied once more.
    func setupAgain(environment: [String: String]) throws {
        let script = root + "/setup.sh"
        try "cd \(shellQuoted(root))\n\(shellQuoted(migaBinary)) setup\necho \"$?\" > setup.sh.status\nsleep 600\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        unlink(root + "/setup.sh.status")
        let tmux = try Tmux(command: "sh " + shellQuoted(script), environment: environment)
        try tmux.waitForScreen("the program list") { $0.contains("Which programs should pause first?") }
        try tmux.finishSetup(hookKey: "Enter")
        try tmux.waitForScreen("the hub") { $0.contains("s stats") }
        try tmux.send("q")
        #expect(try status(of: "setup.sh") == 0)
    }
}

extension Tmux {
    /// From setup's program list, Enter through interests and the pause
    /// length (shown as `pauseShown`, when given), `hookKey` on the hook offer
    /// if there is one, and Enter on the summary.
    /// `browsersKey` answers "Sites in your browser", asked when a browser is found and a site ticked.
    func finishSetup(pauseShown: String? = nil, hookKey: String, browsersKey: String = "n") throws {
        try send("Enter")
        try waitForScreen("interests") { $0.contains("What would you like to read") }
        try send("Enter")
        try waitForScreen("the pause length") { screen in
            screen.contains("How long should a pause last?") && (pauseShown.map { screen.contains($0) } ?? true)
        }
        try send("Enter")
        // The hook page by its title: the line it offers names miga by a path
        // whose length decides where it wraps.
        var answered: Set<String> = []
        while true {
            let next = try waitForScreen("the hook offer, the browsers' question or the summary") { screen in
                screen.contains("Ready when you are")
                    || (screen.contains("Reach your programs from the shell") && !answered.contains("hook"))
                    || (screen.contains("Sites in your browser") && !answered.contains("browsers"))
            }
            if next.contains("Ready when you are") { break }
            let page = next.contains("Sites in your browser") ? "browsers" : "hook"
            try send(page == "hook" ? hookKey : browsersKey)
            answered.insert(page)
        }
        try send("Enter")
    }
}

/// A tmux server of our own: a real pseudo terminal for the real binary.
final class Tmux {
    let socket = "miga-e2e-\(UUID().uuidString.prefix(8))"

    init(columns: Int = 80, rows: Int = 24, command: String, environment: [String: String]) throws {
        try start(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)",
                   Self.withEnvironment(command, environment)])
        try tmux(["set-option", "-g", "remain-on-exit", "on"])
    }

    /// tmux gives a new pane its client's PATH whatever `-e` says, so the
    /// environment goes into the command itself. `swift test` sets NO_COLOR
    /// for itself; a terminal of the test's own has colours unless told not to.
    static func withEnvironment(_ command: String, _ environment: [String: String]) -> String {
        let pairs = environment.sorted { $0.key < $1.key }.map { shellQuoted("\($0.key)=\($0.value)") }
        return "exec env -u NO_COLOR " + pairs.joined(separator: " ") + " " + command
    }

    /// Runs a tmux command that may start the server, with its output on
    /// /dev/null: the server would inherit a pipe and hold it open forever.
    private func start(_ arguments: [String]) throws {
        let result = try run("/usr/bin/tmux", ["-L", socket] + arguments, captureOutput: false)
        guard result.status == 0 else { throw Timeout(what: "tmux \(arguments.first ?? "")", last: "status \(result.status)") }
    }

    deinit { _ = try? run("/usr/bin/tmux", ["-L", socket, "kill-server"]) }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let result = try run("/usr/bin/tmux", ["-L", socket] + arguments)
        guard result.status == 0 else { throw Timeout(what: "tmux \(arguments.joined(separator: " "))", last: result.error) }
        return result.output
    }

    func newWindow(_ command: String, environment: [String: String]) throws {
        try start(["new-window", "-d", Self.withEnvironment(command, environment)])
    }

    func screen(_ target: String = "") throws -> String {
        try tmux(["capture-pane", "-p"] + (target.isEmpty ? [] : ["-t", target]))
    }

    func screenWithEscapes() throws -> String { try tmux(["capture-pane", "-p", "-e"]) }

    func send(_ keys: String..., target: String = "") throws {
        try tmux(["send-keys"] + (target.isEmpty ? [] : ["-t", target]) + keys)
    }

    func value(_ format: String, target: String = "") throws -> String {
        try tmux(["display-message", "-p"] + (target.isEmpty ? [] : ["-t", target]) + [format])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the screen satisfies `condition`, and returns it.
    @discardableResult
    func waitForScreen(_ what: String, timeout: Double = 30, target: String = "",
                       _ condition: (String) -> Bool) throws -> String {
        var last = ""
        do {
            return try eventually(what, timeout: timeout) {
                last = try screen(target)
                return condition(last) ? last : nil
            }
        } catch {
            throw Timeout(what: what, last: last)
        }
    }

    /// The terminal's line settings, read from its device as `stty` sees them.
    func terminalSettings() throws -> String {
        try run("/bin/stty", ["-a", "-F", value("#{pane_tty}")]).output
    }
}

extension String {
    /// The lines that are not blank.
    var words: [String] { split(separator: "\n").map(String.init).filter { !$0.allSatisfy(\.isWhitespace) } }
}

/// Whether a process is gone (or only a zombie waiting for its parent).
func isGone(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return true }
    return stat[stat.index(close, offsetBy: 2)] == "Z"
}

extension Sandbox {
    /// A terminal emulator as GLib (`--`), dex (`-e`) and MIGA start one,
    /// named `name` on this sandbox's PATH: its window is a new window of
    /// `tmux`, given the sandbox's variables. The window's own options (a
    /// title, a size) are passed over: the command follows `--`, `-e` or
    /// `-x`, or is the first absolute path. With `recording`, its argv goes there first.
    func terminal(into tmux: Tmux, named name: String = "gnome-terminal", recording argvFile: String? = nil) throws {
        let passed = ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS", "PATH", "LANG", "TZ"]
            .map { "\($0)=\"$\($0)\"" }.joined(separator: " ")
        try program(name, """
            #!/bin/sh
            \(argvFile.map { "printf '%s\\n' \"$@\" > \"\($0)\"" } ?? "")
            while [ $# -gt 0 ]; do
                case "$1" in --|-e|-x) shift; break ;; /*) break ;; esac
                shift
            done
            exec /usr/bin/tmux -L "\(tmux.socket)" new-window -d /usr/bin/env \(passed) "$@"
            """)
    }
}

extension Tmux {
    /// Waits for the pause before `name` in window `launched` (its `launched`th
    /// new window), lets the countdown end, and proceeds.
    func proceedInWindow(_ launched: Int, name: String) throws {
        let window = ":\(launched)"
        try eventually("the pause's window") { try value("#{session_windows}") == "\(launched + 1)" ? true : nil }
        try waitForScreen("the pause", target: window) { $0.contains("a pause before \(name)") }
        try waitForScreen("the end of the countdown", target: window) { $0.contains("the choice is yours") }
        try send("p", target: window)
    }
}
