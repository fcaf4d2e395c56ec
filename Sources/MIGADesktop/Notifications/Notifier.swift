import Dispatch
import FoundationEssentials
import Synchronization

/// A desktop notification: the celebration that outlives the terminal.
public struct DesktopNotification: Equatable, Sendable {
    public let summary: String
    public let body: String

    public init(summary: String, body: String) {
        self.summary = summary
        self.body = body
    }
}

public enum NotificationResult: Equatable, Sendable {
    /// The notification server accepted it.
    case delivered
    /// No server, no bus, or the server said no.
    case failed
    /// No answer before the deadline; the gateway went on without it.
    case timedOut
}

/// Sends desktop notifications without ever holding up the gateway: `post`
/// returns at once, and the caller waits only as long as it chooses.
public protocol Notifier: Sendable {
    func post(_ notification: DesktopNotification) -> PendingNotification
}

/// A notification on its way to the server.
public final class PendingNotification: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private let result = Mutex<NotificationResult?>(nil)

    public init() {}

    /// A notification that already has its result (for notifiers that need no thread).
    public convenience init(result: NotificationResult) {
        self.init()
        finish(result)
    }

    /// Called once by whoever sends it.
    public func finish(_ result: NotificationResult) {
        self.result.withLock { $0 = result }
        finished.signal()
    }

    /// The result, waiting at most `seconds` for it.
    public func wait(seconds: Double) -> NotificationResult {
        if let result = result.withLock({ $0 }) { return result }
        guard finished.wait(timeout: .now() + max(0, seconds)) == .success else { return .timedOut }
        finished.signal()
        return result.withLock { $0 } ?? .timedOut
    }
}
