import ArgumentParser
import Foundation
import MIGACore
import MIGAKit
import MIGAConfig
import MIGADesktop

extension Miga {
    /// `miga browser`: MIGA's side of the browsers, for protected sites.
    struct BrowserCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "browser",
            abstract: "Equip your browsers for protected sites.",
            discussion: """
                miga browser setup [--json] writes, for each browser found, what lets MIGA's \
                browser extension reach MIGA, and says how to add the extension.
                """,
            subcommands: [SetupCommand.self])

        /// `miga browser setup`.
        struct SetupCommand: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "setup",
                abstract: "Let MIGA's browser extension reach MIGA in each browser you have.",
                discussion: """
                    Finds Firefox, Firefox ESR, Chromium, Google Chrome and Brave (by their commands on \
                    PATH and their settings folders) and writes, for each, the native messaging host \
                    manifest miga.json, naming the link \(NativeHostLink.name) in MIGA's data folder \
                    (~/.local/share/miga), which points at this miga. Then says, for each browser, how \
                    to add MIGA's extension. A Snap or Flatpak browser cannot start MIGA's host: it is \
                    named, with how to protect it as a program instead. Running it again changes \
                    nothing that is in place; a file at a manifest's or the link's place that is not \
                    MIGA's is left alone (status 1).

                    Example:
                      miga browser setup
                      miga browser setup --json
                    """)

            @Flag(help: "Each browser and what became of it, as JSON.")
            var json = false

            func run() throws {
                let protection = try Miga.protection()
                let setup = BrowserSetup(protection: protection)
                let outcomes = setup.run()
                if json {
                    Swift.print(BrowserSetupReport(outcomes, link: setup.link).json)
                } else {
                    report(outcomes, setup)
                }
                if outcomes.contains(where: { if case .failed = $0.state { true } else { false } }) {
                    throw ExitCode(ExitStatus.failure)
                }
            }

            private func report(_ outcomes: [BrowserSetup.Outcome], _ setup: BrowserSetup) {
                guard !outcomes.isEmpty else {
                    print("No browser found (MIGA's extension runs in " + KnownBrowser.all.map(\.name).joined(separator: ", ")
                          + "). Install one, then run miga browser setup again.")
                    return
                }
                for outcome in outcomes {
                    print(BrowserSetupReport.line(outcome))
                    for advice in outcome.advice { print("    " + advice) }
                }
                if outcomes.contains(where: { if case .equipped = $0.state { true } else { false } }) {
                    print("The host: \(setup.link.path) → \(setup.link.gateway)")
                }
            }
        }
    }
}
