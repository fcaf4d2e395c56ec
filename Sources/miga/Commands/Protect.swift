import ArgumentParser
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAConfig
import MIGADesktop

extension Miga {
    /// `miga protect CMD…`: put programs behind the pause.
    struct Protect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Protect programs: launching them by name shows the pause first.",
            discussion: """
                Adds each program to the config and puts a shim for it in MIGA's shim folder. \
                With the shell hook in place (see `miga init`), typing its name, or a script \
                calling it by name, reaches the gateway. Protecting again updates the settings; \
                nothing is done twice.

                Exit status: 0 when every program is protected, 127 when one is not installed, \
                64 for a name MIGA will not protect (miga itself, a shell) or a bad option, \
                1 when a file cannot be written.

                The optional rules, each off unless given: --allow opens the program again \
                without a pause for some minutes after a Proceed; --escalate lengthens the pause \
                with each further try within the hour; --hours protects only inside focus hours; \
                --hold-when-unfocused holds the countdown while the window is not focused; \
                --ask-intention asks what the program is opened for. --allow 0, --hours always \
                and the --no- forms turn them off again. --kinds chooses the kinds of pause \
                (\(PauseKind.names())) and --rotate how MIGA picks among them.

                --site protects a website instead: youtube.com with its subdomains, on any \
                port; reddit.com/r/all only the pages under that path. Its pause shows in the \
                browser tab, through MIGA's browser extension, with the same settings (all but \
                those about starting a program). A browser running now with the extension has the \
                new rules before the command returns. A pasted address keeps its host and path \
                (the query is left out, and said so); a path is matched as a server reads it, so \
                /r/%61ll and //r/all are /r/all.

                Example:
                  miga protect firefox discord
                  miga protect steam --name Steam --pause 120
                  miga protect discord --allow 15 --escalate --hours "Mon-Fri 09:00-17:00"
                  miga protect discord --kinds breathe,type,instead --rotate adaptive
                  miga protect --site youtube.com --site reddit.com/r/all --pause 60
                """)

        @Argument(help: ArgumentHelp("The commands to protect, as you type them.", valueName: "command"))
        var commands: [String] = []

        @Option(name: .customLong("site"), help: ArgumentHelp("A website to protect (may be given again).", valueName: "site"))
        var sites: [String] = []

        /// An option for each setting that has one, from `ProgramSetting.all`.
        @OptionGroup var settings: SettingFlags

        var changes: ProgramChanges { settings.changes }

        func validate() throws {
            if commands.isEmpty && sites.isEmpty { throw ValidationError("name at least one command (or --site) to protect") }
            if changes.name != nil && commands.count + sites.count > 1 {
                throw ValidationError("--name goes with one command at a time")
            }
            if let problem = changes.problem { throw ValidationError(problem) }
            if !sites.isEmpty, let problem = changes.siteProblem { throw ValidationError(problem) }
        }

        func run() throws {
            let protection = try Miga.protection()
            var failure: Int32 = 0
            for command in commands {
                do {
                    let notes = try protection.protect(command, changes)
                    print("Protected \(command).")
                    for note in notes { print("  " + note) }
                } catch {
                    printError(error.line)
                    failure = max(failure, error.status)
                }
            }
            for typed in sites {
                do {
                    for line in try protection.protectSite(typed, changes).lines { print(line) }
                } catch {
                    printError(error.line)
                    failure = max(failure, error.status)
                }
            }
            // The browsers running now pause a site protected here from their very next visit.
            if !sites.isEmpty { BrowserConnections(paths: protection.paths).catchUp().forEach { print($0) } }
            if failure == 0, !commands.isEmpty, let hint = protection.pathHint() { print(hint) }
            if failure == 0, ShimDirectory.isInBuildFolder(protection.shims.gateway) {
                print("Note: the routes name \(protection.shims.gateway), in a build folder that make clean removes; "
                      + "make install puts miga where it stays, and miga doctor --fix run from there points them at it.")
            }
            if failure != 0 { throw ExitCode(failure) }
        }
    }
}
