import FoundationEssentials
import MIGACore
import MIGAStore
import MIGAConfig
import MIGADesktop
import MIGAKit

/// Each parser of text that comes from outside the process, with the promises
/// it keeps for any input: `make fuzz` drives these under libFuzzer (a broken
/// promise or a trap is a finding), and the tests replay every input that
/// once broke one (`Fuzz/Regressions/<target>/`).
///
/// The promises are the cheap ones that hold for every input: no trap, the
/// same input gives the same result, a problem names a line inside the input
/// in one line of text, and what is accepted survives being written back out
/// and read again. The seeded tests state the finer ones.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case config
    case quotes
    case fortune
    case desktop
    case exec
    case hours
    case importJSON = "import-json"
    case importCSV = "import-csv"
    case sync
    case dbusService = "dbus-service"
    case nativeHost = "native-host"

    // whole: a list of promises, one case a target; they read best side by side.
    /// The promises `input` broke, each said in one line; empty when all held.
    public func brokenPromises(_ input: [UInt8]) -> [String] {
        var broken: [String] = []
        func promise(_ held: Bool, _ what: @autoclosure () -> String) {
            if !held { broken.append(what()) }
        }
        // Files are read as their text decoded leniently (bad bytes become U+FFFD).
        let text = String(decoding: input, as: UTF8.self)
        // Lines as the parsers count them: by newline bytes ("\r\n" is one Character).
        let lines = input.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }

        switch self {
        case .config:
            let loaded = ConfigLoader.parse(text, file: "config.toml")
            let again = ConfigLoader.parse(text, file: "config.toml")
            promise(again.config == loaded.config && again.problems == loaded.problems, "not deterministic")
            for problem in loaded.problems {
                promise(problem.line.map { (1...lines).contains($0) } ?? true, "a problem on line \(problem.line ?? 0) of \(lines)")
                promise(isOneLine(problem.description), "a problem of more than one line")
            }
            if loaded.syntaxError != nil {
                promise(loaded.config == Config(), "a file that is not TOML still set something")
            }
            promise(Config.pauseRange.contains(loaded.config.pause), "pause \(loaded.config.pause) kept")
            for (command, settings) in loaded.config.programs {
                promise(settings.command == command && !command.isEmpty && !command.contains("/"), "a program named \(command.debugDescription)")
                promise(settings.pause.map(Config.pauseRange.contains) ?? true, "a program's pause of \(settings.pause ?? 0) kept")
                promise(settings.allowMinutes.map { $0 > 0 && $0 <= ProgramSettings.allowRange.upperBound } ?? true,
                        "allow_minutes \(settings.allowMinutes ?? 0) kept")
            }

        case .quotes:
            let parsed = input.withUnsafeBufferPointer { QuoteBank.parse(bytes: $0, file: "mine.txt") }
            let again = QuoteBank.parse(text, file: "mine.txt")
            promise(parsed.quotes == again.quotes && parsed.problems == again.problems, "the bytes and their text read differently")
            for problem in parsed.problems {
                promise((1...lines).contains(problem.line), "a problem on line \(problem.line) of \(lines)")
                promise(isOneLine(problem.description), "a problem of more than one line")
            }
            promise(Set(parsed.quotes.map(\.id)).count == parsed.quotes.count, "an id twice")
            for quote in parsed.quotes {
                promise(!quote.id.isEmpty && !quote.text.isEmpty && !quote.tags.isEmpty, "a quote without an id, text or tag")
                promise(([quote.id, quote.text, quote.source ?? ""] + quote.tags).allSatisfy(isOneLine), "a quote of more than one line")
            }

        case .fortune:
            do {
                let entries = try FortuneFile.parse(input, file: "wisdom")
                promise((try? FortuneFile.parse(input, file: "wisdom")) == entries, "not deterministic")
                for entry in entries {
                    promise(!entry.text.isEmpty && isOneLine(entry.text) && isOneLine(entry.source ?? ""), "an entry empty or of more than one line")
                }
            } catch {
                promise((1...lines).contains(error.line), "a problem on line \(error.line) of \(lines)")
                promise(isOneLine(error.description), "a problem of more than one line")
            }

        case .desktop:
            do {
                let entry = try DesktopEntry(text: text)
                // What MIGA writes from an entry it read reads back as the same entry.
                let written = try? DesktopEntry(text: entry.text)
                promise(written == entry, "written back, it reads differently")
                if let exec = entry.value("Exec") { _ = try? DesktopExec.split(exec) }
            } catch {
                promise(error.line.map { (1...lines).contains($0) } ?? true, "a problem on line \(error.line ?? 0) of \(lines)")
                promise(isOneLine(error.description), "a problem of more than one line")
            }

        case .exec:
            if let arguments = try? DesktopExec.split(text) {
                // The command line MIGA writes for these arguments splits into them again.
                let joined = DesktopExec.join(arguments)
                promise((try? DesktopExec.split(joined)) == arguments, "joined as \(joined.debugDescription), it splits differently")
            }

        case .hours:
            do {
                let hours = try FocusHours(text)
                // `miga list` and the config show the description; it must mean the same hours.
                promise((try? FocusHours(hours.description)) == hours, "its description means other hours")
                _ = hours.contains(Self.now, in: LocalZone(identifier: "Europe/Berlin") ?? .utc)
            } catch {
                promise(isOneLine(error.message), "a message of more than one line")
            }

        case .importJSON, .importCSV:
            do {
                let sessions = try Exchange.decodeRecords(text, now: Self.now)
                broken += impossible(sessions)
                // An export of what was imported imports again, and settles:
                // written and read once more, it is the same.
                let format: Exchange.Format = self == .importJSON ? .json : .csv
                let once = try Exchange.decodeRecords(Exchange.encode(sessions, as: format, localDevice: "here"), now: Self.now)
                let twice = try Exchange.decodeRecords(Exchange.encode(once, as: format, localDevice: "here"), now: Self.now)
                promise(once == twice, "written and read back, it changes each time")
            } catch {
                promise(isOneLine(error.message), "a message of more than one line: \(error.message.debugDescription)")
            }

        case .sync:
            let device = Self.syncDevice
            let read = Sync.parse(text, device: device, localDevice: "here", now: Self.now)
            promise(read.records.allSatisfy { $0.device == device && $0.origin != "here" }, "another machine's line taken as this one's")
            promise(read.skipped + read.records.count <= lines, "more sessions and skipped lines than lines")
            promise(read.ids == Set(read.records.map(\.id)), "ids and sessions disagree")
            broken += impossible(read.records)
            // The lines MIGA writes for these sessions read back as them.
            let written = read.records.map { Exchange.line($0, localDevice: "here") }.joined(separator: "\n")
            let back = Sync.parse(written, device: device, localDevice: "here", now: Self.now)
            promise(back.records == read.records && back.skipped == 0, "written back, the sessions read differently")

        case .nativeHost:
            broken += nativeHostBrokenPromises(input)

        case .dbusService:
            guard let service = DBusServices.parse(text, path: "a.service") else { break }
            promise(!service.name.isEmpty && !service.exec.isEmpty && isOneLine(service.name) && isOneLine(service.exec), "a name or Exec empty or of two lines")
            // The override MIGA writes reads back as a service of the same name that runs the gateway, then the original.
            let services = DBusServices(sourceFolders: [], userFolder: "/nowhere", gateway: "/opt/miga/bin/miga")
            if let written = services.overriding(service, for: "program") {
                let back = DBusServices.parse(written, path: "b.service")
                promise(back?.name == service.name && back?.program == "program", "written back, it names another service")
                promise(back.map { DesktopExec.texts($0.exec, fieldCodes: false).prefix(2) == ["/opt/miga/bin/miga", "gate"] } == true,
                        "written back, it does not start the gateway")
                // gateway gate --window --detach --as program ORIGINAL -- ARGUMENTS…
                let original = DesktopExec.texts(service.exec, fieldCodes: false)
                promise(back.map { DesktopExec.texts($0.exec, fieldCodes: false) } == ["/opt/miga/bin/miga", "gate", "--window", "--detach", "--as", "program"]
                            + original.prefix(1) + ["--"] + original.dropFirst(), "written back, the original's command line changed")
            }
        }
        return broken
    }

    /// The promises of the store and the stats: every session a possible one.
    private func impossible(_ sessions: [SessionRecord]) -> [String] {
        sessions.compactMap { session in
            let end = session.endedAt ?? Self.now
            let possible = session.startedAt >= Exchange.earliest && end >= session.startedAt
                && end <= Self.now.addingTimeInterval(Exchange.clockSkew)
                && session.pausedSeconds.isFinite && session.pausedSeconds >= 0
                && session.pausedSeconds <= SessionRecord.longestPause && session.outcome != .open
            return possible ? nil : "an impossible session kept: \(session.id.debugDescription)"
        }
    }

    /// The machine whose sync file the input is.
    static let syncDevice = "0b5e7c1a-1111-4222-8333-944455556666"

    /// The instant the checks take as now, so that a finding is found again.
    static let now = Date(timeIntervalSince1970: 1_900_000_000)

    private func isOneLine(_ text: String) -> Bool {
        !text.unicodeScalars.contains("\n")
    }
}
