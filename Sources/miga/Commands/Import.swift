import ArgumentParser
import FoundationEssentials
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAStore

extension Miga {
    /// `miga import`: read an export back.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the sessions of an export (JSON or CSV) that are not here yet.",
            discussion: """
                Importing the same file twice adds nothing the second time. A malformed file is \
                refused whole, naming the first bad record (status 65); nothing is imported from it.

                Example:
                  miga import ~/miga-history.json
                """)

        @Argument(help: "The file written by miga export.")
        var file: String

        func run() throws {
            let store = try Miga.openStore(processEnvironment())
            let text: String
            do {
                guard let contents = try readTextFile(file) else { throw MigaError(dataError: "\(file) does not exist") }
                text = contents
            } catch let error as FileSystemError {
                throw MigaError("cannot read \(error)")
            }
            do {
                let sessions = try Exchange.decode(text, localDevice: try store.deviceID())
                let added = try store.insertMissing(sessions)
                print("Imported \(added) new session\(added == 1 ? "" : "s")" + (sessions.count > added ? " (\(sessions.count - added) were already here)." : "."))
            } catch let error as MigaError {
                throw MigaError("\(file): \(error); nothing was imported", status: error.status)
            }
        }
    }
}
