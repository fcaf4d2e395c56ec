import ArgumentParser
import MIGAKit

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
                and the --no- forms turn them off again.

                Example:
                  miga protect firefox discord
                  miga protect steam --name Steam --pause 120
                  miga protect discord --allow 15 --escalate --hours "Mon-Fri 09:00-17:00"
                """)

        @Argument(help: ArgumentHelp("The commands to protect, as you type them.", valueName: "command"))
        var commands: [String]

        @Option(help: "How the program is called on screen (one command only).")
        var name: String?

        @Option(help: ArgumentHelp("This program's own pause, in seconds (1–3600).", valueName: "seconds"))
        var pause: Int?

        @Option(name: .customLong("non-interactive"),
                help: ArgumentHelp("What to do when started without a terminal: pass (run at once), terminal (the pause in a "
                                   + "terminal window) or deny.", valueName: "policy"))
        var nonInteractive: NonInteractivePolicy?

        @Option(help: ArgumentHelp("After a Proceed, open again without a pause for this many minutes (0: off).",
                                   valueName: "minutes"))
        var allow: Double?

        @Flag(inversion: .prefixedNo, help: "Lengthen the pause with each further try within the hour.")
        var escalate: Bool?

        @Option(name: .customLong("escalate-step"),
                help: ArgumentHelp("Seconds each further try adds (default 30).", valueName: "seconds"))
        var escalateStep: Int?

        @Option(name: .customLong("escalate-max"),
                help: ArgumentHelp("The longest the pause grows to, in seconds (default 300).", valueName: "seconds"))
        var escalateMax: Int?

        @Option(help: ArgumentHelp("Protect only inside these hours, like \"Mon-Fri 09:00-17:00; Sat 10:00-12:00\" (always: off).",
                                   valueName: "hours"))
        var hours: String?

        @Flag(name: .customLong("hold-when-unfocused"), inversion: .prefixedNo,
              help: "Hold the countdown while the terminal window is not focused.")
        var holdWhenUnfocused: Bool?

        @Flag(name: .customLong("ask-intention"), inversion: .prefixedNo,
              help: "Ask what the program is being opened for before it opens.")
        var askIntention: Bool?

        var changes: ProgramChanges {
            ProgramChanges(name: name, pause: pause, nonInteractive: nonInteractive,
                           allowMinutes: allow, escalate: escalate, escalateStep: escalateStep, escalateMax: escalateMax,
                           hours: hours, holdWhenUnfocused: holdWhenUnfocused, askIntention: askIntention)
        }

        func validate() throws {
            if commands.isEmpty { throw ValidationError("name at least one command to protect") }
            if name != nil && commands.count > 1 { throw ValidationError("--name goes with one command at a time") }
            if let problem = changes.problem { throw ValidationError(problem) }
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
                    printError(error.message)
                    failure = max(failure, error.status)
                }
            }
            if failure == 0, let hint = protection.pathHint() { print(hint) }
            if failure != 0 { throw ExitCode(failure) }
        }
    }

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
                """)

        @Argument(help: ArgumentHelp("The commands to stop protecting.", valueName: "command"))
        var commands: [String] = []

        @Flag(help: "Stop protecting every program.")
        var all = false

        @Flag(help: "Without a terminal (a script): make the change without its pause.")
        var now = false

        func validate() throws {
            if all == !commands.isEmpty { throw ValidationError("name the commands to stop protecting, or give --all") }
        }

        func run() throws {
            let protection = try Miga.protection()
            let protected = protection.protectedCommands()
            // A name that is not protected is a mistake to point out (a typo, often), and nothing is done.
            let unknown = commands.filter { !protected.contains($0) }
            if !unknown.isEmpty {
                printError("miga: \(unknown.map(printable).formatted(.list(type: .and))) \(unknown.count == 1 ? "is" : "are") not protected; nothing was changed (miga list shows what is)")
                throw ExitCode(ExitStatus.usage)
            }
            let concerned = all ? protected : commands
            if !concerned.isEmpty {
                let config = ConfigLoader.load(from: XDGPaths(environment: processEnvironment()).configFile).config
                let names = concerned.map { config.settings(for: $0).displayName }
                let what = all ? "every protected program" : names.formatted(.list(type: .and))
                let kept = all ? "every program stays protected"
                    : "\(what) \(concerned.count == 1 ? "stays" : "stay") protected"
                guard try SwitchOff.pause(.unprotect, subjects: concerned, header: "a pause before unprotecting \(what)",
                                          proceedLabel: "Unprotect \(what)", kept: kept, now: now, command: "unprotect") else {
                    return
                }
            }
            do {
                if all {
                    let removed = try protection.unprotectAll()
                    print(removed.isEmpty ? "Nothing was protected." : "No longer protected: \(removed.joined(separator: ", ")).")
                } else {
                    for command in commands {
                        try protection.unprotect(command)
                        print("\(command) is no longer protected.")
                    }
                }
                if !concerned.isEmpty { SwitchOff.record(.unprotect, subjects: concerned, .done) }
            } catch {
                printError(error.message)
                throw ExitCode(error.status)
            }
        }
    }

    /// `miga list`: what is protected, and how launches reach the gateway.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the protected programs, their settings and their active routes.",
            discussion: """
                Routes: shim (the link in MIGA's shim folder), shell (typing the name here reaches \
                it) and menu (an application menu entry goes through the pause).

                Example:
                  miga list
                """)

        func run() throws {
            let programs = try Miga.protection().list()
            guard !programs.isEmpty else {
                print("No programs are protected yet. Try: miga protect firefox")
                return
            }
            print(ProgramTable.render(programs, width: TTY.open()?.size.columns))
        }
    }

    /// The protection for this user's folders and the running binary.
    static func protection() throws -> Protection {
        guard let gateway = ShimDirectory.runningGateway else {
            printError("miga: cannot find its own binary (/proc is not mounted?)")
            throw ExitCode(ExitStatus.failure)
        }
        let environment = processEnvironment()
        return Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: gateway)
    }
}

/// The policies, as `--non-interactive` takes them: help, the manual and the
/// completions list them from the type itself.
extension NonInteractivePolicy: ExpressibleByArgument {}
