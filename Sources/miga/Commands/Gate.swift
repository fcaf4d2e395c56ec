import ArgumentParser
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAConfig
import MIGADesktop

extension Miga {
    /// `miga gate PROGRAM [-- ARGS…]`: the pause, then the program or not.
    struct Gate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pause before opening a program, then open it only if you still want to.",
            discussion: """
                Shows the pause screen: a quote, a countdown ring and three choices.
                  e, q, Esc, Ctrl-C   Exit to Focus: the program does not start
                  d, Space            Deepen the Pause: a fresh quote, the countdown starts over
                  p, Enter            Proceed: once the countdown is at zero, start the program

                Everything after -- is passed to the program exactly as given, without a shell. \
                Without a terminal (a script, a pipe) there is no pause here: the program's \
                non_interactive policy decides: pass (the default) runs it at once, terminal \
                opens the pause in a terminal window, deny refuses.

                Exit status: 0 after Exit to Focus, the program's own status after Proceed, \
                127 if the program is not installed, 126 if it cannot be run, 69 if its policy \
                is deny and there is no terminal, 64 for a usage error, 128+N after signal N.

                Example:
                  miga gate firefox -- --new-window https://example.org
                  miga gate --pause 30 steam
                """)

        @Option(help: ArgumentHelp("Seconds of the pause (1–3600); wins over the config.", valueName: "seconds"))
        var pause: Int?

        @Flag(help: "On Proceed, start the program in a session of its own, outliving this terminal window.")
        var detach = false

        @Flag(help: "Without a terminal, open the pause in a terminal window of MIGA's choosing (menu and login starts).")
        var window = false

        @Flag(name: .customLong("at-login"), help: "A start at login: the program's at_login setting decides.")
        var loginStart = false

        @Option(name: .customLong("as"), help: ArgumentHelp("The protected program this is, when PROGRAM names something else (flatpak run …).", valueName: "name"))
        var identity: String?

        // Written by the gateway that opens a window for the pause, never by hand.
        @Option(name: .customLong("ready-file"), help: .hidden)
        var readyFile: String?

        @Argument(help: "The program to open after the pause: a command on PATH, or a path.")
        var program: String

        @Argument(parsing: .postTerminator, help: "The program's arguments, after --, passed on exactly.")
        var arguments: [String] = []

        func validate() throws {
            if let pause, !Config.pauseRange.contains(pause) {
                throw ValidationError("--pause must be a whole number of seconds from \(Config.pauseRange.lowerBound) to \(Config.pauseRange.upperBound)")
            }
            if program.isEmpty { throw ValidationError("the program to open must not be empty") }
        }

        func run() throws {
            Self.open(GateRequest(command: program, arguments: RawArguments.last(arguments.count), pause: pause,
                                  detach: detach, identity: identity, window: window, loginStart: loginStart,
                                  readyFile: readyFile))
        }

        /// Runs the gateway and ends this process: as the real program, or with a status.
        static func open(_ request: GateRequest) -> Never {
            conclude(Gateway(context: .live()).run(request))
        }

        /// Ends this process as the gateway decided: as the program it
        /// execs, or with a status (a program started detached, 0).
        static func conclude(_ decision: GateDecision) -> Never {
            Miga.ending { () throws(MigaError) in
                switch decision {
                case .finish(let status):
                    return status
                case .launch(let launch):
                    if let failure = Launcher.start(launch) { throw failure.error }
                    return ExitStatus.success
                }
            }
        }
    }
}
