import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGATestSupport

/// A damaged history is set aside, never deleted, and a new one begun.
@Suite struct DamagedStoreTests {
    let folder = TemporaryDirectory()
    var path: String { folder.path + "/data/miga/miga.sqlite" }
    let now = Date(timeIntervalSince1970: 1_800_000_000) // 2027-01-15 08:00:00 UTC

    @Test func a_healthy_store_opens_without_a_word() throws {
        let (store, rescued) = try SessionStore.openRescuing(path: path, now: now)
        #expect(rescued == nil)
        #expect(try store.sessions().isEmpty)
    }

    @Test func a_file_that_is_not_a_database_is_renamed_with_the_time() throws {
        try folder.write("not a database at all, just words", to: "data/miga/miga.sqlite")
        let (store, rescued) = try SessionStore.openRescuing(path: path, now: now)
        let kept = path + ".damaged-20270115T080000Z"
        #expect(rescued == "the history at \(path) is damaged (it is not a database); it was moved to \(kept) and a new one begun")
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "not a database at all, just words")
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func the_journal_files_go_aside_with_the_store() throws {
        for (suffix, text) in [("", "store"), ("-wal", "journal"), ("-shm", "shared")] {
            try folder.write(text, to: "data/miga/miga.sqlite" + suffix)
        }
        let kept = try SessionStore.moveAside(path: path, now: now)
        for (suffix, text) in [("", "store"), ("-wal", "journal"), ("-shm", "shared")] {
            #expect(try String(contentsOfFile: kept + suffix, encoding: .utf8) == text)
            #expect(!FileManager.default.fileExists(atPath: path + suffix))
        }
    }

    @Test func a_second_rescue_in_the_same_second_takes_the_next_name() throws {
        for round in 1...3 {
            try folder.write("damage \(round)", to: "data/miga/miga.sqlite")
            try SessionStore.moveAside(path: path, now: now)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/data/miga").sorted()
        #expect(names == ["miga.sqlite.damaged-20270115T080000Z", "miga.sqlite.damaged-20270115T080000Z-2",
                          "miga.sqlite.damaged-20270115T080000Z-3"])
        #expect(try String(contentsOfFile: path + ".damaged-20270115T080000Z-3", encoding: .utf8) == "damage 3")
    }

    @Test func only_damage_counts_as_damage() throws {
        #expect(!SessionStore.isDamage(FileSystemError(path: "/x", code: EACCES)))
        try folder.write("garbage", to: "data/miga/miga.sqlite")
        #expect(throws: (any Error).self) { try SessionStore(path: path) }
        do { _ = try SessionStore(path: path) } catch { #expect(SessionStore.isDamage(error)) }
    }
}
