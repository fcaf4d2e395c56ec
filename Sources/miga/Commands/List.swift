import ArgumentParser
import MIGAKit

extension Miga {
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
            print(ProgramTable.render(programs, width: TTY.open()?.size.columns))
        }
    }
}
