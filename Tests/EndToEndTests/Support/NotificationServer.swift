import Foundation
import MIGATerminal

/// A real notification server for one test: Xvfb, a private D-Bus session
/// bus, dunst on it, and dbus-monitor recording every Notify call.
final class NotificationServer {
    let folder: String
    let display: String
    var busAddress: String { "unix:path=\(folder)/bus" }
    private var pids: [pid_t] = []
    private(set) var dunst: pid_t = 0

    /// `screen`: the virtual display's width x height x depth.
    init(folder: String, screen: String = "640x480x24") throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        display = try Self.startDisplay(screen: screen, into: &pids)
        pids.append(try spawn("/usr/bin/dbus-daemon", ["--session", "--nofork", "--address=\(busAddress)"], environment: [:]))
        try eventually("the session bus") { FileManager.default.fileExists(atPath: "\(folder)/bus") ? true : nil }
        dunst = try spawn("/usr/bin/dunst", [], environment: environment)
        pids.append(dunst)
        try eventually("dunst to own org.freedesktop.Notifications") {
            let reply = try run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus",
                                                       "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                                                       "string:org.freedesktop.Notifications"], environment: environment)
            return reply.output.contains("boolean true") ? true : nil
        }
        pids.append(try spawn("/usr/bin/dbus-monitor", ["--session",
                                                        "type=method_call,interface=org.freedesktop.Notifications,member=Notify"],
                              environment: environment, output: "\(folder)/monitor.log"))
        try eventually("dbus-monitor to listen") { monitorLog.contains("NameAcquired") ? true : nil }
    }

    deinit {
        if dunst > 0 { kill(dunst, SIGCONT) }
        for pid in pids.reversed() {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// What a client needs to reach this server.
    var environment: [String: String] {
        ["DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": busAddress, "HOME": folder, "PATH": "/usr/bin:/bin"]
    }

    var monitorLog: String {
        (try? String(contentsOfFile: "\(folder)/monitor.log", encoding: .utf8)) ?? ""
    }

    /// The Notify calls seen so far.
    var notifyCalls: Int {
        monitorLog.components(separatedBy: "member=Notify").count - 1
    }

    /// The Notify calls whose summary is `summary`, counted once every call
    /// sent before now is in the log: a marker notification goes out on the
    /// same bus and is waited for, and the bus delivers in order, so a call
    /// made before it cannot still be on its way. No sleep, no guess.
    func settledCalls(summary: String) throws -> Int {
        let marker = "miga-test-marker-\(UUID().uuidString)"
        let sent = try run("/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.Notifications",
                                              "--object-path", "/org/freedesktop/Notifications",
                                              "--method", "org.freedesktop.Notifications.Notify",
                                              "miga-test", "0", "", marker, "", "[]", "{}", "1000"], environment: environment)
        guard sent.status == 0 else { throw Timeout(what: "the marker notification to be sent", last: sent.error) }
        let log = try eventually("the marker notification in the log") { monitorLog.contains(marker) ? monitorLog : nil }
        return log.components(separatedBy: "string \"\(summary)\"").count - 1
    }

    /// Stops dunst without closing its connection: calls to it now hang.
    func freeze() { kill(dunst, SIGSTOP) }

    private static func startDisplay(screen: String, into pids: inout [pid_t]) throws -> String {
        for _ in 0..<20 {
            let number = Int.random(in: 100...899)
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") else { continue }
            let pid = try spawn("/usr/bin/Xvfb", [":\(number)", "-screen", "0", screen, "-nolisten", "tcp"], environment: [:])
            let ready = try? eventually("Xvfb :\(number)", timeout: 10) { () -> Bool? in
                if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") { return true }
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { throw Timeout(what: "Xvfb", last: "exited") }
                return nil
            }
            if ready == true {
                pids.append(pid)
                return ":\(number)"
            }
            kill(pid, SIGTERM)
        }
        throw Timeout(what: "a free X display", last: "")
    }
}

/// Starts a program in the background (output to a file or /dev/null) and returns its pid.
func spawn(_ executable: String, _ arguments: [String], environment: [String: String], output: String = "/dev/null") throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = shellLikeSpawnAttributes()
    defer { posix_spawnattr_destroy(&attributes) }
    return try spawnProcess(executable, arguments, environment: environment, actions: &actions, attributes: &attributes)
}

/// A Unix socket that accepts every connection and never answers.
final class SilentSocket {
    private let fd: Int32
    private let accepted = AcceptedConnections()

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { throw Timeout(what: "a silent socket", last: String(cString: strerror(errno))) }
        let (listening, connections) = (fd, accepted)
        Thread.detachNewThread {
            while true {
                let client = accept(listening, nil, nil)
                if client < 0 { return }
                connections.keep(client)
            }
        }
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        accepted.closeAll()
    }
}

/// The connections a silent socket holds open.
final class AcceptedConnections: @unchecked Sendable {
    private let lock = NSLock()
    private var descriptors: [Int32] = []
    func keep(_ fd: Int32) { lock.withLock { descriptors.append(fd) } }
    func closeAll() { lock.withLock { descriptors.forEach { close($0) }; descriptors = [] } }
}
