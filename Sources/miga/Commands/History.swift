import ArgumentParser
import Foundation
import MIGAKit

extension Miga {
    /// `miga history`: every pause, one line each.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List past pauses: when, which program, what you chose.",
            discussion: """
                Newest last, with what each Proceed was for when you were asked, and every \
                unprotect or uninstall asked for (done, or thought better of). --all adds launches \
                that passed through without a pause (no terminal, inside an allowance, outside \
                focus hours). --json and --csv print the sessions in the export format.

                Example:
                  miga history --since 2026-11-01 --program firefox
                """)

        @Option(help: ArgumentHelp("Only from this local date on (YYYY-MM-DD).", valueName: "date"))
        var since: String?

        @Option(help: "Only this program.")
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
            LocalDay(parsing: text)?.start(in: .current)
        }

        func run() throws {
            let environment = processEnvironment()
            let store = try Miga.openStore(environment)
            let start = since.flatMap(Self.startOfDay)
            let sessions = try store.sessions().filter { session in
                session.outcome != .open && (all || session.outcome != .passthrough)
                    && (program == nil || session.program == program)
                    && (start == nil || (session.endedAt ?? session.startedAt) >= start!)
            }
            if json || csv {
                print(Exchange.encode(sessions, as: json ? .json : .csv, localDevice: try store.deviceID()), terminator: "")
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
            print(palette.render(HistoryTable.lines(sessions, changes: changes)), terminator: "")
        }
    }

    /// `miga export`: every session, to a file or standard output.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every session as JSON or CSV.",
            discussion: """
                Without FILE, to standard output. `miga import` reads the result back.

                Example:
                  miga export --format csv ~/miga-history.csv
                """)

        @Option(help: "json or csv.")
        var format: String = "json"

        @Argument(help: "Where to write (created 0600).")
        var file: String?

        func validate() throws {
            if Exchange.Format(rawValue: format) == nil { throw ValidationError("--format must be json or csv") }
        }

        func run() throws {
            let store = try Miga.openStore(processEnvironment())
            let sessions = try store.sessions().filter { $0.outcome != .open }
            let text = Exchange.encode(sessions, as: Exchange.Format(rawValue: format)!, localDevice: try store.deviceID())
            guard let file else {
                print(text, terminator: "")
                return
            }
            do {
                try atomicWrite(text, to: file, mode: 0o600)
            } catch {
                printError("miga: cannot write \(file): \(error)")
                throw ExitCode(ExitStatus.failure)
            }
            printError("Exported \(sessions.count) session\(sessions.count == 1 ? "" : "s") to \(file).")
        }
    }

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
                guard let contents = try readTextFile(file) else {
                    printError("miga: \(file) does not exist")
                    throw ExitCode(ExitStatus.dataError)
                }
                text = contents
            } catch let error as FileSystemError {
                printError("miga: cannot read \(error)")
                throw ExitCode(ExitStatus.failure)
            }
            do {
                let sessions = try Exchange.decode(text, localDevice: try store.deviceID())
                let added = try store.insertMissing(sessions)
                print("Imported \(added) new session\(added == 1 ? "" : "s")" + (sessions.count > added ? " (\(sessions.count - added) were already here)." : "."))
            } catch let error as ExchangeError {
                printError("miga: \(file): \(error); nothing was imported")
                throw ExitCode(ExitStatus.dataError)
            }
        }
    }

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
            do {
                let report = try Sync.run(store: store, folder: folder)
                print("Wrote \(report.written) new session\(report.written == 1 ? "" : "s") to \(report.ownFile); added \(report.merged) from \(report.devices) other device\(report.devices == 1 ? "" : "s").")
                if report.skipped > 0 { print("Skipped \(report.skipped) incomplete line\(report.skipped == 1 ? "" : "s") (a file still arriving?); the next sync reads them.") }
            } catch {
                printError("miga: \(error)")
                throw ExitCode(ExitStatus.failure)
            }
        }
    }
}

/// The lines `miga history` prints.
enum HistoryTable {
    static func lines(_ sessions: [SessionRecord], changes: [ProtectionChange] = []) -> [Line] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let names = sessions.map(\.program) + changes.map { $0.subjects.isEmpty ? "miga" : $0.subjects.joined(separator: ", ") }
        let nameWidth = min(20, names.map { CellWidth.of($0) }.max() ?? 0)
        func lead(_ date: Date, _ program: String) -> [Span] {
            let name = TextWrap.truncate(program, width: nameWidth)
            return [Span(formatter.string(from: date) + "  ", .muted),
                    Span(name + String(repeating: " ", count: nameWidth - CellWidth.of(name)) + "  ")]
        }
        let rows = sessions.map { session in
            (session.endedAt ?? session.startedAt, line(session, lead(session.endedAt ?? session.startedAt, session.program)))
        } + changes.map { change in
            (change.at, line(change, lead(change.at, change.subjects.isEmpty ? "miga" : change.subjects.joined(separator: ", "))))
        }
        return rows.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
    }

    static func line(_ session: SessionRecord, _ lead: [Span]) -> Line {
        let (word, tone): (String, Tone) = switch session.outcome {
        case .exit: ("exit to focus", .accentDeep)
        case .proceed: ("proceeded", .body)
        case .abandoned: ("abandoned", .muted)
        case .passthrough: ("passed through", .muted)
        case .open: ("in progress", .muted)
        }
        var spans = lead + [Span(word, tone)]
        let padding = String(repeating: " ", count: 16 - word.count)
        if session.outcome != .passthrough {
            let seconds = Int(session.pausedSeconds.rounded())
            spans.append(Span(padding + (seconds < 60 ? "\(seconds) s" : "\(seconds / 60) min \(seconds % 60) s"), .muted))
        }
        switch session.reason {
        case .allowed: spans.append(Span(padding + "inside the allowance", .muted))
        case .outsideHours: spans.append(Span(padding + "outside focus hours", .muted))
        case nil: break
        }
        if session.deepenCount > 0 { spans.append(Span("  deepened \(session.deepenCount)×", .muted)) }
        if !session.happenedOn.isEmpty { spans.append(Span("  on \(session.happenedOn.prefix(8))", .muted)) }
        if let intention = session.intention { spans.append(Span("  for “\(intention)”", .body)) }
        return Line(spans)
    }

    static func line(_ change: ProtectionChange, _ lead: [Span]) -> Line {
        let word = switch (change.action, change.outcome) {
        case (.unprotect, .done): "unprotected"
        case (.unprotect, .kept): "kept protected"
        case (.uninstall, .done): "uninstalled"
        case (.uninstall, .kept): "kept installed"
        }
        return Line(lead + [Span(word, change.outcome == .kept ? .accentDeep : .body)])
    }
}
