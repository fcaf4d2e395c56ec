import MIGACore
import MIGAKit
import MIGATerminal
import MIGAStore
import MIGAConfig
import MIGADesktop

extension Miga {
    /// `miga look-back`: the weekly look back, sent in the background for a
    /// gateway whose pause has just ended. Started by the gateway, never by
    /// hand, so it is no command of the parser's: it appears in no help,
    /// manual page or completion.
    enum LookBack {
        static func run() -> Never {
            Miga.ending { () throws(MigaError) in
                lookBack()
                return ExitStatus.success
            }
        }

        private static func lookBack() {
            let environment = processEnvironment()
            // The first process only starts the one that sends, in a session of
            // its own, and ends: the gateway waits for it, never for the notification.
            guard environment[WeeklyLookBack.sendingVariable] == "1" else {
                WeeklyLookBack.start(gateway: ShimDirectory.runningGateway ?? CommandLine.arguments[0],
                                     environment: [WeeklyLookBack.sendingVariable: "1"])
                return
            }
            let paths = XDGPaths(environment: environment)
            if let store = SessionStore.existing(in: paths) {
                Upkeep(store: store, config: ConfigLoader.load(from: paths.configFile).config)
                    .lookBackIfDue(.send(LibnotifyNotifier(), wait: WeeklyLookBack.backgroundWait))
            }
        }
    }
}
