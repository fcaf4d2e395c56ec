import ArgumentParser
import FoundationEssentials
import MIGACore
import MIGAKit
import MIGATerminal

extension Miga {
    /// `miga` / `miga hub`: the home screen.
    struct Hub: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The hub: your streak and your protected programs; open one through its pause.",
            discussion: """
                What `miga` alone opens once setup is done (on the very first run it opens setup). \
                Arrows or a program's first letter choose, Enter opens it after a pause, s shows \
                your stats, q quits.

                Example:
                  miga
                """)

        func run() throws {
            let context = GatewayContext.live()
            guard context.terminal != nil else {
                // Not a terminal (a pipe, a script): say what miga is instead.
                print(Miga.helpMessage())
                return
            }
            try Hub.refuseDumbTerminal(context.environment)
            Gate.conclude(Home(context: context).run())
        }
    }

    /// `miga setup`: choose programs, interests and pause length again.
    struct Setup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Choose the programs MIGA pauses, the texts you read, and how long a pause lasts.",
            discussion: """
                Shown by itself on the very first run of `miga`. Run it again any time to change \
                your choices; Esc leaves without changing anything, and nothing is written until \
                the end.

                Example:
                  miga setup
                """)

        func run() throws {
            try Hub.refuseDumbTerminal(processEnvironment())
            Gate.conclude(Home(context: .live()).run(setupFirst: true))
        }
    }
}

extension Miga.Hub {
    /// The hub and setup are screens; a terminal that takes no control
    /// sequences (TERM=dumb) gets a word on what works there instead.
    static func refuseDumbTerminal(_ environment: [String: String]) throws(MigaError) {
        guard TerminalCapabilities.detect(environment: environment).dumb else { return }
        throw MigaError(usage: "this terminal (TERM=dumb) cannot show the hub or setup; the pause works here, as lines of text. "
                        + "Try miga stats, miga list, or miga protect NAME.")
    }
}
