import ArgumentParser
import FoundationEssentials
import Glibc
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAStore

extension Miga {
    /// `miga history`: every pause, one line each.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List past pauses: when, which program, what you chose.",
            discussion: """
                Newest last, with what each Proceed was for when you were asked, what a program \
                started from the desktop said when it stopped at once, and every unprotect or \
                uninstall asked for (done, or thought better of). --all adds launches \
                that passed through without a pause (no terminal, inside an allowance, outside \
                focus hours). --json and --csv print the sessions in the export format.

                Example:
                  miga history --since 2026-11-01 --program firefox
                """)

        @Option(help: ArgumentHelp("Only from this local date on (YYYY-MM-DD).", valueName: "date"))
        var since: String?

        @Option(help: "Only this program (a site: \(Protected.siteSpelling("NAME"))).")
        var program: String?

        @Flag(help: "Include launches that passed through without a pause.")
        var all = false

        @Flag(help: "Print JSON.")
        var json = false

        @Flag(help: "Print CSV.")
        var csv = false

        func validate() throws {
            if json && csv { throw ValidationError("--json and --csv go one at a time") }
            if let since, Self.startOfDay(since) == nil { throw ValidationError("--since takes a date that exists, as YYYY-MM-DD, not \"\(printable(since))\"") }
        }

        static func startOfDay(_ text: String) -> Date? {
            LocalDay(parsing: text)?.start(in: .system)
        }

        func run() throws {
            let environment = processEnvironment()
            // Only a look: nothing written (see `Upkeep`).
            let store = try Miga.readStore(environment)
            let start = since.flatMap(Self.startOfDay)
            let program = program.map(Protected.historyName(of:))
            let sessions = try store.sessions().filter { session in
                session.outcome != .open && (all || session.outcome != .passthrough)
                    && (program == nil || session.program == program)
                    && (start == nil || (session.endedAt ?? session.startedAt) >= start!)
            }
            if json || csv {
                Swift.print(Exchange.encode(sessions, as: json ? .json : .csv, localDevice: try store.deviceID()), terminator: "")
                return
            }
            let changes = try store.changes().filter { change in
                (program == nil || change.subjects.contains(program!) || change.subjects.isEmpty)
                    && (start == nil || change.at >= start!)
            }
            guard !sessions.isEmpty || !changes.isEmpty else {
                print("No pauses to show yet.")
                return
            }
            let palette = outputPalette(environment: environment)
            // Within a terminal's width; a pipe or a file gets every word.
            let width = isatty(1) == 1 ? outputColumns(environment: environment) : nil
            Swift.print(palette.render(HistoryTable.lines(sessions, changes: changes, width: width)), terminator: "")
        }
    }
}
