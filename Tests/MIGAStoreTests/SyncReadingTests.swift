import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGATestSupport

/// How `miga sync` reads another machine's file: on from where the last
/// sync stopped (kept in the store), again from the top only when the file
/// was rewritten or shortened, and whatever it could not read, named.
@Suite struct SyncReadingTests {
    let folder = TemporaryDirectory()
    var shared: String { folder.path + "/Sync" }
    let other = "5ca1ab1e-0000-4000-8000-00000000000b"
    var peerFile: String { shared + "/miga-\(other).jsonl" }
    /// A day after the sessions below.
    let now = Date(timeIntervalSince1970: 1_800_086_400)

    init() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/Sync", withIntermediateDirectories: true)
    }

    func store() throws -> SessionStore { try SessionStore(path: folder.path + "/here/miga.sqlite") }

    /// A session of the other machine's, as its file holds it, begun `at` (2027-01-15T08:00:00Z and on).
    func line(_ id: String, at started: String = "2027-01-15T08:00:00.000Z", ended: String = "2027-01-15T08:01:00.000Z") -> String {
        "{\"deepen_count\":0,\"device\":\"\(other)\",\"ended_at\":\"\(ended)\",\"id\":\"\(id)\",\"outcome\":\"proceed\","
            + "\"paused_seconds\":60,\"program\":\"steam\",\"quotes\":[],\"started_at\":\"\(started)\"}\n"
    }

    func append(_ text: String, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    func size(of path: String) throws -> Int64 {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64)
    }

    func sync(_ store: SessionStore, at now: Date? = nil, limits: Sync.Limits = Sync.Limits()) throws -> (Sync.Report, Sync.PeerFile) {
        let report = try Sync.run(store: store, folder: shared, now: now ?? self.now, limits: limits)
        return (report, try #require(report.files.first { $0.name == "miga-\(other).jsonl" }))
    }

    /// A file of 50 MB whose sessions were all taken in: the next sync reads
    /// not a byte of it, and the one after an append reads the append alone.
    @Test func an_unchanged_peer_file_is_not_read_again_and_an_appended_one_only_from_where_it_was() throws {
        let junk = String(repeating: "x", count: 1023) + "\n"
        let text = line("first") + String(repeating: junk, count: 50 * 1024) + line("last")
        try text.write(toFile: peerFile, atomically: true, encoding: .utf8)
        let store = try store()
        let (first, file) = try sync(store)
        #expect(file.bytesRead == Int64(text.utf8.count) && first.merged == 2 && file.setAside == 50 * 1024)
        #expect(try store.syncPosition(of: peerFile)?.offset == Int64(text.utf8.count))

        let (again, unchanged) = try sync(store)
        #expect(unchanged.bytesRead == 0 && again.merged == 0 && unchanged.setAside == 0)
        #expect(again.lines.count == 1, "lines set aside are said once: \(again.lines)")

        try append(line("appended"), to: peerFile)
        let (after, appended) = try sync(store)
        #expect(appended.bytesRead == Int64(line("appended").utf8.count) && after.merged == 1)
        #expect(try store.syncPosition(of: peerFile)?.offset == size(of: peerFile))
    }

    /// Syncthing writes each change to a new file and renames it into
    /// place: a new inode, the same bytes, more of them. It is read on.
    @Test func a_peer_file_the_sync_tool_replaced_with_a_longer_copy_is_read_on_from_where_it_was() throws {
        try (line("a") + line("b")).write(toFile: peerFile, atomically: true, encoding: .utf8)
        let store = try store()
        _ = try sync(store)
        try (line("a") + line("b") + line("c")).write(toFile: peerFile, atomically: true, encoding: .utf8)
        let (report, file) = try sync(store)
        #expect(file.bytesRead == Int64(line("c").utf8.count) && report.merged == 1)
    }

    @Test func a_peer_file_shortened_or_rewritten_is_read_again_from_the_top() throws {
        try (line("a") + line("b") + line("c")).write(toFile: peerFile, atomically: true, encoding: .utf8)
        let store = try store()
        _ = try sync(store)
        // Shorter: its machine began it afresh.
        try line("d").write(toFile: peerFile, atomically: true, encoding: .utf8)
        let (shorter, shortened) = try sync(store)
        #expect(shortened.bytesRead == Int64(line("d").utf8.count) && shorter.merged == 1)
        // As long, and more, with other bytes where the last read stopped.
        try (line("e") + line("f")).write(toFile: peerFile, atomically: true, encoding: .utf8)
        let (rewritten, file) = try sync(store)
        #expect(file.bytesRead == Int64((line("e") + line("f")).utf8.count) && rewritten.merged == 2)
    }

    /// A machine whose clock runs ahead: its session waits in the file (not
    /// set aside, said once), and is added once this clock has caught up.
    @Test func a_session_dated_ahead_of_this_clock_waits_and_is_added_when_its_time_comes() throws {
        let ahead = line("ahead", at: "2027-01-17T08:00:00.000Z", ended: "2027-01-17T08:01:00.000Z")
        try (ahead + line("now")).write(toFile: peerFile, atomically: true, encoding: .utf8)
        let store = try store()
        let (first, file) = try sync(store)
        #expect(first.merged == 1 && file.early == 1 && file.setAside == 0)
        #expect(first.lines.contains { $0.contains("1 session dated ahead of this clock") }, "\(first.lines)")
        let (again, waiting) = try sync(store)
        #expect(again.merged == 0 && waiting.early == 0 && again.lines.count == 1)
        let (later, _) = try sync(store, at: now + 3 * 86_400)
        #expect(later.merged == 1)
        #expect(try store.syncPosition(of: peerFile)?.early == [])
    }

    @Test func a_line_still_arriving_waits_for_its_end() throws {
        let whole = line("arriving")
        try (line("a") + whole.prefix(40)).write(toFile: peerFile, atomically: true, encoding: .utf8)
        let store = try store()
        let (first, file) = try sync(store)
        #expect(first.merged == 1 && file.setAside == 0)
        try append(String(whole.dropFirst(40)), to: peerFile)
        let (rest, _) = try sync(store)
        #expect(rest.merged == 1)
    }

    /// More new than one sync reads: as much as it reads, the file named
    /// with what is left, and the rest read by the syncs after it.
    @Test func more_new_than_one_sync_reads_is_read_over_several_syncs_and_said() throws {
        let text = (0..<10).map { line("s\($0)") }.joined()
        try text.write(toFile: peerFile, atomically: true, encoding: .utf8)
        let store = try store()
        let limits = Sync.Limits(perSync: 1000)
        let (first, file) = try sync(store, limits: limits)
        #expect(file.bytesRead == 1000 && first.merged == 1000 / line("s0").utf8.count)
        let said = try #require(first.lines.first { $0.hasPrefix("miga-\(other).jsonl holds more") })
        #expect(said.hasSuffix("new; the rest at the next sync."), "\(said)")
        #expect(try store.syncPositions().first?.position.unread?.contains("more that is new than one sync reads") == true)
        var merged = first.merged
        for _ in 0..<10 { merged += try sync(store, limits: limits).0.merged }
        #expect(merged == 10)
        #expect(try store.syncPositions().first?.position.unread == nil)
    }

    /// A folder (or a pipe) where a machine's file should be: named, with
    /// why, and the other files read all the same.
    @Test func a_peer_file_that_cannot_be_read_is_named_and_the_others_are_read() throws {
        try FileManager.default.createDirectory(atPath: peerFile, withIntermediateDirectories: true)
        let third = "5ca1ab1e-0000-4000-8000-00000000000c"
        try line("theirs").replacingOccurrences(of: other, with: third)
            .write(toFile: shared + "/miga-\(third).jsonl", atomically: true, encoding: .utf8)
        let store = try store()
        let (report, file) = try sync(store)
        #expect(report.merged == 1 && report.devices == 2)
        #expect(file.unread == "is not a regular file (a folder, a pipe or a device); MIGA reads only files")
        #expect(report.lines.contains("miga-\(other).jsonl is not a regular file (a folder, a pipe or a device); MIGA reads only files."))
        #expect(try store.syncPositions().filter { $0.position.unread != nil }.map(\.file) == [peerFile])
        // Mended: read, and no longer named.
        try FileManager.default.removeItem(atPath: peerFile)
        try line("mended").write(toFile: peerFile, atomically: true, encoding: .utf8)
        let (mended, _) = try sync(store)
        #expect(mended.merged == 1 && mended.lines.count == 1)
        #expect(try store.syncPositions().allSatisfy { $0.position.unread == nil })
    }

    @Test func a_line_too_long_to_be_a_session_is_set_aside_unread() throws {
        try (String(repeating: "{", count: 5000) + "\n" + line("after")).write(toFile: peerFile, atomically: true, encoding: .utf8)
        let (report, file) = try sync(try store(), limits: Sync.Limits(longestLine: 1000))
        #expect(file.setAside == 1 && report.merged == 1)
    }

    /// What the sync remembers of a file that is gone (its machine left the
    /// folder) goes with it.
    @Test func a_peer_file_gone_is_forgotten() throws {
        try line("a").write(toFile: peerFile, atomically: true, encoding: .utf8)
        let store = try store()
        _ = try sync(store)
        #expect(try store.syncPositions().count == 1)
        try FileManager.default.removeItem(atPath: peerFile)
        _ = try Sync.run(store: store, folder: shared, now: now)
        #expect(try store.syncPositions().isEmpty)
    }
}
