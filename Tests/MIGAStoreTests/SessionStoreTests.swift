import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGATestSupport

@Suite struct SessionStoreTests {
    let folder = TemporaryDirectory()
    var path: String { folder.path + "/data/miga/miga.sqlite" }
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func open(_ store: SessionStore, _ id: String, owner: ProcessIdentity = .current()) throws -> String? {
        var generator = SeededGenerator(seed: 1)
        return try store.openSession(id: id, program: "firefox", startedAt: start, owner: owner,
                                     pool: ["a", "b", "c"], using: &generator)
    }

    @Test func an_ending_in_the_inbox_completes_its_row_or_becomes_the_whole_session() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/miga.sqlite"
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let store = try SessionStore(path: path)
        try store.insertMissing([SessionRecord(id: "begun", program: "firefox", startedAt: start, outcome: .abandoned)])
        let inbox = Inbox(besideStoreAt: path)
        let progress = PauseProgress(pausedSeconds: 42, deepenCount: 1, quotes: ["zen-001", "zen-002"])
        try inbox.dropEnding(InboxEnding(id: "begun", program: "firefox", startedAt: start, outcome: .exit,
                                         endedAt: start + 42, progress, intention: nil, reason: nil))
        try inbox.dropEnding(InboxEnding(id: "never-begun", program: "steam", startedAt: start, outcome: .proceed,
                                         endedAt: start + 30, PauseProgress(pausedSeconds: 30, deepenCount: 0, quotes: []),
                                         intention: "one match", reason: nil))
        let rows = try SessionStore(path: path).sessions()
        #expect(rows.map(\.id).sorted() == ["begun", "never-begun"])
        let begun = try #require(rows.first { $0.id == "begun" })
        #expect(begun.outcome == .exit && begun.pausedSeconds == 42 && begun.quotes == ["zen-001", "zen-002"])
        let whole = try #require(rows.first { $0.id == "never-begun" })
        #expect(whole.program == "steam" && whole.outcome == .proceed && whole.startedAt == start && whole.intention == "one match")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/inbox").isEmpty)
        // A finished row is never overwritten by a late ending.
        try inbox.dropEnding(InboxEnding(id: "begun", program: "firefox", startedAt: start, outcome: .abandoned,
                                         endedAt: start + 1, progress, intention: nil, reason: nil))
        #expect(try SessionStore(path: path).sessions().first { $0.id == "begun" }?.outcome == .exit)
    }

    @Test func folders_are_private_and_the_file_is_0600_in_wal_mode() throws {
        _ = try SessionStore(path: path)
        var info = stat()
        stat(folder.path + "/data/miga", &info)
        #expect(info.st_mode & 0o777 == 0o700)
        stat(folder.path + "/data", &info)
        #expect(info.st_mode & 0o777 == 0o700)
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o600)
        let mode = try String(contentsOfFile: path, encoding: .isoLatin1).prefix(16)
        #expect(mode == "SQLite format 3\u{0}")
        let journalMode = try SerialConnection(path: path, .readWrite).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(journalMode == "wal")
    }

    @Test func a_row_is_written_when_the_pause_opens_and_completed_when_it_ends() throws {
        let store = try SessionStore(path: path)
        let quote = try open(store, "s1")
        #expect(["a", "b", "c"].contains(quote))
        var rows = try store.sessions()
        #expect(rows.map(\.outcome) == [.open])
        #expect(rows[0].startedAt == start)
        #expect(rows[0].quotes == [quote!])
        try store.recordProgress(sessionID: "s1", PauseProgress(pausedSeconds: 10, deepenCount: 1, quotes: [quote!, "b"]))
        #expect(try store.sessions()[0].deepenCount == 1)
        try store.completeSession(sessionID: "s1", outcome: .exit, endedAt: start + 42,
                                  PauseProgress(pausedSeconds: 42, deepenCount: 1, quotes: [quote!, "b"]))
        rows = try store.sessions()
        #expect(rows == [SessionRecord(id: "s1", program: "firefox", startedAt: start, endedAt: start + 42, outcome: .exit,
                                       pausedSeconds: 42, deepenCount: 1, quotes: [quote!, "b"], kind: .breathe)])
        #expect(try store.totals(SessionStore.Scope()).exits == 1)
    }

    @Test func open_rows_of_dead_gateways_are_settled_but_live_ones_are_not() throws {
        let store = try SessionStore(path: path)
        let dead = ProcessIdentity(bootID: ProcessIdentity.current().bootID, pid: 999_999_999, startTicks: 1)
        let reused = ProcessIdentity(bootID: ProcessIdentity.current().bootID, pid: getpid(), startTicks: 1)
        let otherBoot = ProcessIdentity(bootID: "another-boot", pid: getpid(), startTicks: ProcessIdentity.current().startTicks)
        _ = try open(store, "dead", owner: dead)
        _ = try open(store, "reused", owner: reused)
        _ = try open(store, "rebooted", owner: otherBoot)
        _ = try open(store, "alive")
        let outcomes = Dictionary(uniqueKeysWithValues: try store.sessions().map { ($0.id, $0.outcome) })
        // Each open settles the rows before it; only the live gateway stays open.
        #expect(outcomes == ["dead": .abandoned, "reused": .abandoned, "rebooted": .abandoned, "alive": .open])
        #expect(try store.immediate { try SessionStore.settleAbandoned($0) } == 0)
    }

    @Test func pass_throughs_wait_in_the_inbox_and_are_folded_in_once() throws {
        let inbox = Inbox(besideStoreAt: path)
        try inbox.dropPassThrough(id: "p1", program: "steam", at: start)
        try inbox.dropPassThrough(id: "p2", program: "discord", at: start + 1)
        let rows = try SessionStore(path: path).sessions()
        #expect(rows.map(\.id) == ["p1", "p2"])
        #expect(rows.allSatisfy { $0.outcome == .passthrough && $0.endedAt == $0.startedAt })
        #expect(rows[1].program == "discord")
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox.directory).isEmpty)
        // A fold cut short before its files were removed is folded again without doubling.
        try inbox.dropPassThrough(id: "p1", program: "steam", at: start)
        #expect(try SessionStore(path: path).sessions().count == 2)
    }

    @Test func half_written_and_foreign_files_in_the_inbox_are_left_alone() throws {
        let inbox = Inbox(besideStoreAt: path)
        try inbox.dropPassThrough(id: "ok", program: "steam", at: start)
        try "passthrough\thalf".write(toFile: inbox.directory + "/.half.tmp", atomically: false, encoding: .utf8)
        try "not an event".write(toFile: inbox.directory + "/notes.event", atomically: false, encoding: .utf8)
        #expect(try SessionStore(path: path).sessions().map(\.id) == ["ok"])
        #expect(FileManager.default.fileExists(atPath: inbox.directory + "/.half.tmp"))
        #expect(FileManager.default.fileExists(atPath: inbox.directory + "/notes.event"))
    }

    @Test func pass_throughs_racing_with_folds_are_all_kept_once() throws {
        let inbox = Inbox(besideStoreAt: path)
        let location = path
        let failures = MessageBox()
        let start = self.start
        DispatchQueue.concurrentPerform(iterations: 60) { index in
            do {
                if index.isMultiple(of: 3) {
                    _ = try SessionStore(path: location) // folds whatever has arrived so far
                } else {
                    try inbox.dropPassThrough(id: "p\(index)", program: "p", at: start)
                }
            } catch {
                failures.append("\(index): \(error)")
            }
        }
        #expect(failures.lines.isEmpty, "\(failures.lines)")
        let rows = try SessionStore(path: path).sessions()
        #expect(rows.count == 40)
        #expect(Set(rows.map(\.id)).count == 40)
    }

    @Test func the_quote_bag_survives_reopening_the_store() throws {
        var seen: [String] = []
        for _ in 0..<3 {
            let store = try SessionStore(path: path)
            var generator = SeededGenerator.fresh()
            seen.append(try #require(try store.drawQuote(from: ["a", "b", "c"], using: &generator)))
        }
        #expect(Set(seen) == ["a", "b", "c"])
    }

    @Test func many_gateways_writing_at_once_lose_nothing() throws {
        let count = 40
        let failures = MessageBox()
        let location = path
        let start = self.start
        DispatchQueue.concurrentPerform(iterations: count) { index in
            do {
                // Each its own connection, as separate gateway processes would be,
                // racing from the very first open of a new file.
                let store = try SessionStore(path: location)
                var generator = SeededGenerator(seed: UInt64(index))
                let id = "s\(index)"
                _ = try store.openSession(id: id, program: "p", startedAt: start, owner: .current(),
                                          pool: ["a", "b"], using: &generator)
                try store.completeSession(sessionID: id, outcome: index.isMultiple(of: 2) ? .exit : .proceed,
                                          endedAt: start, PauseProgress(pausedSeconds: 1, deepenCount: 0, quotes: ["a"]))
            } catch {
                failures.append("\(index): \(error)")
            }
        }
        #expect(failures.lines.isEmpty, "\(failures.lines)")
        let rows = try SessionStore(path: path).sessions()
        #expect(rows.count == count)
        #expect(rows.filter { $0.outcome == .exit }.count == count / 2)
        #expect(!rows.contains { $0.outcome == .open })
    }

    @Test func a_store_from_a_newer_miga_is_refused_without_harm() throws {
        _ = try SessionStore(path: path)
        try SerialConnection(path: path, .readWrite).withConnection { db in try db.execute(sql: "PRAGMA user_version = 99") }
        #expect(throws: StoreError.self) { try SessionStore(path: path) }
    }
}
