import ArgumentParser
import MIGAKit

/// `miga`: a mindful gateway in front of distracting programs.
@main
struct Miga: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "miga",
        abstract: "A mindful gateway: a calm pause before a distracting program opens.",
        discussion: """
            Route a program through MIGA and launching it shows a short pause first: a quote, \
            a countdown, and three choices. Exit to Focus is always one key away; Proceed opens \
            the program once the countdown reaches zero. Every choice stays on this machine.

            Example:
              miga gate firefox -- https://example.org
            """,
        version: "0.1.0",
        subcommands: [Gate.self]
    )
}
