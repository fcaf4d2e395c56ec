import ArgumentParser
import FoundationEssentials
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAStore
import MIGAConfig
import MIGADesktop

extension Miga {
    /// `miga doctor`: does every route reach the gateway?
    struct Doctor: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that protected programs reach the gateway, and say how to fix what does not.",
            discussion: """
                Looks at the config, the history, the shell (is the shim folder on PATH and \
                first for each program, does your start-up file run miga init), each protected \
                program and what each of its menu entries starts, and the notification server. \
                ✓ is well, ✗ a problem with its fix, · worth knowing and fine as it is (a shell \
                installed but not in use, a program whose rules are kept after uninstall). \
                Each browser found: covered when its extension is connected to MIGA now, or reached \
                it the last time the browser ran; not covered, with what to do, when the browser \
                ran and its extension did not reach MIGA; not known yet when it has not run since \
                MIGA equipped it; and whether its private windows pause, with how to allow them. \
                Exit status 0 when nothing is ✗, 1 otherwise.

                With --fix, first puts right what MIGA wrote: each menu override derived again \
                from the entry it stands for (removed when that entry is gone), each shim pointed \
                at this miga, what is missing written again, the browsers' host link pointed at \
                this miga when the one it named is gone. Overrides you edited by hand, and \
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
                let done = try protection.repair() + [BrowserSetup(protection: protection).link.mend()].compactMap { $0 }
                for line in done { print(line) }
                if done.isEmpty { print("Nothing of MIGA's needed putting right.") }
                print()
                // Putting right, it writes anyway: the launches around the pause it is about to report, recorded.
                if let store = SessionStore.existing(in: protection.paths) {
                    Upkeep(store: store, config: ConfigLoader.load(from: protection.paths.configFile).config).recordLeaks(protection)
                }
            }
            // Kinds of pause with nothing to show: worth knowing, not a fault of the routes.
            let config = ConfigLoader.load(from: protection.paths.configFile).config
            let findings = MIGADesktop.Doctor(protection: protection).examine()
                + KindSupply(paths: protection.paths, config: config).leftOut(in: config).map { Finding(info: $0) }
                + BrowserCoverage(setup: BrowserSetup(protection: protection),
                                  store: try? SessionStore.reading(path: protection.paths.storeFile),
                                  connections: BrowserConnections(paths: protection.paths), now: Date()).findings()
            for finding in findings {
                print("\(finding.mark) \(finding.text)")
                if let fix = finding.fix, !finding.ok { print("    fix: \(fix)") }
            }
            if findings.contains(where: { !$0.ok }) { throw ExitCode(ExitStatus.failure) }
        }
    }
}
