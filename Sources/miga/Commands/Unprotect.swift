import ArgumentParser
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAConfig

extension Miga {
    /// `miga unprotect CMD… | --all`: take programs out from behind the pause.
    struct Unprotect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop protecting programs, removing what MIGA set up for them.",
            discussion: """
                Removes the program from the config and its shim. With --all, every protected \
                program and every route MIGA wrote. Files MIGA did not write are never touched.

                Switching protection off is a choice like any other: in a terminal, a pause of \
                its own comes first (Proceed at zero makes the change, Exit to Focus keeps \
                everything as it is), and the history records which it was. Without a terminal \
                (a script), --now is required and makes the change at once.

                Exit status: 0 when done or kept, 64 for a program that is not protected or \
                without a terminal and without --now, 1 if a file cannot be changed, 128+N after \
                signal N.

                Example:
                  miga unprotect discord
                  miga unprotect --all
                  miga unprotect --now discord    (in a script)
                  miga unprotect --site youtube.com
                """)

        @Argument(help: ArgumentHelp("The commands to stop protecting.", valueName: "command"))
        var commands: [String] = []

        @Option(name: .customLong("site"), help: ArgumentHelp("A website to stop protecting (may be given again).", valueName: "site"))
        var sites: [String] = []

        @Flag(help: "Stop protecting every program.")
        var all = false

        @Flag(help: "Without a terminal (a script): make the change without its pause.")
        var now = false

        func validate() throws {
            if all == !(commands.isEmpty && sites.isEmpty) {
                throw ValidationError("name the commands (or --site) to stop protecting, or give --all")
            }
        }

        func run() throws {
            let protection = try Miga.protection()
            let protected = protection.protectedCommands()
            // A name that is not protected is a mistake to point out (a typo, often), and nothing is done.
            let protectedSites = protection.configuredSites()
            var sites: [Site] = []
            for typed in self.sites { sites.append(try Site(typed)) }
            let unknown = commands.filter { !protected.contains($0) } + sites.filter { !protectedSites.contains($0) }.map(\.name)
            if !unknown.isEmpty {
                throw MigaError(usage: "\(spokenList(unknown.map(printable))) \(unknown.count == 1 ? "is" : "are") not protected; "
                                + "nothing was changed (miga list shows what is)")
            }
            let concerned = all ? protected : commands + sites.map(\.historyName)
            if !concerned.isEmpty {
                let config = ConfigLoader.load(from: Miga.paths.configFile).config
                let names = concerned.map { config.settings(for: $0).displayName }
                let what = all ? "every protected program" : spokenList(names)
                let kept = all ? "every program stays protected"
                    : "\(what) \(concerned.count == 1 ? "stays" : "stay") protected"
                guard try SwitchOff.ask(.unprotect, subjects: concerned, header: "a pause before unprotecting \(what)",
                                        proceedLabel: "Unprotect \(what)", kept: kept, now: now, command: "unprotect") else {
                    return
                }
            }
            if all {
                let removed = try protection.unprotectAll()
                print(removed.isEmpty ? "Nothing was protected." : "No longer protected: \(removed.joined(separator: ", ")).")
            } else {
                for command in commands {
                    try protection.unprotect(command)
                    print("\(command) is no longer protected.")
                }
                for site in sites {
                    try protection.unprotectSite(site)
                    print("\(site.name) is no longer protected.")
                }
                // The browsers running now have the change before this returns.
                if !sites.isEmpty { BrowserConnections(paths: protection.paths).catchUp().forEach { print($0) } }
            }
            if !concerned.isEmpty { SwitchOff.done(.unprotect, subjects: concerned) }
        }
    }
}
