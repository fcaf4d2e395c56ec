import MIGACore
import MIGAKit
import MIGATerminal
import MIGAStore
import MIGAConfig
import MIGADesktop

extension Miga {
    /// `miga remind …`: keeps the reminder at the end of an allowance. Started
    /// by the gateway on Proceed, never by hand, so it is no command of the
    /// parser's: it appears in no help, manual page or completion.
    enum Remind {
        static func run(_ words: [String]) -> Never {
            Miga.ending { () throws(MigaError) in try keep(words) }
        }

        private static func keep(_ words: [String]) throws(MigaError) -> Int32 {
            guard let reminder = AllowanceReminder(arguments: words) else {
                throw MigaError(usage: "these are not the words the gateway writes for \(InternalCommand.remind([]).word): " + printable(words.joined(separator: " ")))
            }
            let environment = processEnvironment()
            reminder.keep(gateway: ShimDirectory.runningGateway ?? CommandLine.arguments[0], environment: environment,
                          notifier: LibnotifyNotifier())
            // The one that waited, at the end of the allowance: a miga running
            // anyway, so it looks for launches that went around the pause.
            if environment[AllowanceReminder.waitingVariable] == "1", let protection = try? Miga.protection(),
               let store = SessionStore.existing(in: protection.paths) {
                Upkeep(store: store, config: ConfigLoader.load(from: protection.paths.configFile).config).recordLeaks(protection)
            }
            return ExitStatus.success
        }
    }
}
