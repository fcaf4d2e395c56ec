#if canImport(Glibc)
import Glibc
#endif
import MIGACore
import MIGATerminal

/// The real program, ready to start: where it is and exactly what it gets.
public struct Launch: Equatable, Sendable {
    /// The file to execute, from the PATH search.
    public let path: String
    /// The argument vector, byte for byte as the gateway received it (argv[0]
    /// is the command as typed), never joined into a shell string.
    public let arguments: [[UInt8]]
    /// Variables added to the environment the program inherits.
    public var environment: [String: String]
    /// Started in a session of its own, outliving the gateway and its terminal
    /// window (for launches from the desktop), instead of replacing the gateway.
    public let detached: Bool
    /// For a detached start after a Proceed: who watches its first moments,
    /// to say so when it stops at once (nobody reads a detached program's errors).
    public var watch: StartWatch?

    public init(path: String, arguments: [[UInt8]], environment: [String: String] = [:], detached: Bool = false,
                watch: StartWatch? = nil) {
        self.path = path
        self.arguments = arguments
        self.environment = environment
        self.detached = detached
        self.watch = watch
    }
}

/// Replaces the gateway with the real program.
public enum Launcher {
    /// Starts `launch`: in place of this process, or detached in a session of
    /// its own. Returns only when that is impossible, saying why; after a
    /// detached start it returns nil and the gateway ends.
    public static func start(_ launch: Launch) -> LaunchFailure? {
        for (name, value) in launch.environment { setenv(name, value, 1) }
        SignalRouting.resetForExec()
        // Anything still buffered would be lost when the process image is replaced.
        fflush(nil)
        if launch.detached {
            // The watcher starts the program and says whether it could; when
            // the watcher itself cannot start, the program starts unwatched.
            let code = launch.watch.flatMap { $0.start(launch.path, arguments: launch.arguments) }
                ?? cStrings(launch.arguments) { spawnDetached(launch.path, $0) }
            return code == 0 ? nil : LaunchFailure(path: launch.path, code: code)
        }
        return cStrings(launch.arguments) { arguments in
            execv(launch.path, arguments)
            return LaunchFailure(path: launch.path, code: errno)
        }
    }

    /// `words` as the NULL-terminated vector of C strings exec takes, byte for byte.
    static func cStrings<T>(_ words: [[UInt8]], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
        let vector = words.map { bytes -> UnsafeMutablePointer<CChar>? in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            copy.initialize(repeating: 0, count: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            return copy
        } + [nil]
        defer { vector.forEach { $0?.deallocate() } }
        return body(vector)
    }

    /// Starts `path` with `arguments` in a session of its own and returns its
    /// pid, or nil when it cannot be started. The caller reaps it.
    package static func spawnDetached(_ path: String, arguments: [String], environment extra: [String: String] = [:]) -> pid_t? {
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = extra.map { strdup("\($0.key)=\($0.value)") }
            + processEnvironment().filter { extra[$0.key] == nil }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }
        let code = spawnDetached(path, argv, environment: environment, pid: &pid)
        return code == 0 ? pid : nil
    }

    /// Starts `launch` detached, its environment added to this process's
    /// for it alone (none of it set here); its pid, or nil. The caller reaps it.
    package static func spawnDetached(_ launch: Launch) -> pid_t? {
        var pid: pid_t = 0
        let environment = launch.environment.map { strdup("\($0.key)=\($0.value)") }
            + processEnvironment().filter { launch.environment[$0.key] == nil }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }
        let code = cStrings(launch.arguments) { spawnDetached(launch.path, $0, environment: environment, pid: &pid) }
        return code == 0 ? pid : nil
    }

    /// Runs `path` with `arguments` (streams on /dev/null) and waits for it;
    /// its exit status, or nil when it could not be started or was killed.
    static func runAndWait(_ path: String, arguments: [String]) -> Int32? {
        guard let pid = spawnDetached(path, arguments: arguments) else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
    }

    /// posix_spawn in a new session (no controlling terminal, so closing the
    /// window sends it no hangup), with standard streams on /dev/null, or
    /// on the descriptors given (`input` as 0, `output` as 1, `errors` as 2).
    static func spawnDetached(_ path: String, _ arguments: [UnsafeMutablePointer<CChar>?],
                              environment: [UnsafeMutablePointer<CChar>?]? = nil, pid: UnsafeMutablePointer<pid_t>? = nil,
                              input: Int32? = nil, output: Int32? = nil, errors: Int32? = nil) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, given, mode) in [(Int32(0), input, O_RDONLY), (1, output, O_WRONLY), (2, errors, O_WRONLY)] {
            if let given {
                posix_spawn_file_actions_adddup2(&actions, given, fd)
            } else {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", mode, 0)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc 2.26+) is a GNU extension the Glibc module does not export.
        let setSessionID: Int16 = 0x80
        posix_spawnattr_setflags(&attributes, setSessionID)
        var spawned: pid_t = 0
        let code = if let environment {
            posix_spawn(&spawned, path, &actions, &attributes, arguments, environment)
        } else {
            posix_spawn(&spawned, path, &actions, &attributes, arguments, environ)
        }
        pid?.pointee = spawned
        return code
    }
}

/// An exec that failed: the message for the person and the exit status.
public struct LaunchFailure: Error, Equatable, Sendable {
    public let path: String
    public let code: Int32

    /// Said as every refusal is: "miga: cannot run PATH: REASON".
    public var error: MigaError { MigaError("cannot run \(path): \(String(cString: strerror(code)))", status: status) }

    /// 127 when the file vanished in the meantime, 126 when it cannot be executed.
    public var status: Int32 { code == ENOENT ? ExitStatus.notInstalled : ExitStatus.cannotExecute }
}
