/// A kind of display server a window can open on.
public enum DisplayServer: String, Sendable, CaseIterable {
    case wayland = "Wayland"
    case x11 = "X11"
}

/// The display servers this session offers a new window: Wayland when
/// `WAYLAND_DISPLAY` names a compositor's socket, X11 when `DISPLAY` names
/// a server (on a Wayland desktop, its Xwayland). Neither: no window can
/// open anywhere (a text console, an SSH login).
public struct DisplaySession: Equatable, Sendable {
    public let servers: Set<DisplayServer>

    public init(_ servers: Set<DisplayServer>) {
        self.servers = servers
    }

    public init(environment: [String: String]) {
        func named(_ variable: String) -> Bool { !(environment[variable] ?? "").isEmpty }
        self.init(Set([named("WAYLAND_DISPLAY") ? .wayland : nil, named("DISPLAY") ? .x11 : nil].compactMap { $0 }))
    }

    public var isEmpty: Bool { servers.isEmpty }
    public var wayland: Bool { servers.contains(.wayland) }

    /// The one a window had best open on: a Wayland desktop's own, where
    /// there is one, before its Xwayland.
    public var preferred: DisplayServer? { wayland ? .wayland : servers.first }
}
