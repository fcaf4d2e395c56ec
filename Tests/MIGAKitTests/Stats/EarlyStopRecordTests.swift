import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGAKit
@testable import MIGATestSupport

/// A program that stopped at once, kept with its session: in the store, in
/// `miga history`, in exports and sync files, and read from files that came
/// before it was kept.
@Suite struct EarlyStopRecordTests {
    let folder = TemporaryDirectory()
    var path: String { folder.path + "/data/miga/miga.sqlite" }
    let start = Date(milliseconds: 1_800_000_000_000)
    let words = "Running as root without --no-sandbox is not supported"

    var proceeded: SessionRecord {
        SessionRecord(id: "p1", program: "chromium", startedAt: start, endedAt: start + 5, outcome: .proceed, pausedSeconds: 5)
    }

    @Test func a_stop_is_kept_with_its_proceed_and_nowhere_else() throws {
        let store = try SessionStore(path: path)
        let exit = SessionRecord(id: "e1", program: "chromium", startedAt: start, endedAt: start + 5, outcome: .exit)
        try store.insertMissing([proceeded, exit])
        #expect(try store.recordEarlyStop(sessionID: "p1", EarlyStop(words: words)))
        #expect(try !store.recordEarlyStop(sessionID: "e1", EarlyStop(words: words)))
        #expect(try !store.recordEarlyStop(sessionID: "nowhere", EarlyStop(words: words)))
        let rows = try SessionStore(path: path).sessions()
        #expect(rows.first { $0.id == "p1" }?.stoppedAtOnce == words)
        #expect(rows.first { $0.id == "e1" }?.stoppedAtOnce == nil)
    }

    @Test func a_stop_the_store_could_not_take_waits_in_the_inbox_for_the_next_open() throws {
        try SessionStore(path: path).insertMissing([proceeded])
        let inbox = Inbox(besideStoreAt: path)
        try inbox.dropEarlyStop(sessionID: "p1", EarlyStop(words: words))
        // A session whose ending waits in the inbox too gets both, in that order.
        try inbox.dropEnding(InboxEnding(id: "p2", program: "chromium", startedAt: start, outcome: .proceed, endedAt: start + 5,
                                         PauseProgress(pausedSeconds: 5, deepenCount: 0, quotes: []), intention: nil, reason: nil))
        try inbox.dropEarlyStop(sessionID: "p2", EarlyStop(words: "it ended with status 1, saying nothing"))
        let rows = try SessionStore(path: path).sessions()
        #expect(rows.map(\.stoppedAtOnce) == [words, "it ended with status 1, saying nothing"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox.directory).isEmpty)
        #expect(throws: FileSystemError.self) { try inbox.dropEarlyStop(sessionID: "../elsewhere", EarlyStop(words: words)) }
    }

    @Test func a_store_from_before_keeps_its_rows_and_learns_the_column() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/data/miga", withIntermediateDirectories: true)
        let earlier = Schema.steps.count - 1
        try SerialConnection(path: path, .readWrite).withConnection { db in
            for step in Schema.steps.prefix(earlier) { try db.execute(sql: step) }
            try db.execute(sql: "PRAGMA user_version = \(earlier)")
            try db.execute(sql: "INSERT INTO sessions (id, program, started_at, ended_at, outcome) VALUES ('old', 'chromium', 1, 2, 'proceed')")
        }
        let store = try SessionStore(path: path)
        #expect(try store.sessions().map(\.stoppedAtOnce) == [nil])
        #expect(try store.recordEarlyStop(sessionID: "old", EarlyStop(words: words)))
        #expect(try store.sessions().map(\.stoppedAtOnce) == [words])
    }

    @Test func history_says_it_calmly_beside_the_proceed() {
        var record = proceeded
        record.stoppedAtOnce = words
        let line = HistoryTable.lines([record]).map(\.text).joined()
        #expect(line.hasSuffix("proceeded       5 s  · it stopped at once: “\(words)”"))
        #expect(!HistoryTable.lines([proceeded]).map(\.text).joined().contains("stopped"))
    }

    @Test(arguments: Exchange.Format.allCases)
    func an_export_carries_it_and_reads_it_back(format: Exchange.Format) throws {
        var record = proceeded
        record.stoppedAtOnce = words
        let text = Exchange.encode([record, proceeded], as: format, localDevice: "here")
        #expect(text.contains(words))
        #expect(try Exchange.decode(text, localDevice: "here", now: testNow).map(\.stoppedAtOnce) == [words, nil])
        // Nothing is said of a session without one: older readers see what they always saw.
        if format == .json { #expect(text.components(separatedBy: "stopped_at_once").count == 2) }
    }

    @Test func files_from_before_it_was_kept_still_read() throws {
        let json = """
            {"format": "miga-sessions", "version": 1, "sessions": [{"id": "old", "program": "chromium",
             "started_at": "2027-01-15T08:00:00.000Z", "ended_at": "2027-01-15T08:00:05.000Z", "outcome": "proceed",
             "paused_seconds": 5, "deepen_count": 0, "quotes": [], "device": "d"}]}
            """
        #expect(try Exchange.decode(json, localDevice: "here", now: testNow).map(\.stoppedAtOnce) == [nil])
        let header = Exchange.csvHeader.prefix(15).joined(separator: ",")
        let csv = header + "\r\nold,chromium,2027-01-15T08:00:00.000Z,2027-01-15T08:00:05.000Z,proceed,5,0,,d,,,,,,\r\n"
        #expect(try Exchange.decode(csv, localDevice: "here", now: testNow).map(\.id) == ["old"])
        let line = #"{"deepen_count":0,"device":"0f0f0f0f-0000-4000-8000-000000000001","ended_at":"2027-01-15T08:00:05.000Z","id":"x","outcome":"proceed","paused_seconds":5,"program":"chromium","quotes":[],"started_at":"2027-01-15T08:00:00.000Z"}"#
        let read = Sync.parse(line, device: "0f0f0f0f-0000-4000-8000-000000000001", localDevice: "here", now: testNow)
        #expect(read.records.map(\.stoppedAtOnce) == [nil] && read.skipped == 0)
    }

    @Test func what_another_machine_says_is_cleaned_and_belongs_to_a_proceed_only() throws {
        func imported(_ outcome: String, _ stopped: String) throws -> [SessionRecord] {
            let record: [String: Any] = ["id": "x", "program": "chromium", "started_at": "2027-01-15T08:00:00.000Z",
                                         "ended_at": "2027-01-15T08:00:05.000Z", "outcome": outcome, "paused_seconds": 5,
                                         "deepen_count": 0, "quotes": [String](), "device": "d", "stopped_at_once": stopped]
            let data = try JSONSerialization.data(withJSONObject: ["format": "miga-sessions", "version": 1, "sessions": [record]])
            return try Exchange.decode(String(decoding: data, as: UTF8.self), localDevice: "here", now: testNow)
        }
        let hostile = "\u{1B}]52;c;ZXZpbA==\u{07}bad\nline\u{9B}" + String(repeating: " long", count: 100)
        let kept = try #require(try imported("proceed", hostile).first?.stoppedAtOnce)
        #expect(kept.hasPrefix("]52;c;ZXZpbA==badline long"))
        #expect(kept.count <= EarlyStop.longestWords)
        #expect(kept.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
        #expect(throws: MigaError.self) { try imported("exit", "it stopped") }
        #expect(try imported("proceed", "   ").first?.stoppedAtOnce == nil)
    }
}
