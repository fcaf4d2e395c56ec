import MIGACore
#if canImport(Glibc)
import Glibc
#endif

/// Notifications sent by a process of their own, started detached: the
/// gateway ends at once and gives the terminal back to the shell, while the
/// notification server (which may be slow, or hang) is waited for elsewhere.
public struct DetachedNotifier: Notifier {
    /// The `miga` binary that sends it.
    public let sender: String

    public init(sender: String) {
        self.sender = sender
    }

    /// Nobody waits for the result: it is `.timedOut` at once, or `.failed`
    /// when the sender cannot be started. The sender ends with the gateway's
    /// end as its parent, so it is reaped by the system, never left a zombie here.
    public func post(_ notification: DesktopNotification) -> PendingNotification {
        let started = Launcher.spawnDetached(sender, arguments: [sender] + InternalCommand.notify([notification.summary, notification.body]).words)
        return PendingNotification(result: started == nil ? .failed : .timedOut)
    }

    /// The notification that `words` (after `miga notify`) describe.
    public static func notification(from words: [String]) -> DesktopNotification? {
        guard words.count == 2 else { return nil }
        return DesktopNotification(summary: words[0], body: words[1])
    }
}
