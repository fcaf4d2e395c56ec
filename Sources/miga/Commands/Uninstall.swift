import ArgumentParser
import MIGACore
import MIGAKit
import MIGATerminal

extension Miga {
    /// `miga uninstall`: remove what MIGA wrote.
    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove every shim, menu entry, hook line and browser part MIGA wrote, and nothing else.",
            discussion: """
                The browser parts are the host manifests, the host's link and the extension's folder \
                in MIGA's data folder; browsers running now are told first that no site is protected. \
                Your history and settings (every program's and site's rules among them) stay unless you give \
                --purge; MIGA says where they are. The rules are kept, not protecting: `miga list` \
                shows each as kept, and `miga protect NAME` (or --site NAME) brings one back as it was. Run again, it finds nothing to remove and says so. \
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
            // What lets the browsers reach MIGA is taken away too, recorded before it is.
            BrowserSetup(protection: protection).recordParts()
            // Run again after it is done, there is nothing to remove: no pause, nothing recorded.
            if !protection.hasWrittenRoutes && !purge {
                print("MIGA has no shims, menu entries or hook lines here; nothing to remove.")
                return
            }
            let protected = protection.protectedCommands()
            guard try SwitchOff.ask(.uninstall, subjects: protected,
                                    header: purge ? "a pause before uninstalling MIGA and deleting your history"
                                                  : "a pause before uninstalling MIGA",
                                    proceedLabel: purge ? "Uninstall and delete the history" : "Uninstall MIGA",
                                    kept: "MIGA stays, and so does everything it protects", now: now,
                                    command: "uninstall") else { return }
            // Browsers connected now drop the sites' rules while they can still hear MIGA.
            var notes: [String] = []
            let remaining = try protection.uninstall(purge: purge, letGo: {
                notes = BrowserConnections(paths: protection.paths).catchUp()
            })
            // A purge takes the history with it; otherwise it remembers this.
            if !purge { SwitchOff.done(.uninstall, subjects: protected) }
            print("MIGA's shims, menu entries, hook lines and browser parts are gone.")
            for line in notes + remaining { print(line) }
        }
    }
}
