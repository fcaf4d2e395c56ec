import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGAStore
@testable import MIGAConfig
@testable import MIGATestSupport

/// What MIGA reads is a regular file of a sane size: a pipe, a device, a
/// folder or an endless file is refused at once, never waited on or read to
/// the end, and a config of absurd depth never reaches the parser.
@Suite struct SpecialFilesTests {
    let folder = TemporaryDirectory()

    func refusal(_ path: String, limit: Int = readLimit) -> String? {
        do {
            _ = try readTextFile(path, limit: limit)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func a_pipe_a_device_and_a_folder_are_refused_at_once() throws {
        let fifo = folder.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/zero", withDestinationPath: "/dev/zero")
        let started = Date()
        for path in [fifo, folder.path + "/zero", folder.path] {
            #expect(refusal(path)?.contains("not a regular file") == true, "\(path)")
        }
        #expect(Date().timeIntervalSince(started) < 5, "nothing was waited on")
    }

    @Test func a_part_of_a_file_is_read_as_bytes_and_a_pipe_or_device_refused() throws {
        try folder.write("0123456789", to: "digits")
        #expect(try readFileBytes(folder.path + "/digits", range: 3..<6) == Array("345".utf8))
        #expect(try readFileBytes(folder.path + "/digits", range: 8..<20) == Array("89".utf8), "shorter where the file ends")
        #expect(try readFileBytes(folder.path + "/digits") == Array("0123456789".utf8))
        #expect(try readFileBytes(folder.path + "/missing") == nil)
        let fifo = folder.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, "/dev/zero", folder.path] {
            #expect(throws: FileSystemError.self, "\(path)") { try readFileBytes(path, range: 0..<4) }
        }
        try folder.write(String(repeating: "x", count: 5_000), to: "big")
        #expect(throws: FileSystemError.self) { try readFileBytes(folder.path + "/big", limit: 4_096) }
    }

    @Test func a_folder_lists_its_names_and_a_missing_one_or_a_file_none() throws {
        try folder.write("a", to: "listed/one.txt")
        try folder.write("b", to: "listed/.hidden")
        try folder.write("c", to: "listed/inner/two.txt")
        #expect(entries(in: folder.path + "/listed").sorted() == [".hidden", "inner", "one.txt"])
        #expect(entries(in: folder.path + "/missing").isEmpty)
        #expect(entries(in: folder.path + "/listed/one.txt").isEmpty)
    }

    @Test func a_file_past_the_limit_is_left_unread() throws {
        try folder.write(String(repeating: "x", count: 5_000), to: "big")
        #expect(refusal(folder.path + "/big", limit: 4_096)?.contains("larger than MIGA reads (4 KiB at most)") == true)
        #expect(refusal(folder.path + "/big", limit: 5_000) == nil)
    }

    @Test func a_config_that_is_a_pipe_or_a_device_gives_the_defaults_and_says_why() throws {
        let path = folder.path + "/config.toml"
        #expect(mkfifo(path, 0o600) == 0)
        let loaded = ConfigLoader.load(from: path)
        #expect(loaded.config == Config())
        #expect(loaded.problems.first?.description.contains("not a regular file") == true)
    }

    @Test(arguments: [
        "[" + Array(repeating: "a", count: 30_000).joined(separator: ".") + "]\n",
        Array(repeating: "a", count: 5_000).joined(separator: ".") + " = 1\n",
        "x = " + String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000) + "\n",
        "x = " + String(repeating: "{ a = ", count: 5_000) + "1" + String(repeating: " }", count: 5_000) + "\n",
    ])
    func a_config_nested_past_the_bound_is_a_syntax_error_not_a_crash(text: String) {
        let loaded = ConfigLoader.parse(text, file: "config.toml")
        #expect(loaded.syntaxError != nil)
        #expect(loaded.problems.first?.message.contains("32") == true, "\(loaded.problems)")
        #expect(loaded.config == Config())
    }

    /// Found by libFuzzer: in an array, a `}` where a value is expected made
    /// toml++ assert and abort the whole process (a protected program would
    /// never start). Kept as regression inputs.
    @Test(arguments: ["a = [}\n", "a = [ }\n", "a = [1,}\n", "a = [[}]\n", "a = [\n  # note\n}\n",
                      "upause =[}}}\n\u{FFFD}\u{FFFD}\u{FFFD}!0w_mf9\n"])
    func a_closer_of_the_other_kind_is_a_syntax_error_not_an_abort(text: String) {
        let loaded = ConfigLoader.parse(text, file: "config.toml")
        #expect(loaded.syntaxError?.message.contains("is still open") == true, "\(loaded.problems)")
        #expect(loaded.config == Config())
    }

    @Test func ordinary_nesting_is_untouched() {
        let text = "interests = [\"Zen\"]\n[programs.\"a.b.c\"]\nhours = \"Mon 09:00-10:00\"\nx = [[1, 2], [3, [4]]]\n"
        #expect(ConfigLoader.parse(text, file: "config.toml").syntaxError == nil)
    }

    @Test func a_config_past_its_size_bound_is_reported_and_the_defaults_used() throws {
        let path = folder.path + "/config.toml"
        try (String(repeating: "# padding\n", count: 30_000) + "pause = 5\n").write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = ConfigLoader.load(from: path)
        #expect(loaded.config.pause == Config.defaultPause)
        #expect(loaded.problems.first?.description.contains("larger than MIGA reads (256 KiB at most)") == true)
    }

    @Test func a_sync_file_replaced_by_a_link_is_not_followed() throws {
        let outside = folder.path + "/outside.txt"
        try "mine\n".write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/own.jsonl", withDestinationPath: outside)
        let session = SessionRecord(id: "x", program: "p", startedAt: testNow - 60, endedAt: testNow, outcome: .exit)
        #expect(throws: FileSystemError.self) {
            try Sync.appendMissing([session], to: folder.path + "/own.jsonl", device: "d", now: testNow)
        }
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "mine\n")
    }

    @Test func a_history_or_inbox_planted_as_a_link_is_refused_and_nothing_is_written_there() throws {
        let data = folder.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let elsewhere = folder.path + "/elsewhere.sqlite"
        try "theirs".write(toFile: elsewhere, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: data + "/miga.sqlite", withDestinationPath: elsewhere)
        #expect(throws: FileSystemError.self) { try SessionStore(path: data + "/miga.sqlite") }
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "theirs")
        unlink(data + "/miga.sqlite")
        try FileManager.default.createDirectory(atPath: folder.path + "/other-inbox", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: data + "/inbox", withDestinationPath: folder.path + "/other-inbox")
        let inbox = Inbox(besideStoreAt: data + "/miga.sqlite")
        #expect(throws: FileSystemError.self) { try inbox.dropPassThrough(id: "p", program: "x", at: testNow) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/other-inbox").isEmpty)
        #expect(inbox.pending().isEmpty)
    }

    @Test func loose_permissions_on_miga_s_own_folder_and_history_are_tightened() throws {
        let data = folder.path + "/loose"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        chmod(data, 0o777)
        _ = try SessionStore(path: data + "/miga.sqlite")
        chmod(data + "/miga.sqlite", 0o666)
        _ = try SessionStore(path: data + "/miga.sqlite")
        var info = stat()
        stat(data, &info)
        #expect(info.st_mode & 0o777 == 0o700)
        stat(data + "/miga.sqlite", &info)
        #expect(info.st_mode & 0o777 == 0o600)
    }

}
