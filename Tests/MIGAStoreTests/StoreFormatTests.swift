import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGATestSupport

/// The store's format on disk never changes under a person's history: a
/// store written by an earlier miga (through GRDB, `Fixtures/every-write.sqlite`,
/// made by `EveryWrite`) holds, value for value and type for type, what
/// the same writes leave in a new store now, and reads back the same.
@Suite struct StoreFormatTests {
    let folder = TemporaryDirectory()
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/every-write.sqlite"

    /// The fixture, copied where a store may be opened (opening writes).
    func copyOfFixture() throws -> String {
        let copy = folder.path + "/before/miga.sqlite"
        try FileManager.default.createDirectory(atPath: folder.path + "/before", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: copy)
        return copy
    }

    @Test func the_same_writes_store_the_same_values_with_the_same_types() throws {
        let path = folder.path + "/now/miga.sqlite"
        try EveryWrite.write(storeAt: path)
        let written = try Self.contents(of: path)
        let before = try Self.contents(of: Self.fixture)
        #expect(written.count == before.count)
        for (now, then) in zip(written, before) { #expect(now == then) }
    }

    @Test func a_store_written_before_reads_the_same() throws {
        let store = try SessionStore(path: try copyOfFixture())
        let sessions = try store.sessions()
        #expect(sessions.map(\.id) == ["killed", "exited", "proceeded", "allowed", "gave-way", "outside", "bare", "ended-late",
                                       "proceeded-late", "synced", "imported", "old-pass"])
        let start = EveryWrite.start
        let exited = try #require(sessions.first { $0.id == "exited" })
        #expect(exited.program == "firefox" && exited.outcome == .exit && exited.pausedSeconds == 12.5 && exited.deepenCount == 1)
        #expect(exited.startedAt.milliseconds == (start + 10).milliseconds && exited.endedAt?.milliseconds == (start + 22.5).milliseconds)
        #expect(exited.quotes == ["zen-002", "zen-003"] && exited.kind == .type && exited.typed == true && exited.alternative == "a walk")
        let proceeded = try #require(sessions.first { $0.id == "proceeded" })
        #expect(proceeded.intention == "one match — ünïcode ✓ 'quoted'" && proceeded.typed == nil)
        #expect(proceeded.stoppedAtOnce == "exited with status 1" && proceeded.pausedSeconds == 31.001)
        let killed = try #require(sessions.first { $0.id == "killed" })
        #expect(killed.outcome == .abandoned && killed.endedAt?.milliseconds == start.milliseconds + 3250)
        let imported = try #require(sessions.first { $0.id == "imported" })
        #expect(imported.origin == "5f2e-origin" && imported.device == "0b7e5a0c-1f2d-4c3b-9a8e-7d6c5b4a3f21" && imported.typed == false)
        #expect(sessions.first { $0.id == "synced" }?.intention == "before")
        #expect(sessions.first { $0.id == "outside" }?.reason == .outsideHours)
        #expect(try store.changes().map(\.action) == [.unprotect, .uninstall])
        #expect(try store.declinedKinds(program: "steam") == [.type])
        #expect(try store.learningReset(program: "firefox")?.milliseconds == (start + 700).milliseconds)
        #expect(try store.leaks(since: start).map(\.route) == [.login("/usr/bin/firefox --new"), .unknown])
        #expect(try store.meta("look_back") == "7")
        // A store of this miga reads as the earlier one did.
        let path = folder.path + "/now/miga.sqlite"
        try EveryWrite.write(storeAt: path)
        #expect(try SessionStore(path: path).sessions() == sessions)
    }

    /// Every table's rows, each value as its SQLite type and its bytes (a
    /// text whole, even past a NUL), in a fixed order; the ids that are made
    /// new each time are only said to be there.
    static func contents(of path: String) throws -> [[SQLiteValue]] {
        // As a look reads it: nothing written beside the fixture, and a store's log read too.
        try SerialConnection.looking(at: path).read { connection in try contents(of: path, through: connection) }
    }

    private static func contents(of path: String, through connection: Connection) throws -> [[SQLiteValue]] {
        var contents: [[SQLiteValue]] = []
        contents.append(try Row.fetchAll(connection, sql: "SELECT type, name, sql FROM sqlite_master ORDER BY name").flatMap(\.values))
        // The file's header: its write-ahead log (bytes 18 and 19), its version of the tables.
        let header = try #require(FileManager.default.contents(atPath: path)).prefix(100)
        contents.append([.blob(Array(header[18...19])), .integer(try Int64.fetchOne(connection, sql: "PRAGMA user_version") ?? -1)])
        for (table, order) in [("sessions", "id"), ("changes", "at"), ("leaks", "process"), ("meta", "key")] {
            let columns = try String.fetchAll(connection, sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
            let values = columns.map { "typeof(\($0)), hex(\($0))" }.joined(separator: ", ")
            for row in try Row.fetchAll(connection, sql: "SELECT \(values) FROM \(table) ORDER BY \(order)") {
                contents.append(madeNew(row.values, in: table, columns: columns))
            }
        }
        return contents
    }

    /// `values` with the ids made new each time (the device's, those of the
    /// learner's changes) put as "(a new id)".
    private static func madeNew(_ values: [SQLiteValue], in table: String, columns: [String]) -> [SQLiteValue] {
        func text(_ column: String) -> String {
            guard let index = columns.firstIndex(of: column), case .text(let hex) = values[2 * index + 1] else { return "" }
            return String(decoding: stride(from: 0, to: hex.count, by: 2).compactMap { offset in
                UInt8(hex.dropFirst(offset).prefix(2), radix: 16)
            }, as: UTF8.self)
        }
        let made = (table == "changes" && ["reset-learning", "decline-kind"].contains(text("action")))
            || (table == "meta" && text("key") == "device_id")
        guard made else { return values }
        let column = table == "changes" ? 0 : 1
        var values = values
        values[2 * column + 1] = .text("(a new id)")
        return values
    }
}
