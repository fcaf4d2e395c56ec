import ArgumentParser
import FoundationEssentials
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAStore

extension Miga {
    /// `miga sync DIR`: one history across machines.
    struct SyncFolder: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Share your history with your other machines through a synced folder.",
            discussion: """
                Give a folder that Syncthing, Nextcloud or another file-sync tool already \
                replicates. This machine appends its sessions to a file of its own there and adds \
                the other machines' sessions here; it never rewrites another machine's file, and \
                reads each one on from where the last sync stopped. A file it could not read to \
                its end is named, with why (doctor names it too). Run it on each machine (from a \
                timer, say); stats then count every device.

                Example:
                  miga sync ~/Sync/miga
                """)

        @Argument(help: "The shared folder.")
        var folder: String

        func run() throws {
            let store = try Miga.openStore(processEnvironment())
            let report = try reporting { () throws(MigaError) in try Sync.run(store: store, folder: folder) }
            for line in report.lines { print(line) }
        }
    }
}
