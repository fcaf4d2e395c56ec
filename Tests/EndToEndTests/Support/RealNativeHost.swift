import Foundation
import MIGACore

/// The real `miga native-host` for a browser under test, as it is installed:
/// a link named `miga-native-host` to the built `miga`, named by the host
/// manifests' `path`. The browser starts it with the browser's own
/// environment (a private HOME and XDG folders in the browser's folder), so
/// its config and history are there; the test reads them back through the
/// real binary with the same environment.
struct RealNativeHost {
    let link: String
    let environment: [String: String]

    /// The link in `folder`, and the sites protected with `miga protect --site`
    /// (`options` after each, as `--pause 2 --allow 1`).
    init(in folder: BrowserFolder, protecting sites: [(site: String, options: [String])]) throws {
        link = try folder.make("bin") + "/miga-native-host"
        guard symlink(migaBinary, link) == 0 else { throw SpawnFailure(executable: link, code: errno) }
        environment = browserEnvironment(home: try folder.make("home"))
        for (site, options) in sites {
            let protected = try run(migaBinary, ["protect", "--site", site] + options, environment: environment)
            guard protected.status == 0 else { throw ProtocolError(description: "miga protect --site \(site): \(protected.error)") }
        }
    }

    /// The host manifest for Chromium (`allowed_origins`) or Firefox (`allowed_extensions`), written in `folder`.
    func register(in folder: String, chromiumID: String? = nil, geckoID: String? = nil) throws {
        var manifest: [String: Any] = ["name": "miga", "description": "MIGA", "path": link, "type": "stdio"]
        if let chromiumID { manifest["allowed_origins"] = ["chrome-extension://\(chromiumID)/"] }
        if let geckoID { manifest["allowed_extensions"] = [geckoID] }
        try jsonText(manifest).write(toFile: folder + "/miga.json", atomically: true, encoding: .utf8)
    }

    /// The host as the browser finds it no more: not installed.
    func unregister(in folder: String) throws {
        try FileManager.default.removeItem(atPath: folder + "/miga.json")
    }

    /// `miga ARGUMENTS` on this host's history and config; its standard output.
    func miga(_ arguments: [String]) throws -> String {
        let result = try run(migaBinary, arguments, environment: environment)
        guard result.status == 0 else { throw ProtocolError(description: "miga \(arguments.joined(separator: " ")): \(result.error)") }
        return result.output
    }

    /// The sessions as `miga export` writes them.
    func exported() throws -> [[String: Any]] {
        jsonObject(try miga(["export"]))?["sessions"] as? [[String: Any]] ?? []
    }

    /// The exported sessions of `program` that ended as `outcome`.
    func sessions(of program: String, ending outcome: String) throws -> [[String: Any]] {
        try exported().filter { $0["program"] as? String == program && $0["outcome"] as? String == outcome }
    }

    /// `miga stats --json`.
    func stats() throws -> [String: Any] {
        jsonObject(try miga(["stats", "--json"])) ?? [:]
    }

    var storePath: String { environment["XDG_DATA_HOME"]! + "/miga/miga.sqlite" }
}

/// A conversation with the real host over pipes, as a browser holds one:
/// each message framed, each answer read back before the next is sent.
final class HostConversation {
    let pid: pid_t
    private let toHost: Int32
    private let fromHost: Int32
    /// What the host wrote that is not read yet.
    private var pending: [UInt8] = []
    private var closed = false

    /// `executable` started with `arguments` (the caller's words) and `environment`.
    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw SpawnFailure(executable: executable, code: errno) }
        // Close-on-exec: a child another test spawns meanwhile must not hold the host's stream open.
        for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = shellLikeSpawnAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        let spawned = Result { try spawnProcess(executable, arguments, environment: environment, actions: &actions, attributes: &attributes) }
        close(input[0])
        close(output[1])
        (pid, toHost, fromHost) = (try spawned.get(), input[1], output[0])
    }

    deinit {
        if !closed { close(toHost) }
        close(fromHost)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Sends `message` and returns the host's answer.
    func ask(_ message: String) throws -> [String: Any] {
        var length = UInt32(message.utf8.count)
        let frame = withUnsafeBytes(of: &length, Array.init) + Array(message.utf8)
        guard frame.withUnsafeBytes({ writeAll(toHost, $0) }) else { throw ProtocolError(description: "the host stopped reading") }
        let header = try read(4)
        let answer = try read(Int(header.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }))
        guard let object = jsonObject(String(decoding: answer, as: UTF8.self)) else {
            throw ProtocolError(description: "not an answer: \(String(decoding: answer, as: UTF8.self))")
        }
        return object
    }

    /// Closes the stream, as a browser does, and waits for the host's exit status.
    func finish() throws -> Int32 {
        if !closed { close(toHost) }
        closed = true
        return try eventually("the host's end", timeout: 30) { () -> Int32? in
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            return (status >> 8) & 0xFF
        }
    }

    private func read(_ count: Int) throws -> [UInt8] {
        let deadline = Date() + 30
        while pending.count < count {
            guard Date() < deadline else { throw Timeout(what: "the host's answer", last: "\(pending.count) of \(count) bytes") }
            guard let chunk = readAvailable(fromHost, timeout: 1) else { continue }
            guard !chunk.isEmpty else { throw ProtocolError(description: "the host ended the stream") }
            pending += chunk
        }
        defer { pending.removeFirst(count) }
        return Array(pending.prefix(count))
    }
}
