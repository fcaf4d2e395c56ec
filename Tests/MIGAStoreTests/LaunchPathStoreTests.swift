import CSQLite
import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGATestSupport

/// The store on the way to a pause's first frame: how long it waits for
/// another process's lock, what it does when it cannot be trusted, and the
/// log it leaves for the next launch to write to. On real files, with the
/// lock held by another process (the sqlite3 shell).
@Suite struct LaunchPathStoreTests {
    let folder = TemporaryDirectory()
    var path: String { folder.path + "/miga/miga.sqlite" }
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func begin(_ store: SessionStore, _ id: String) throws {
        var generator = SeededGenerator(seed: 1)
        _ = try store.beginLaunch(GateFacts(now: start, front: .here), id: id, program: "firefox", owner: .current(),
                                  pool: ["a", "b"], dayStart: start, using: &generator)
    }

    // MARK: Waiting for a lock

    /// Another process's write that lasts seconds (an import, a sync): the
    /// gateway gives up long before it ends (its pause goes to the inbox),
    /// and a command waits its turn.
    @Test func a_gateway_does_not_wait_out_another_process_s_write_and_a_command_does() throws {
        _ = try SessionStore(path: path)
        let holder = try WriteLockHolder(storeAt: path, seconds: 5)
        try holder.waitUntilHeld()
        let gateway = try SessionStore(path: path, role: .gateway)
        let error = try #require(throws: SQLiteError.self) { try begin(gateway, "launch") }
        #expect(error.code == SQLITE_BUSY)
        #expect(holder.isHolding, "the gateway waited until the other process let go")
        let command = try SessionStore(path: path, role: .command)
        try command.setMeta("waited", "its turn")
        #expect(try command.meta("waited") == "its turn")
    }

    /// Opening folds the inbox in, a chore that can wait: a gateway that
    /// finds the store being written opens it without folding, and the next
    /// process that opens it folds.
    @Test func a_gateway_opening_the_store_while_another_process_writes_leaves_the_inbox_for_later() throws {
        _ = try SessionStore(path: path)
        try Inbox(besideStoreAt: path).dropPassThrough(id: "passed", program: "firefox", at: start)
        let holder = try WriteLockHolder(storeAt: path, seconds: 5)
        try holder.waitUntilHeld()
        let gateway = try SessionStore(path: path, role: .gateway)
        #expect(holder.isHolding, "the gateway waited to fold the inbox")
        #expect(try gateway.sessions().isEmpty)
        holder.waitUntilDone()
        #expect(try SessionStore(path: path).sessions().map(\.id) == ["passed"])
    }

    /// The wait is the launch's, not each write's: a gateway that found the
    /// store busy waits for it no more. Folding the inbox as it opens waits
    /// for nothing, and once its first write gave up, each later one (a
    /// deepen, the ending) is tried once and left to the inbox: thirty of
    /// them come and go while the other process still writes.
    @Test func a_gateway_that_found_the_store_busy_waits_for_it_no_more() throws {
        _ = try SessionStore(path: path)
        try Inbox(besideStoreAt: path).dropPassThrough(id: "passed", program: "firefox", at: start)
        let holder = try WriteLockHolder(storeAt: path, seconds: 5)
        try holder.waitUntilHeld()
        let gateway = try SessionStore(path: path, role: .gateway)
        #expect(throws: SQLiteError.self) { try begin(gateway, "launch") }
        for _ in 0..<30 {
            #expect(throws: SQLiteError.self) { try gateway.setMeta("progress", "later") }
        }
        #expect(holder.isHolding, "a later write waited for the other process again")
    }

    // MARK: Bounded and honest

    /// SQLite keeps the journal mode it cannot change and says so without an
    /// error (a database in memory answers "memory"): asking again would
    /// never end. An exit test, for the loop that never ended took the
    /// process with it (the alarm ends it).
    @Test func a_store_that_cannot_keep_a_write_ahead_log_is_refused_saying_why() async {
        await #expect(processExitsWith: .success) {
            alarm(20)
            let memory = try SerialConnection(path: "", .memory)
            do {
                try Schema.migrate(memory)
                exit(1)
            } catch let error as StoreError {
                precondition("\(error)".contains("\"memory\""), "\(error)")
            }
        }
    }

    /// A store read as immutable (no log beside it: no one was writing) that
    /// another process then rewrites: what the stale pages say is no damage
    /// of the file's. It is read again, read only, and found sound.
    @Test func an_immutable_read_that_meets_another_process_s_rewrite_is_read_again_before_it_is_called_damaged() throws {
        do {
            let store = try SessionStore(path: path)
            try store.insertMissing((0..<2000).map { index in
                SessionRecord(id: "before-\(index)", program: "firefox", startedAt: start, endedAt: start, outcome: .exit,
                              intention: String(repeating: "x", count: 200))
            })
        }
        // The last connection's checkpoint takes the log away, as SQLite's own close does.
        _ = try Connection(path: path, .readWrite)
        #expect(access(path + "-wal", F_OK) != 0)
        let reading = try SessionStore.reading(path: path)
        #expect(try reading.sessions().count == 2000)
        do {
            let writer = try Connection(path: path, .readWrite)
            try writer.execute(sql: """
                DELETE FROM sessions;
                VACUUM;
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
                INSERT INTO sessions (id, program, started_at, ended_at, outcome, intention)
                SELECT 'after-' || i, 'steam', 0, 0, 'exit', printf('%.*c', 300, 'y') FROM n;
                """)
        }
        #expect(try reading.integrityCheck() == "ok")
        #expect(try reading.sessions().count == 3000, "the stale pages were read as the store")
    }

    // MARK: No sync before the first frame

    /// The first 32 bytes of the store's write-ahead log (its salts change
    /// whenever the log is begun afresh, and a new log's header is synced
    /// to disk), or nil when there is none.
    func logHeader() -> [UInt8]? {
        FileManager.default.contents(atPath: path + "-wal").map { Array($0.prefix(32)) }
    }

    /// Each launch used to find no log (the last connection's checkpoint took
    /// it away) and make one, syncing it and its folder before the frame. A
    /// store that closes keeps its log, and the next launch's write goes on
    /// at its end: no new file, no new header to sync.
    @Test func a_launch_writes_on_at_the_end_of_the_log_the_last_store_kept() throws {
        do { _ = try SessionStore(path: path).deviceID() }
        let kept = try #require(logHeader(), "the log was taken away as the store closed")
        let gateway = try SessionStore(path: path, role: .gateway)
        try begin(gateway, "launch")
        #expect(logHeader() == kept, "the log was begun afresh")
        // Nothing written is lost with the log kept: a new connection reads it all.
        #expect(try SessionStore(path: path).sessions().map(\.id) == ["launch"])
    }

    /// A long log is checkpointed as a store closes (after the frame, for a
    /// gateway), and begun afresh there with one small write, so that the
    /// next launch still finds a log to write on in.
    @Test func a_store_that_closes_with_a_long_log_checkpoints_it_and_begins_the_next_one() throws {
        do {
            let store = try SessionStore(path: path)
            try store.insertMissing((0..<3000).map { index in
                SessionRecord(id: "s\(index)", program: "firefox", startedAt: start, endedAt: start, outcome: .exit)
            })
            #expect(try #require(FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) > SessionStore.longLog)
        }
        let size = try #require(FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
        #expect(size < SessionStore.longLog)
        // The file itself holds the sessions now: read without the log, they are there.
        #expect(try Int.fetchOne(Connection(path: path, .immutable), sql: "SELECT COUNT(*) FROM sessions") == 3000)
    }
}
