import ArgumentParser
import MIGAKit

extension Miga {
    /// `miga remind …`: keeps the reminder at the end of an allowance. Started
    /// by the gateway on Proceed, never by hand, so it is not listed in help.
    struct Remind: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep the reminder at the end of an allowance (started by the gateway).",
            shouldDisplay: false)

        @Argument(parsing: .allUnrecognized)
        var words: [String] = []

        func run() throws {
            guard let reminder = AllowanceReminder(arguments: words) else {
                printError("miga remind: these are not the words the gateway writes: \(words.joined(separator: " "))")
                throw ExitCode(ExitStatus.usage)
            }
            let environment = processEnvironment()
            reminder.keep(gateway: ShimDirectory.runningGateway ?? CommandLine.arguments[0], environment: environment,
                          notifier: LibnotifyNotifier())
        }
    }
}
