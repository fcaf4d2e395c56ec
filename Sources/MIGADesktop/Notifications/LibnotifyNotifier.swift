import CLibnotify
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Notifications through the desktop's own library, libnotify.
///
/// `notify_notification_show` is a blocking D-Bus call that can take 25 s
/// against a frozen server, 50 s with the unref after it, or never return
/// against a socket that does not answer. So each send runs on a thread of its
/// own and the gateway waits for it only until its deadline; a send still
/// stuck then simply ends with the process.
public struct LibnotifyNotifier: Notifier {
    /// The body as notification servers read it: a small subset of markup,
    /// so a program named "Tom & Jerry" or "<b>" is escaped to show as written.
    static func markupEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    private let applicationName: String

    public init(applicationName: String = "MIGA") {
        self.applicationName = applicationName
    }

    public func post(_ notification: DesktopNotification) -> PendingNotification {
        let pending = PendingNotification()
        let name = applicationName
        // A thread of its own: libnotify can hang for good (see LINUX-NOTES).
        DispatchQueue.global().async {
            pending.finish(Self.show(notification, applicationName: name) ? .delivered : .failed)
        }
        return pending
    }

    /// The name of the notification server on this session's bus ("dunst",
    /// "gnome-shell"…), or nil when none answers within `seconds`.
    public static func serverName(within seconds: Double) -> String? {
        let pending = PendingServerName()
        DispatchQueue.global().async {
            var name: UnsafeMutablePointer<CChar>?
            guard let library = Libnotify.load(),
                  library.isInitialized() != 0 || library.initialize("MIGA") != 0,
                  library.serverInfo(&name, nil, nil, nil) != 0, let name else {
                pending.finish(nil)
                return
            }
            pending.finish(String(cString: name))
            library.free(name)
        }
        return pending.wait(seconds: seconds)
    }

    private static func show(_ notification: DesktopNotification, applicationName: String) -> Bool {
        guard let library = Libnotify.load() else { return false }
        guard library.isInitialized() != 0 || library.initialize(applicationName) != 0,
              let handle = library.new(notification.summary, Self.markupEscaped(notification.body), nil) else { return false }
        library.setUrgency(handle, NOTIFY_URGENCY_LOW)
        var error: UnsafeMutablePointer<GError>?
        let shown = library.show(handle, &error) != 0
        if let error { library.freeError(error) }
        library.unref(UnsafeMutableRawPointer(handle))
        return shown
    }
}

/// The few libnotify (and GLib) functions MIGA calls, found with dlsym in
/// the library and its dependencies. Their types come from the CLibnotify module.
struct Libnotify {
    let isInitialized: notify_is_initted_fn
    let initialize: notify_init_fn
    let new: notify_notification_new_fn
    let setUrgency: notify_notification_set_urgency_fn
    let show: notify_notification_show_fn
    let freeError: g_error_free_fn
    let unref: g_object_unref_fn
    let serverInfo: notify_get_server_info_fn
    let free: g_free_fn

    /// The library, or nil when it is not installed (then nothing is sent).
    static func load() -> Libnotify? {
        guard let library = dlopen("libnotify.so.4", RTLD_NOW | RTLD_LOCAL) ?? dlopen("libnotify.so", RTLD_NOW | RTLD_LOCAL)
        else { return nil }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: type) }
        }
        guard let isInitialized = symbol("notify_is_initted", as: notify_is_initted_fn.self),
              let initialize = symbol("notify_init", as: notify_init_fn.self),
              let new = symbol("notify_notification_new", as: notify_notification_new_fn.self),
              let setUrgency = symbol("notify_notification_set_urgency", as: notify_notification_set_urgency_fn.self),
              let show = symbol("notify_notification_show", as: notify_notification_show_fn.self),
              let freeError = symbol("g_error_free", as: g_error_free_fn.self),
              let unref = symbol("g_object_unref", as: g_object_unref_fn.self),
              let serverInfo = symbol("notify_get_server_info", as: notify_get_server_info_fn.self),
              let free = symbol("g_free", as: g_free_fn.self)
        else { return nil }
        return Libnotify(isInitialized: isInitialized, initialize: initialize, new: new, setUrgency: setUrgency,
                         show: show, freeError: freeError, unref: unref, serverInfo: serverInfo, free: free)
    }
}

/// A server name on its way back from a thread that may never return.
private final class PendingServerName: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let name = Mutex<String?>(nil)

    func finish(_ name: String?) {
        self.name.withLock { $0 = name }
        done.signal()
    }

    func wait(seconds: Double) -> String? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return name.withLock { $0 }
    }
}
