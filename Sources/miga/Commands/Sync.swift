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
                its end is named, with why (doctor names it too); one that could not be read at \
                all, or broke off with an error, makes the status 1 once the rest is synced. Run it on each machine; with \
                --timer, systemd runs it every 15 minutes and a little after each login; stats \
                then count every device.

                Example:
                  miga sync ~/Sync/miga
                  miga sync ~/Sync/miga --timer
                  miga sync --no-timer
                """)

        @Argument(help: "The shared folder.")
        var folder: String?

        @Flag(help: "Then sync this folder every 15 minutes and a little after each login, from a systemd user timer MIGA writes (and enables, where systemd runs for you).")
        var timer = false

        @Flag(name: .customLong("no-timer"), help: "Stop and remove the timer --timer wrote; sync nothing.")
        var noTimer = false

        func validate() throws {
            if noTimer, timer || folder != nil { throw ValidationError("--no-timer takes no folder and no --timer") }
            if !noTimer, folder == nil { throw ValidationError("give the folder your sync tool shares (miga sync ~/Sync/miga)") }
        }

        func run() throws {
            if noTimer {
                let protection = try Miga.protection()
                print(try protection.removeSyncTimer())
                return
            }
            guard let folder else { return }
            let store = try Miga.openStore(processEnvironment())
            let report = try Sync.run(store: store, folder: folder)
            for line in report.lines { print(line) }
            if timer {
                let protection = try Miga.protection()
                // The folder as the timer's service will name it, wherever it runs from.
                let shared = realpath(folder) ?? folder
                print(try protection.installSyncTimer(syncing: shared))
            }
            // What could be read was added, and the file that could not is named above.
            if !report.readEveryFile { throw ExitCode(ExitStatus.failure) }
        }
    }
}
