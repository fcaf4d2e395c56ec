import FoundationEssentials
import MIGACore

/// Sessions as files other programs (and other machines) can read: JSON, CSV,
/// and JSON Lines for sync. One record per session, every field spelled out,
/// instants in ISO 8601 UTC with milliseconds.
public enum Exchange {
    public enum Format: String, CaseIterable, Sendable {
        case json, csv
    }

    /// One session as it travels. `device` is filled in: a record always says
    /// which machine publishes it; `origin`, when present, where it happened
    /// (a session that machine imported from another's export).
    struct Record: Codable, Equatable {
        var id: String
        var program: String
        var started_at: String
        var ended_at: String?
        var outcome: String
        var paused_seconds: Double
        var deepen_count: Int
        var quotes: [String]
        var device: String
        var origin: String?
        /// Why a pass-through passed (`allowed`, `outside-hours`, `autostart`, `no-window`); absent otherwise.
        var reason: String?
        /// What a Proceed was for, when the person was asked.
        var intention: String?
        /// The kind of pause (a `PauseKind`'s raw value); absent
        /// for pass-throughs and in exports from before there were kinds.
        var kind: String?
        /// A typed pause: whether the line was typed in full.
        var typed: Bool?
        /// The alternative chosen instead (an exit).
        var alternative: String?
        /// A proceed whose program stopped at once: what it said. Absent
        /// otherwise, and in exports from before it was kept.
        var stopped_at_once: String?
    }

    struct Document: Codable {
        var format = "miga-sessions"
        var version = 1
        var sessions: [Record]
    }

    public static let csvHeader = ["id", "program", "started_at", "ended_at", "outcome", "paused_seconds", "deepen_count", "quotes",
                                   "device", "reason", "intention", "origin", "kind", "typed", "alternative", "stopped_at_once"]
    /// The headers of earlier exports, still read: before stops at once, before kinds, before origins, and
    /// before reasons and intentions.
    static let earlierCSVHeaders = [Array(csvHeader.prefix(15)), Array(csvHeader.prefix(12)), Array(csvHeader.prefix(11)),
                                    Array(csvHeader.prefix(9))]

    // MARK: Writing

    public static func encode(_ sessions: [SessionRecord], as format: Format, localDevice: String) -> String {
        let records = sessions.map { record($0, localDevice: localDevice) }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(Document(sessions: records))) ?? Data()
            return escapingControls(inJSON: String(decoding: data, as: UTF8.self)) + "\n"
        case .csv:
            let rows = records.map { record in
                [record.id, record.program, record.started_at, record.ended_at ?? "", record.outcome,
                 number(record.paused_seconds), String(record.deepen_count), record.quotes.joined(separator: " "), record.device,
                 record.reason ?? "", record.intention ?? "", record.origin ?? "", record.kind ?? "",
                 record.typed.map { $0 ? "true" : "false" } ?? "", record.alternative ?? "", record.stopped_at_once ?? ""]
            }
            return ([csvHeader] + rows).map { $0.map(csvField).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
        }
    }

    /// One compact line of JSON, for the append-only sync files.
    package static func line(_ session: SessionRecord, localDevice: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(record(session, localDevice: localDevice))) ?? Data()
        return escapingControls(inJSON: String(decoding: data, as: UTF8.self))
    }

    static func record(_ session: SessionRecord, localDevice: String) -> Record {
        Record(id: session.id, program: session.program, started_at: iso(session.startedAt),
               ended_at: session.endedAt.map(iso), outcome: session.outcome.rawValue,
               paused_seconds: session.pausedSeconds, deepen_count: session.deepenCount, quotes: session.quotes,
               device: session.device.isEmpty ? localDevice : session.device,
               origin: session.origin.isEmpty ? nil : session.origin,
               reason: session.reason?.rawValue, intention: session.intention, kind: session.kind?.rawValue,
               typed: session.typed, alternative: session.alternative, stopped_at_once: session.stoppedAtOnce)
    }

    // MARK: Reading

    /// Reads a whole export, or fails naming the first bad record; nothing is
    /// half-read. What is imported is this machine's to publish when it
    /// syncs; a session that happened elsewhere keeps that machine as its origin.
    public static func decode(_ text: String, localDevice: String, now: Date = Date()) throws(MigaError) -> [SessionRecord] {
        try decodeRecords(text, now: now).map { imported($0, localDevice: localDevice) }
    }

    /// Where an imported session happened when its export names no machine.
    package static let importedOrigin = "imported"

    /// An imported session as this machine keeps it: its to publish, and
    /// always with where it happened, even when the export names this
    /// machine or none. An export is a file anyone can write, so what it holds
    /// counts in the figures but never shapes the protection (the allowance,
    /// the ladder) nor what the pause says of today: it never reads as "here".
    static func imported(_ session: SessionRecord, localDevice: String) -> SessionRecord {
        var session = session
        session.origin = [session.origin, session.device].first { !$0.isEmpty } ?? importedOrigin
        session.device = ""
        return session
    }

    package static func decodeRecords(_ text: String, now: Date) throws(MigaError) -> [SessionRecord] {
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.hasPrefix("{") {
            let document: Document
            do {
                document = try JSONDecoder().decode(Document.self, from: Data(text.utf8))
            } catch {
                throw MigaError(dataError: "not a MIGA export: \(describe(error))")
            }
            guard document.format == "miga-sessions", document.version == 1 else {
                throw MigaError(dataError: "not a MIGA export of a version this miga reads (format \(document.format), version \(document.version))")
            }
            var sessions: [SessionRecord] = []
            for (index, record) in document.sessions.enumerated() {
                sessions.append(try session(record, place: "session \(index + 1)", now: now))
            }
            return sessions
        }
        return try decodeCSV(text, now: now)
    }

    static func decodeCSV(_ text: String, now: Date) throws(MigaError) -> [SessionRecord] {
        let rows = try csvRows(text)
        guard let header = rows.first, header == csvHeader || earlierCSVHeaders.contains(header) else {
            throw MigaError(dataError: "line 1: expected the header \(csvHeader.joined(separator: ","))")
        }
        var sessions: [SessionRecord] = []
        for (index, fields) in rows.dropFirst().enumerated() {
            let place = "line \(index + 2)"
            if fields == [""] { continue }
            guard fields.count == header.count else {
                throw MigaError(dataError: "\(place): expected \(header.count) fields, found \(fields.count)")
            }
            guard let paused = Double(fields[5]), let deepens = Int(fields[6]) else {
                throw MigaError(dataError: "\(place): paused_seconds and deepen_count must be numbers")
            }
            var typed: Bool?
            if fields.count > 13, !fields[13].isEmpty {
                guard fields[13] == "true" || fields[13] == "false" else {
                    throw MigaError(dataError: "\(place): typed must be true, false or empty, not \"\(csvText(fields[13]))\"")
                }
                typed = fields[13] == "true"
            }
            let fields = fields.map(csvText)
            let record = Record(id: fields[0], program: fields[1], started_at: fields[2], ended_at: fields[3].isEmpty ? nil : fields[3],
                                outcome: fields[4], paused_seconds: paused, deepen_count: deepens,
                                quotes: fields[7].split(separator: " ").map(String.init), device: fields[8],
                                origin: fields.count > 11 && !fields[11].isEmpty ? fields[11] : nil,
                                reason: fields.count > 9 && !fields[9].isEmpty ? fields[9] : nil,
                                intention: fields.count > 10 && !fields[10].isEmpty ? fields[10] : nil,
                                kind: fields.count > 12 && !fields[12].isEmpty ? fields[12] : nil, typed: typed,
                                alternative: fields.count > 14 && !fields[14].isEmpty ? fields[14] : nil,
                                stopped_at_once: fields.count > 15 && !fields[15].isEmpty ? fields[15] : nil)
            sessions.append(try session(record, place: place, now: now))
        }
        return sessions
    }

    // MARK: Details

    /// `2027-01-15T08:00:00.123Z`. The milliseconds are written out here: the
    /// store keeps whole milliseconds, and Foundation's style truncates a
    /// double's .1229999… to .122.
    package static func iso(_ date: Date) -> String {
        let milliseconds = date.milliseconds
        let (seconds, fraction) = (milliseconds - ((milliseconds % 1000) + 1000) % 1000, ((milliseconds % 1000) + 1000) % 1000)
        let whole = Date(milliseconds: seconds).formatted(Date.ISO8601FormatStyle())
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - String(fraction).count) + String(fraction) + "Z"
    }

    /// An ISO 8601 instant, with or without fractional seconds, to the millisecond.
    static func date(_ text: String) -> Date? {
        guard let parsed = (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text)) else { return nil }
        return Date(milliseconds: parsed.milliseconds)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(wholeNumber(value)) : String(value)
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.keyNotFound(let key, let context):
            return "\(path(context.codingPath)) is missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        default: return "\(error)"
        }
    }

    static func path(_ keys: [CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().trimming(".")
    }
}
