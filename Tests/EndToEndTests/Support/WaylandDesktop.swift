import Foundation

/// A real Wayland desktop for one test: sway on its headless backend, with
/// no Xwayland (so no X11 at all) unless asked for, run by an unprivileged user made for the
/// tests (sway refuses to run as root), in a runtime folder of its own
/// (mode 0700, owned by that user), with the environment given as all it has.
final class WaylandDesktop {
    static let user = "miga-wayland-test"
    let runtime: String
    let environment: [String: String]
    private var sway: pid_t = 0

    /// With `xwayland`, sway starts Xwayland at once and gives its clients
    /// DISPLAY. `folder` becomes the user's (everything the desktop's programs touch
    /// lives in it); `environment` is the session's, before sway adds its
    /// own (WAYLAND_DISPLAY, SWAYSOCK).
    init(folder: String, environment: [String: String], xwayland: Bool = false) throws {
        try Self.makeUser()
        runtime = folder + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let config = folder + "/sway.config"
        // Without Xwayland: a session with no X11 at all, as the pause must work in.
        try "xwayland \(xwayland ? "force" : "disable")\n".write(toFile: config, atomically: true, encoding: .utf8)
        _ = try run("/bin/chown", ["-R", Self.user + ":", folder])
        chmod(runtime, 0o700)
        self.environment = environment.merging([
            "XDG_RUNTIME_DIR": runtime, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
        ]) { $1 }
        let words = self.environment.map { "\($0.key)=\($0.value)" }
        sway = try spawn("/usr/bin/setpriv", Self.asUser + ["/usr/bin/env", "-i"] + words
                            + ["/bin/sh", "-c", "exec /usr/bin/sway -c \"$0\" > \"$1\" 2>&1", config, folder + "/sway.log"],
                         environment: [:])
        try eventually("sway to listen") { try self.message(["-t", "get_version"]).status == 0 ? true : nil }
    }

    deinit {
        guard sway > 0 else { return }
        // Xwayland, and any window still open, may outlive sway: each is ended by its id.
        let children = Self.descendants(of: sway)
        kill(sway, SIGTERM)
        var status: Int32 = 0
        waitpid(sway, &status, 0)
        for pid in children { kill(pid, SIGTERM) }
    }

    /// The processes started from `root`, however deep, as /proc shows them now.
    static func descendants(of root: pid_t) -> [pid_t] {
        var parents: [pid_t: pid_t] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After the name: state, then the parent's id.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { parents[pid] = parent }
        }
        var found: [pid_t] = []
        var frontier = [root]
        while let parent = frontier.popLast() {
            let children = parents.filter { $0.value == parent }.map(\.key)
            found += children
            frontier += children
        }
        return found
    }

    /// setpriv's words that run a program as the test's user.
    static var asUser: [String] {
        ["--reuid", user, "--regid", user, "--init-groups", "--"]
    }

    /// The user the desktop runs as, made once for the machine: a system
    /// user with no home and no login.
    static func makeUser() throws {
        guard getpwnam(user) == nil else { return }
        let made = try run("/usr/sbin/useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", user])
        // 9: made meanwhile by another test run.
        guard made.status == 0 || made.status == 9 else { throw Timeout(what: "useradd \(user)", last: made.error) }
    }

    /// The sway socket, once sway has made it.
    var socket: String? {
        (try? FileManager.default.contentsOfDirectory(atPath: runtime))?
            .first { $0.hasPrefix("sway-ipc.") }.map { runtime + "/" + $0 }
    }

    /// The Wayland display's name, once sway has made its socket.
    var display: String? {
        (try? FileManager.default.contentsOfDirectory(atPath: runtime))?.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
    }

    /// `program` run in the session, as its user, as a client of the compositor.
    @discardableResult
    func client(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        guard let socket, let display else { throw Timeout(what: "sway's sockets in \(runtime)", last: "") }
        let words = environment.merging(["SWAYSOCK": socket, "WAYLAND_DISPLAY": display]) { $1 }.map { "\($0.key)=\($0.value)" }
        return try run("/usr/bin/setpriv", Self.asUser + ["/usr/bin/env", "-i"] + words + [program] + arguments, environment: [:])
    }

    /// `swaymsg` with these words.
    func message(_ words: [String]) throws -> (status: Int32, output: String, error: String) {
        try client("/usr/bin/swaymsg", words)
    }

    /// A window sway shows, as `swaymsg -t get_tree` says.
    struct Window: CustomStringConvertible {
        let title: String
        let appID: String?
        let focused: Bool
        var description: String { "\(title) (\(appID ?? "no app_id"))\(focused ? ", focused" : "")" }
    }

    /// Every window in the tree, floating or tiled.
    func windows() throws -> [Window] {
        let tree = try message(["-t", "get_tree"])
        guard tree.status == 0, let root = try JSONSerialization.jsonObject(with: Data(tree.output.utf8)) as? [String: Any] else {
            throw Timeout(what: "sway's tree", last: tree.error)
        }
        var found: [Window] = []
        func walk(_ node: [String: Any]) {
            // A window has a shell (xdg_shell, xwayland); outputs and workspaces do not.
            if node["shell"] != nil {
                found.append(Window(title: node["name"] as? String ?? "", appID: node["app_id"] as? String,
                                    focused: node["focused"] as? Bool ?? false))
            }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] { walk(child) }
            }
        }
        walk(root)
        return found
    }
}
