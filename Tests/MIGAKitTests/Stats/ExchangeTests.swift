import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGATestSupport

@Suite struct ExchangeTests {
    let start = Date(milliseconds: 1_800_000_000_123) // the store keeps whole milliseconds
    var sessions: [SessionRecord] {
        [SessionRecord(id: "a1", program: "firefox", startedAt: start, endedAt: Date(milliseconds: 1_800_000_042_623), outcome: .exit, pausedSeconds: 42.5,
                       deepenCount: 2, quotes: ["zen-001", "poetry-004"]),
         SessionRecord(id: "a2", program: "odd, \"named\" app", startedAt: Date(milliseconds: 1_800_000_100_123), endedAt: nil, outcome: .abandoned),
         SessionRecord(id: "a3", program: "steam", startedAt: Date(milliseconds: 1_800_000_200_001), endedAt: Date(milliseconds: 1_800_000_200_001),
                       outcome: .passthrough, device: "laptop-1")]
    }

    @Test(arguments: Exchange.Format.allCases)
    func an_export_reads_back_the_same(format: Exchange.Format) throws {
        let text = Exchange.encode(sessions, as: format, localDevice: "this-machine")
        var expected = sessions
        // Counted by its end: an abandoned pause without one ended when it was last seen.
        expected[1].endedAt = expected[1].startedAt
        // What happened on laptop-1 is this machine's to publish now, and keeps where it happened.
        (expected[2].device, expected[2].origin) = ("", "laptop-1")
        // So does what the file says happened here: an export is a file anyone can write.
        (expected[0].origin, expected[1].origin) = ("this-machine", "this-machine")
        #expect(try Exchange.decode(text, localDevice: "this-machine", now: testNow) == expected)
        // On another machine, this one's sessions are that machine's to publish, and happened here.
        let elsewhere = try #require(try Exchange.decode(text, localDevice: "elsewhere", now: testNow).first)
        #expect(elsewhere.device == "" && elsewhere.origin == "this-machine" && elsewhere.happenedOn == "this-machine")
    }

    @Test func a_malformed_file_is_refused_naming_the_first_bad_record() {
        var json = Exchange.encode(sessions, as: .json, localDevice: "d")
        json = json.replacingOccurrences(of: "\"passthrough\"", with: "\"skipped\"")
        #expect(throws: MigaError(dataError: "session 3: the outcome must be exit, proceed, abandoned or passthrough, not \"skipped\"")) {
            try Exchange.decode(json, localDevice: "d", now: testNow)
        }
        var csv = Exchange.encode(sessions, as: .csv, localDevice: "d")
        csv = csv.replacingOccurrences(of: "42.5,2", with: "lots,2")
        #expect(throws: MigaError.self) { try Exchange.decode(csv, localDevice: "d", now: testNow) }
        do {
            _ = try Exchange.decode(csv, localDevice: "d", now: testNow)
        } catch {
            #expect(error.message.hasPrefix("line 2:"))
        }
        #expect(throws: MigaError.self) { try Exchange.decode("{ not json", localDevice: "d", now: testNow) }
        #expect(throws: MigaError.self) { try Exchange.decode("id,program\n1,2\n", localDevice: "d", now: testNow) }
    }

    @Test func importing_twice_adds_nothing_the_second_time_and_a_bad_file_adds_nothing_at_all() throws {
        let folder = TemporaryDirectory()
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        #expect(try store.insertMissing(sessions) == 3)
        #expect(try store.insertMissing(sessions) == 0)
        let more = sessions.map { record -> SessionRecord in
            var copy = record
            copy.id += "-new"
            return copy
        }
        var text = Exchange.encode(more, as: .json, localDevice: "d")
        text = text.replacingOccurrences(of: "\"a3-new\"", with: "\"a 3\"") // the last record is malformed
        #expect(throws: MigaError.self) { try store.insertMissing(try Exchange.decode(text, localDevice: "d", now: testNow)) }
        #expect(try store.sessions().count == 3)
    }

    @Test func export_then_import_gives_identical_stats() throws {
        let source = TemporaryDirectory(), target = TemporaryDirectory()
        let from = try SessionStore(path: source.path + "/miga.sqlite")
        var generator = SeededGenerator(seed: 8)
        try from.insertMissing((0..<200).map { index in
            let ended = start - Double.random(in: 0...(40 * 86_400), using: &generator)
            return SessionRecord(id: "s\(index)", program: ["a", "b"].randomElement(using: &generator)!, startedAt: ended - 30,
                                 endedAt: ended, outcome: [.exit, .proceed, .abandoned, .passthrough].randomElement(using: &generator)!,
                                 pausedSeconds: 30.25, deepenCount: index % 3, quotes: ["q\(index)"])
        })
        let to = try SessionStore(path: target.path + "/miga.sqlite")
        let text = Exchange.encode(try from.sessions(), as: .csv, localDevice: try from.deviceID())
        try to.insertMissing(try Exchange.decode(text, localDevice: try to.deviceID(), now: testNow))
        let zone = TimeZone(identifier: "Europe/Lisbon")!
        let a = try StatsReport.compute(from: from, now: start, timeZone: LocalZone(zone))
        let b = try StatsReport.compute(from: to, now: start, timeZone: LocalZone(zone))
        #expect(a.totals == b.totals && a.days == b.days && a.streak == b.streak && a.programs == b.programs)
    }
}

@Suite struct SyncTests {
    let folder = TemporaryDirectory()
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func machine(_ name: String, sessions count: Int, seed: UInt64) throws -> SessionStore {
        try FileManager.default.createDirectory(atPath: folder.path + "/" + name, withIntermediateDirectories: true)
        let store = try SessionStore(path: folder.path + "/\(name)/miga.sqlite")
        var generator = SeededGenerator(seed: seed)
        try store.insertMissing((0..<count).map { index in
            let ended = now - Double.random(in: 0...(20 * 86_400), using: &generator)
            return SessionRecord(id: "\(name)-\(index)", program: "firefox", startedAt: ended, endedAt: ended,
                                 outcome: [.exit, .proceed].randomElement(using: &generator)!, pausedSeconds: 60)
        })
        return store
    }

    @Test func two_machines_syncing_both_ways_converge() throws {
        let shared = folder.path + "/Sync"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let laptop = try machine("laptop", sessions: 30, seed: 1)
        let desktop = try machine("desktop", sessions: 45, seed: 2)
        let first = try Sync.run(store: laptop, folder: shared, now: testNow)
        #expect(first.written == 30 && first.merged == 0)
        let second = try Sync.run(store: desktop, folder: shared, now: testNow)
        #expect(second.written == 45 && second.merged == 30)
        let laptopFile = folder.path + "/Sync/miga-\(try laptop.deviceID()).jsonl"
        let before = try String(contentsOfFile: laptopFile, encoding: .utf8)
        let third = try Sync.run(store: laptop, folder: shared, now: testNow)
        #expect(third.written == 0 && third.merged == 45)
        // Nobody rewrote the laptop's file; syncing again changes nothing.
        #expect(try String(contentsOfFile: laptopFile, encoding: .utf8) == before)
        let fourth = try Sync.run(store: desktop, folder: shared, now: testNow)
        #expect(fourth.written == 0 && fourth.merged == 0 && fourth.devices == 1 && fourth.setAside == 0)
        #expect(fourth.files.map(\.bytesRead) == [0], "the laptop's file, read already, is not read again")
        let zone = TimeZone(identifier: "Asia/Kolkata")!
        let a = try StatsReport.compute(from: laptop, now: now, timeZone: LocalZone(zone))
        let b = try StatsReport.compute(from: desktop, now: now, timeZone: LocalZone(zone))
        #expect(a.totals.sessions == 75)
        #expect(a.totals == b.totals && a.days == b.days && a.streak == b.streak)
        // Each knows which sessions came from the other.
        let laptopOnly = try StatsReport.compute(from: desktop, filter: StatsFilter(device: try laptop.deviceID()), now: now, timeZone: LocalZone(zone))
        #expect(laptopOnly.totals.sessions == 30)
    }

    @Test func a_file_still_arriving_is_read_as_far_as_it_is_whole() throws {
        let shared = folder.path + "/Sync"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let laptop = try machine("laptop", sessions: 3, seed: 3)
        _ = try Sync.run(store: laptop, folder: shared, now: testNow)
        let file = shared + "/miga-\(try laptop.deviceID()).jsonl"
        try (try String(contentsOfFile: file, encoding: .utf8) + "{\"id\":\"half").write(toFile: file, atomically: true, encoding: .utf8)
        let desktop = try machine("desktop", sessions: 0, seed: 4)
        let report = try Sync.run(store: desktop, folder: shared, now: testNow)
        #expect(report.merged == 3)
        #expect(report.setAside == 0, "the line still arriving waits for the rest of it")
    }

    @Test func a_line_is_its_files_machines_and_never_this_ones() throws {
        let shared = folder.path + "/Sync"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let laptop = try machine("laptop", sessions: 0, seed: 6)
        let this = try laptop.deviceID()
        let other = "5ca1ab1e-0000-4000-8000-00000000000a"
        func line(_ id: String, device: String) -> String {
            "{\"deepen_count\":0,\"device\":\"\(device)\",\"ended_at\":\"2027-01-15T08:01:00.000Z\",\"id\":\"\(id)\",\"outcome\":\"proceed\",\"paused_seconds\":60,\"program\":\"steam\",\"quotes\":[],\"started_at\":\"2027-01-15T08:00:00.000Z\"}\n"
        }
        // Another machine's file claiming lines for this machine, and for nobody; a copy named for this machine.
        try (line("theirs", device: other) + line("mine?", device: this) + line("nobody", device: ""))
            .write(toFile: shared + "/miga-\(other).jsonl", atomically: true, encoding: .utf8)
        try line("planted", device: this).write(toFile: shared + "/miga-\(this).sync-conflict-20270115.jsonl", atomically: true, encoding: .utf8)
        let report = try Sync.run(store: laptop, folder: shared, now: testNow)
        #expect(report.merged == 1 && report.setAside == 2 && report.devices == 1)
        #expect(try laptop.sessions().map(\.id) == ["theirs"])
        #expect(try laptop.sessions().first?.device == other)
        // Nothing that came from another file is published again.
        #expect(try Sync.run(store: laptop, folder: shared, now: testNow).written == 0)
    }

    @Test func overlapping_syncs_write_each_session_once_and_a_cut_line_is_ended_first() throws {
        let shared = folder.path + "/Sync"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let laptop = try machine("laptop", sessions: 100, seed: 9)
        let own = shared + "/miga-\(try laptop.deviceID()).jsonl"
        // A writer killed mid-line left half a line behind.
        try "{\"id\":\"half".write(toFile: own, atomically: true, encoding: .utf8)
        // Eight syncs of the same machine at once.
        let store = folder.path + "/laptop/miga.sqlite"
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            _ = try? Sync.run(store: try SessionStore(path: store), folder: shared, now: testNow)
        }
        let lines = try String(contentsOfFile: own, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 101, "each session once, after the cut line: \(lines.count)")
        #expect(lines.first == "{\"id\":\"half")
        let desktop = try machine("desktop", sessions: 0, seed: 10)
        let report = try Sync.run(store: desktop, folder: shared, now: testNow)
        #expect(report.merged == 100 && report.setAside == 1)
    }

    @Test func a_missing_folder_is_not_created_by_a_typo() {
        #expect(throws: MigaError.self) { try Sync.run(store: try machine("laptop", sessions: 1, seed: 5), folder: folder.path + "/Snyc", now: testNow) }
    }
}
