import ArgumentParser
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAConfig
import MIGADesktop

extension Miga {
    /// `miga list`: what is protected, and how launches reach the gateway.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the protected programs and sites, their settings and the programs' active routes.",
            discussion: """
                Routes: shim (the link in MIGA's shim folder), shell (typing the name here reaches \
                it), menu (an application menu entry goes through the pause), login (a start at \
                login does) and D-Bus (an activation does). With --routes, every route found for \
                each program (each shell's hook, the shim, each menu entry, login start and D-Bus \
                service, the Flatpak app's commands) and whether it reaches the pause. A shell \
                counts when it is your login shell or has a start-up file; a program whose rules \
                are kept after `miga uninstall` has no routes until `miga protect NAME`. The \
                protected sites follow, under "Sites", with their settings (the browser extension \
                pauses them, so they have no routes here).

                Example:
                  miga list
                  miga list --routes
                """)

        @Flag(help: "Every route found for each program, and whether it reaches the pause.")
        var routes = false

        func run() throws {
            // Programs unknown are not "none": a config that cannot be read says so.
            if let unreadable = ConfigLoader.load(from: Miga.paths.configFile).unreadable {
                throw MigaError(dataError: "the config cannot be read, so the protected programs are unknown: \(printable(unreadable.notice))")
            }
            let protection = try Miga.protection()
            let programs = protection.list()
            let config = protection.config
            let sites = protection.configuredSites().map { config.sites[$0.name] ?? ProgramSettings(.site($0)) }
            guard !programs.isEmpty || !sites.isEmpty else {
                print("No programs are protected yet. Try: miga protect firefox")
                return
            }
            let width = TTY.open()?.size.columns
            // The sites after the programs: their pause is in the browser, so they have no routes here.
            defer {
                if !sites.isEmpty { print((programs.isEmpty ? "" : "\n") + ProgramTable.renderSites(sites, width: width)) }
                for site in protection.configuredSites() where protection.isKept(site) {
                    print("\(printable(site.name)): \(Protection.keptNote(site))")
                }
            }
            guard routes else {
                if !programs.isEmpty { print(ProgramTable.render(programs, width: width)) }
                return
            }
            for coverage in protection.coverage() {
                print(coverage.summary)
                for route in coverage.routes {
                    print("  \(route.reaches ? "✓" : "✗") \(route.kind.rawValue): \(route.place)" + (route.problem.map { " (\($0))" } ?? "")
                          + (route.fix.map { "\n      fix: \($0)" } ?? ""))
                }
            }
            for status in programs where status.kept {
                print("\(printable(status.settings.command)): \(Protection.keptNote(status.settings.command))")
            }
            // Shells nobody here uses are no route: named once, for whoever starts using one.
            for idle in protection.idleShells() {
                print("· shell hook \(idle.shell.rawValue): not in use (no \(idle.file))")
            }
        }
    }
}
