import ArgumentParser
import FoundationEssentials
import Glibc
import MIGACore
import MIGAKit
import MIGATerminal
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
                let done = setup.run()
                let outcomes = done.outcomes
                if json {
                    Swift.print(BrowserSetupReport(outcomes, link: setup.link).json)
                } else {
                    if let change = done.linkChange { print(change) }
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
                // The extension's steps come once for the browsers that share them
                // (Firefox and Firefox ESR), after every browser's own line.
                var steps: [(browsers: [String], advice: String)] = []
                for outcome in outcomes {
                    print(BrowserSetupReport.line(outcome))
                    guard case .equipped = outcome.state else {
                        outcome.advice.forEach { printWrapped($0, indent: "    ") }
                        continue
                    }
                    for advice in outcome.advice {
                        if let index = steps.firstIndex(where: { $0.advice == advice }) {
                            steps[index].browsers.append(outcome.browser.title)
                        } else {
                            steps.append(([outcome.browser.title], advice))
                        }
                    }
                }
                if !steps.isEmpty {
                    print("The host: \(setup.link.path) → \(setup.link.gateway)")
                    print()
                    print("Then add MIGA's extension:")
                    for step in steps { printWrapped(step.browsers.joined(separator: ", ") + ": " + step.advice, indent: "  ") }
                }
            }

            /// On a terminal, wrapped to its width under `indent`; to a pipe or a file, one line each.
            private func printWrapped(_ text: String, indent: String) {
                guard isatty(1) == 1 else { return print(indent + text) }
                let width = max(40, min(outputColumns(environment: processEnvironment()), 100)) - indent.count - 2
                for (index, line) in TextWrap.lines(text, width: width).enumerated() {
                    print(indent + (index == 0 ? "" : "  ") + line)
                }
            }
        }
    }
}
