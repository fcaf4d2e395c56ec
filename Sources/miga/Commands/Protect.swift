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

                Example:
                  miga protect firefox discord
                  miga protect steam --name Steam --pause 120
                """)

        @Argument(help: ArgumentHelp("The commands to protect, as you type them.", valueName: "command"))
        var commands: [String]

        @Option(help: "How the program is called on screen (one command only).")
        var name: String?

        @Option(help: ArgumentHelp("This program's own pause, in seconds (1–3600).", valueName: "seconds"))
        var pause: Int?

        @Option(name: .customLong("non-interactive"),
                help: ArgumentHelp("What to do when started without a terminal: pass (run at once) or deny.", valueName: "policy"))
        var nonInteractive: String?

        func validate() throws {
            if commands.isEmpty { throw ValidationError("name at least one command to protect") }
            if name != nil && commands.count > 1 { throw ValidationError("--name goes with one command at a time") }
            if let pause, !Config.pauseRange.contains(pause) {
                throw ValidationError("--pause must be a whole number of seconds from \(Config.pauseRange.lowerBound) to \(Config.pauseRange.upperBound)")
            }
            if let nonInteractive, NonInteractivePolicy(rawValue: nonInteractive) == nil {
                throw ValidationError("--non-interactive must be one of: \(NonInteractivePolicy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }

        func run() throws {
            let protection = try Miga.protection()
            var failure: Int32 = 0
            for command in commands {
                do {
                    try protection.protect(command, name: name, pause: pause,
                                           nonInteractive: nonInteractive.flatMap(NonInteractivePolicy.init))
                    print("Protected \(command).")
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

                Example:
                  miga unprotect discord
                  miga unprotect --all
                """)

        @Argument(help: ArgumentHelp("The commands to stop protecting.", valueName: "command"))
        var commands: [String] = []

        @Flag(help: "Stop protecting every program.")
        var all = false

        func validate() throws {
            if all == !commands.isEmpty { throw ValidationError("name the commands to stop protecting, or give --all") }
        }

        func run() throws {
            let protection = try Miga.protection()
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
            print(ProgramTable.render(programs))
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
