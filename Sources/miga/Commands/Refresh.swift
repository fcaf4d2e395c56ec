import ArgumentParser
import MIGACore
import MIGAKit
import MIGATerminal

extension Miga {
    /// `miga refresh`: every route derived again from what is installed now.
    struct Refresh: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cover new and changed application entries of protected programs, and drop those that are gone.",
            discussion: """
                Derives every route again from what is installed now: a menu entry or login \
                start that appeared since (Steam's shortcut for a game, a second entry, an \
                AppImage's new version) gets its override, one whose entry changed is written \
                again, one whose entry is gone is removed; overrides you edited by hand stay. \
                Running it again changes nothing.

                It runs by itself: from the systemd user path unit that --units writes (when an \
                application folder changes), and from any miga command that finds one changed \
                since the last refresh.

                Exit status: 0 when every route is in place, 1 when a file cannot be written.

                Example:
                  miga refresh
                  miga refresh --units
                """)

        @Flag(help: "Also write the systemd user units that refresh whenever an application folder changes, and enable them where systemd runs for you.")
        var units = false

        func run() throws {
            let protection = try Miga.protection()
            let done = try protection.refresh()
            for line in done { print(line) }
            if done.isEmpty && protection.protectedCommands().isEmpty {
                // `make install` writes the units before setup has protected anything: no news.
                if !units { print("Nothing is protected yet (miga protect NAME, or miga setup).") }
            } else if done.isEmpty {
                print("Every route is in place.")
            }
            if units { print(try protection.installUnits()) }
        }
    }
}
