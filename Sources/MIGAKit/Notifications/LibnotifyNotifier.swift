import CLibnotify
import Foundation

/// Notifications through the desktop's own library, libnotify.
///
/// `notify_notification_show` is a blocking D-Bus call that can take 25 s
/// against a frozen server, 50 s with the unref after it, or never return
/// against a socket that does not answer. So each send runs on a thread of its
/// own and the gateway waits for it only until its deadline; a send still
/// stuck then simply ends with the process.
public struct LibnotifyNotifier: Notifier {
    private let applicationName: String

    public init(applicationName: String = "MIGA") {
        self.applicationName = applicationName
    }

    public func post(_ notification: DesktopNotification) -> PendingNotification {
        let pending = PendingNotification()
        let name = applicationName
        Thread.detachNewThread {
            pending.finish(Self.show(notification, applicationName: name) ? .delivered : .failed)
        }
        return pending
    }

    private static func show(_ notification: DesktopNotification, applicationName: String) -> Bool {
        guard notify_is_initted() != 0 || notify_init(applicationName) != 0 else { return false }
        guard let handle = notify_notification_new(notification.summary, notification.body, nil) else { return false }
        notify_notification_set_urgency(handle, NOTIFY_URGENCY_LOW)
        var error: UnsafeMutablePointer<GError>?
        let shown = notify_notification_show(handle, &error) != 0
        if let error { g_error_free(error) }
        g_object_unref(UnsafeMutableRawPointer(handle))
        return shown
    }
}
