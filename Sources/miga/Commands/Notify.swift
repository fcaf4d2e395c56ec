import MIGACore
import MIGADesktop

extension Miga {
    /// `miga notify SUMMARY BODY`: the celebration's notification, sent by
    /// a detached process of its own once the gateway has given the terminal
    /// back (see `DetachedNotifier`). No command of the parser's.
    enum Notify {
        /// As long as a server may take before it counts as hung.
        static let deadline = 25.0

        static func run(_ words: [String]) -> Never {
            Miga.ending { () throws(MigaError) in
                // Started by the gateway alone, whose words it was: nothing to say to anyone.
                guard let notification = DetachedNotifier.notification(from: words) else { return ExitStatus.usage }
                let result = LibnotifyNotifier().post(notification).wait(seconds: deadline)
                return result == .delivered ? ExitStatus.success : ExitStatus.failure
            }
        }
    }
}
