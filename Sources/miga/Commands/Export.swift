import ArgumentParser
import FoundationEssentials
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAStore

extension Miga {
    /// `miga export`: every session, to a file or standard output.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every session as JSON or CSV.",
            discussion: """
                Without FILE, to standard output. `miga import` reads the result back.

                Example:
                  miga export --format csv ~/miga-history.csv
                """)

        @Option(help: "The file's format.")
        var format: Exchange.Format = .json

        @Argument(help: "Where to write (created 0600).")
        var file: String?

        func run() throws {
            let store = try Miga.openStore(processEnvironment())
            let sessions = try store.sessions().filter { $0.outcome != .open }
            let text = Exchange.encode(sessions, as: format, localDevice: try store.deviceID())
            guard let file else {
                Swift.print(text, terminator: "")
                return
            }
            do {
                try atomicWrite(text, to: file, mode: 0o600)
            } catch {
                throw MigaError("cannot write \(file): \(error)")
            }
            printError("Exported \(sessions.count) session\(sessions.count == 1 ? "" : "s") to \(file).")
        }
    }
}

/// Formats, as `--format` takes them: help and completions list them from the type.
extension Exchange.Format: ExpressibleByArgument {}
