import MIGACore
import MIGAKit
import MIGATerminal
import MIGADesktop

extension Miga {
    /// `miga watch-start …`: watches the first moments of a program the
    /// gateway started detached on Proceed (see `StartWatch`). Started by the
    /// gateway, never by hand, so it is no command of the parser's.
    enum WatchStart {
        static func run(_ words: [String]) -> Never {
            Miga.ending { () throws(MigaError) in
                if words == [StartWatch.drainFlag] {
                    StartWatch.drain(0)
                    return ExitStatus.success
                }
                let watcher = ShimDirectory.runningGateway ?? CommandLine.arguments[0]
                guard let (watch, taken) = StartWatch.parse(words, watcher: watcher), taken < words.count else {
                    throw MigaError(usage: "these are not the words the gateway writes for \(InternalCommand.watchStart([]).word): "
                                    + printable(words.joined(separator: " ")))
                }
                // The program's path and arguments exactly as the gateway gave them.
                let program = RawArguments.last(words.count - taken)
                let paths = Miga.paths
                watch.keep(program[0], arguments: Array(program.dropFirst())) { stop in
                    watch.record(stop, storePath: paths.storeFile, notifier: LibnotifyNotifier())
                }
                return ExitStatus.success
            }
        }
    }
}
