import ArgumentParser
import MIGAKit

extension Miga {
    /// `miga doctor`: does every route reach the gateway?
    struct Doctor: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that protected programs reach the gateway, and say how to fix what does not.",
            discussion: """
                Looks at the config, the history, the shell (is the shim folder on PATH and \
                first for each program, does your start-up file run miga init), each protected \
                program and what each of its menu entries starts, and the notification server. \
                Exit status 0 when all is well, 1 otherwise.

                With --fix, first puts right what MIGA wrote: each menu override derived again \
                from the entry it stands for (removed when that entry is gone), each shim pointed \
                at this miga, what is missing written again. Overrides you edited by hand, and \
                everything MIGA did not write, are left alone.

                Example:
                  miga doctor
                  miga doctor --fix
                """)

        @Flag(help: "Put right the shims and menu entries MIGA wrote, then check.")
        var fix = false

        func run() throws {
            let protection = try Miga.protection()
            if fix {
                do {
                    let done = try protection.repair()
                    for line in done { print(line) }
                    if done.isEmpty { print("Nothing of MIGA's needed putting right.") }
                    print()
                } catch {
                    printError(error.message)
                    throw ExitCode(error.status)
                }
            }
            let findings = MIGAKit.Doctor(protection: protection).examine()
            for finding in findings {
                print("\(finding.ok ? "✓" : "✗") \(finding.text)")
                if let fix = finding.fix, !finding.ok { print("    fix: \(fix)") }
            }
            if findings.contains(where: { !$0.ok }) { throw ExitCode(ExitStatus.failure) }
        }
    }

    /// `miga uninstall`: remove what MIGA wrote.
    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove every shim, menu entry and hook line MIGA wrote, and nothing else.",
            discussion: """
                Your history and settings (every program's rules among them) stay unless you give \
                --purge; MIGA says where they are, and `miga protect NAME` brings a program back \
                as it was. Run again, it finds nothing to remove and says so. \
                The miga program itself stays too (make uninstall, or delete the file).

                In a terminal, a pause of its own comes first: Proceed at zero uninstalls, Exit \
                to Focus keeps everything; the history records which. Without a terminal (a \
                script), --now is required.

                Exit status: 0 when done or kept, 64 without a terminal and without --now, 1 if \
                a file cannot be changed, 128+N after signal N.

                Example:
                  miga uninstall
                  miga uninstall --purge
                  miga uninstall --now    (in a script)
                """)

        @Flag(help: "Also delete the history and the settings.")
        var purge = false

        @Flag(help: "Without a terminal (a script): uninstall without the pause.")
        var now = false

        func run() throws {
            let protection = try Miga.protection()
            // Run again after it is done, there is nothing to remove: no pause, nothing recorded.
            if !protection.hasWrittenRoutes && !purge {
                print("MIGA has no shims, menu entries or hook lines here; nothing to remove.")
                return
            }
            let protected = protection.protectedCommands()
            guard try SwitchOff.pause(.uninstall, subjects: protected,
                                      header: purge ? "a pause before uninstalling MIGA and deleting your history"
                                                    : "a pause before uninstalling MIGA",
                                      proceedLabel: purge ? "Uninstall and delete the history" : "Uninstall MIGA",
                                      kept: "MIGA stays, and so does everything it protects", now: now,
                                      command: "uninstall") else { return }
            do {
                let remaining = try protection.uninstall(purge: purge)
                // A purge takes the history with it; otherwise it remembers this.
                if !purge { SwitchOff.record(.uninstall, subjects: protected, .done) }
                print("MIGA's shims, menu entries and hook lines are gone.")
                for line in remaining { print(line) }
            } catch {
                printError(error.message)
                throw ExitCode(error.status)
            }
        }
    }
}
