import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGATestSupport

/// The history as a run that only looks opens it: the figures a store opened
/// to write would give, and not a byte written.
@Suite struct ReadingStoreTests {
    let folder = TemporaryDirectory()
    var path: String { folder.path + "/miga/miga.sqlite" }
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Every file under the folder, with its bytes.
    func files() -> [String: Data] {
        var files: [String: Data] = [:]
        for name in FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [] {
            files[name] = FileManager.default.contents(atPath: folder.path + "/" + name) ?? Data("(folder)".utf8)
        }
        return files
    }

    @Test func a_pause_whose_gateway_is_gone_and_a_pass_through_waiting_are_counted_and_nothing_is_written() throws {
        do {
            let store = try SessionStore(path: path)
            var generator = SeededGenerator(seed: 1)
            let dead = ProcessIdentity(bootID: ProcessIdentity.current().bootID, pid: 999_999_999, startTicks: 1)
            _ = try store.openSession(id: "killed", program: "firefox", startedAt: start, owner: dead, pool: ["a"], using: &generator)
            try store.inbox.dropPassThrough(id: "passed", program: "firefox", at: start + 60)
        }
        let before = files()
        // The log is kept beside the store (see SessionStore.keepLogShort), its index too: neither is written by a look.
        #expect(before.keys.contains("miga/inbox") && before.keys.contains("miga/miga.sqlite-wal"), "\(before.keys.sorted())")
        do {
            let reading = try SessionStore.reading(path: path)
            let outcomes = Dictionary(uniqueKeysWithValues: try reading.sessions().map { ($0.id, $0.outcome) })
            #expect(outcomes == ["killed": .abandoned, "passed": .passthrough])
            // This machine named for the look alone, the same each time it is asked, and kept nowhere.
            #expect(try reading.deviceID() == reading.deviceID())
            #expect(try reading.meta("device_id") == nil)
        }
        #expect(files() == before)
    }

    @Test func tables_of_an_older_miga_are_read_through_a_copy_brought_up_to_date() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/miga", withIntermediateDirectories: true)
        do {
            let old = try SerialConnection(path: path, .readWrite)
            try old.withConnection { db in
                for step in Schema.steps.prefix(4) { try db.execute(sql: step) }
                try db.execute(sql: "PRAGMA user_version = 4")
                try db.execute(sql: "INSERT INTO sessions (id, program, started_at, ended_at, outcome) VALUES ('old', 'firefox', 1, 2, 'exit')")
            }
        }
        let before = files()
        do {
            let reading = try SessionStore.reading(path: path)
            #expect(try reading.sessions().map(\.id) == ["old"])
            #expect(try reading.leaks(since: start).isEmpty)
        }
        #expect(files() == before)
    }

    @Test func no_history_reads_as_an_empty_one_and_none_is_made() throws {
        let reading = try SessionStore.reading(path: path)
        #expect(try reading.sessions().isEmpty)
        #expect(files().isEmpty)
    }
}
