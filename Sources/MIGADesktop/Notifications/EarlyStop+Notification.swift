import MIGACore

extension EarlyStop {
    /// The notification: "Chromium stopped at once", and why. Here rather
    /// than beside the stop, which the core keeps free of notifications.
    public func notification(programName: String) -> DesktopNotification {
        DesktopNotification(summary: "\(programName) stopped at once", body: words)
    }
}
