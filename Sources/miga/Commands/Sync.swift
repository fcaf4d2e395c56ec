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
                the other machines' sessions here; it never rewrites another machine's file. Run it \
                on each machine (from a timer, say); stats then count every device.

                Example:
                  miga sync ~/Sync/miga
                """)

        @Argument(help: "The shared folder.")
        var folder: String

        func run() throws {
            let store = try Miga.openStore(processEnvironment())
            let report = try Sync.run(store: store, folder: folder)
            print("Wrote \(report.written) new session\(report.written == 1 ? "" : "s") to \(report.ownFile); added \(report.merged) from \(report.devices) other device\(report.devices == 1 ? "" : "s").")
            if report.skipped > 0 { print("Set aside \(report.skipped) line\(report.skipped == 1 ? "" : "s") that \(report.skipped == 1 ? "is not a whole, possible session" : "are not whole, possible sessions") of their file's machine (a file still arriving, a clock ahead, or a line from elsewhere); they stay in their files.") }
        }
    }
}
