import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGAStore
@testable import MIGAConfig
@testable import MIGADesktop
@testable import MIGAFuzzing

/// Replays, without the fuzzer, every input `make fuzz` starts from
/// (Fuzz/Seeds) and every input that once broke a parser's promise
/// (Fuzz/Regressions): each must keep all of them now.
@Suite struct FuzzRegressionTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz").path

    static func inputs(in kind: String, of target: FuzzTarget) throws -> [(name: String, bytes: [UInt8])] {
        let folder = "\(fuzzFolder)/\(kind)/\(target.rawValue)"
        guard FileManager.default.fileExists(atPath: folder) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { name in
            (name, Array(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)"))))
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func every_saved_input_keeps_the_parsers_promises(target: FuzzTarget) throws {
        let seeds = try Self.inputs(in: "Seeds", of: target)
        #expect(!seeds.isEmpty, "no seeds for \(target.rawValue): the fuzzer would start from nothing")
        for (name, bytes) in try seeds + Self.inputs(in: "Regressions", of: target) {
            #expect(target.brokenPromises(bytes) == [], "\(target.rawValue)/\(name)")
        }
    }

    /// A folder named after no target would never be replayed.
    @Test func every_folder_of_inputs_is_named_after_a_target() throws {
        let names = Set(FuzzTarget.allCases.map(\.rawValue))
        for kind in ["Seeds", "Regressions"] {
            let folders = try FileManager.default.contentsOfDirectory(atPath: "\(Self.fuzzFolder)/\(kind)")
            #expect(Set(folders).isSubset(of: names), "\(kind): \(folders.sorted())")
        }
    }

    /// The seeds are examples of what each parser accepts, so that the fuzzer
    /// starts from the shapes that reach deep into it.
    @Test func the_seeds_are_accepted_by_their_parsers() throws {
        let now = FuzzTarget.now
        for (name, bytes) in try Self.inputs(in: "Seeds", of: .config) {
            #expect(ConfigLoader.parse(String(decoding: bytes, as: UTF8.self), file: name).problems == [], "\(name)")
        }
        for (name, bytes) in try Self.inputs(in: "Seeds", of: .quotes) {
            #expect(QuoteBank.parse(String(decoding: bytes, as: UTF8.self), file: name).problems == [], "\(name)")
        }
        for (name, bytes) in try Self.inputs(in: "Seeds", of: .fortune) {
            #expect(try FortuneFile.parse(bytes, file: name).count > 0, "\(name)")
        }
        for (name, bytes) in try Self.inputs(in: "Seeds", of: .desktop) {
            let entry = try DesktopEntry(text: String(decoding: bytes, as: UTF8.self))
            #expect(try DesktopExec.split(#require(entry.value("Exec"))).count > 1, "\(name)")
        }
        for (name, bytes) in try Self.inputs(in: "Seeds", of: .exec) {
            #expect(try DesktopExec.split(String(decoding: bytes, as: UTF8.self)).count > 1, "\(name)")
        }
        for (_, bytes) in try Self.inputs(in: "Seeds", of: .hours) {
            _ = try FocusHours(String(decoding: bytes, as: UTF8.self))
        }
        for target in [FuzzTarget.importJSON, .importCSV] {
            for (name, bytes) in try Self.inputs(in: "Seeds", of: target) {
                #expect(try Exchange.decodeRecords(String(decoding: bytes, as: UTF8.self), now: now).count > 1, "\(name)")
            }
        }
        for (name, bytes) in try Self.inputs(in: "Seeds", of: .dbusService) {
            #expect(DBusServices.parse(String(decoding: bytes, as: UTF8.self), path: name) != nil, "\(name)")
        }
        for (name, bytes) in try Self.inputs(in: "Seeds", of: .sync) {
            let read = Sync.parse(String(decoding: bytes, as: UTF8.self), device: FuzzTarget.syncDevice, localDevice: "here", now: now)
            #expect(read.records.count == 2 && read.skipped == 1, "\(name)")
        }
    }

    /// The host's seeds reach a pause's end, so that the fuzzer starts from
    /// streams that go through a whole pause, not only the framing.
    @Test func the_host_seeds_reach_the_end_of_a_pause() throws {
        let seeds = Dictionary(uniqueKeysWithValues: try Self.inputs(in: "Seeds", of: .nativeHost).map { ($0.name, $0.bytes) })
        for name in ["pause-and-exit", "pause-and-proceed"] {
            let types = FuzzTarget.hostAnswers(to: try #require(seeds[name], "\(name)")).map(FuzzTarget.answerType)
            #expect(types.first == "state" && types.last == "ended", "\(name): \(types)")
        }
        let outcomes = FuzzTarget.hostAnswers(to: try #require(seeds["outcomes"])).map { String(decoding: $0, as: UTF8.self) }
        #expect(outcomes == [#"{"count":1,"type":"recorded"}"#] || outcomes == [#"{"count":0,"type":"recorded"}"#], "\(outcomes)")
        let types = FuzzTarget.hostAnswers(to: try #require(seeds["not-protected"])).map(FuzzTarget.answerType)
        #expect(types == ["error", "error"], "the broken frame after two messages ends the stream: \(types)")
    }

    /// Found by the fuzzer: "\r\n" is one Character, so files with Windows
    /// line ends read as one long line. Each reads as its lines now.
    @Test func sync_and_service_files_with_windows_line_ends_read_as_their_lines() throws {
        for (name, bytes) in try Self.inputs(in: "Seeds", of: .sync) {
            let text = String(decoding: bytes, as: UTF8.self)
            let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
            let read = Sync.parse(crlf, device: FuzzTarget.syncDevice, localDevice: "here", now: FuzzTarget.now)
            #expect(read.records == Sync.parse(text, device: FuzzTarget.syncDevice, localDevice: "here", now: FuzzTarget.now).records, "\(name)")
            #expect(read.records.count == 2, "\(name)")
        }
        let service = try #require(DBusServices.parse("[D-BUS Service]\r\nName=org.telegram.desktop\r\nExec=/usr/bin/telegram-desktop\r\n", path: "t"))
        #expect(service.name == "org.telegram.desktop" && service.exec == "/usr/bin/telegram-desktop")
    }
}
