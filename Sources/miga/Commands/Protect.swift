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
                and the --no- forms turn them off again. --kinds chooses the kinds of pause \
                (breathe, type, intention, instead) and --rotate how MIGA picks among them.

                Example:
                  miga protect firefox discord
                  miga protect steam --name Steam --pause 120
                  miga protect discord --allow 15 --escalate --hours "Mon-Fri 09:00-17:00"
                  miga protect discord --kinds breathe,type,instead --rotate adaptive
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

        @Option(name: .customLong("at-login"),
                help: ArgumentHelp("When it starts itself at login: pause (in a window), skip (not started) or pass (no pause).",
                                   valueName: "policy"))
        var atLogin: LoginPolicy?

        @Option(help: ArgumentHelp("The kinds of pause to show, comma-separated: breathe, type (a line typed back), intention, "
                                   + "instead (one of your alternatives).", valueName: "kinds"))
        var kinds: String?

        @Option(help: ArgumentHelp("How the kind is chosen: adaptive (learns which ends in an exit for you), cycle (in turn) "
                                   + "or off (the first).", valueName: "rotation"))
        var rotate: Rotation?

        var changes: ProgramChanges {
            ProgramChanges(name: name, pause: pause, nonInteractive: nonInteractive,
                           allowMinutes: allow, escalate: escalate, escalateStep: escalateStep, escalateMax: escalateMax,
                           hours: hours, holdWhenUnfocused: holdWhenUnfocused, askIntention: askIntention,
                           atLogin: atLogin,
                           pauseKinds: kinds.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } },
                           rotate: rotate)
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
                    printError(error.line)
                    failure = max(failure, error.status)
                }
            }
            if failure == 0, let hint = protection.pathHint() { print(hint) }
            if failure == 0, ShimDirectory.isInBuildFolder(protection.shims.gateway) {
                print("Note: the routes name \(protection.shims.gateway), in a build folder that make clean removes; "
                      + "make install puts miga where it stays, and miga doctor --fix run from there points them at it.")
            }
            if failure != 0 { throw ExitCode(failure) }
        }
    }
}

/// The policies, as `--non-interactive` takes them: help, the manual and the
/// completions list them from the type itself.
extension NonInteractivePolicy: ExpressibleByArgument {}
extension LoginPolicy: ExpressibleByArgument {}
extension Rotation: ExpressibleByArgument {}
