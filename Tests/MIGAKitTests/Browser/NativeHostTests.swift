import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGAKit
@testable import MIGATestSupport

@Suite struct NativeHostTests {
    let folder = TemporaryDirectory()
    var paths: XDGPaths {
        XDGPaths(environment: ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path + "/config", "XDG_DATA_HOME": folder.path + "/data"])
    }
    var host: NativeHost { NativeHost(paths: paths, now: { Date(timeIntervalSince1970: 1_800_000_000) }) }

    func json(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func only_migas_own_extension_is_a_caller() {
        #expect(NativeHost.caller(["chrome-extension://cbgolgnocihlfhpkfbbocelojnaodpbo/"]) == .chromium)
        #expect(NativeHost.caller(["chrome-extension://cbgolgnocihlfhpkfbbocelojnaodpbo/", "--parent-window=0"]) == .chromium)
        #expect(NativeHost.caller(["/home/a/.mozilla/native-messaging-hosts/miga.json", "sites@miga"]) == .firefox)
        for words in [[], ["chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"], ["chrome-extension://cbgolgnocihlfhpkfbbocelojnaodpbo"],
                      ["chrome-extension://cbgolgnocihlfhpkfbbocelojnaodpbo/", "extra"], ["/x/miga.json", "other@addon"],
                      ["miga.json", "sites@miga"], ["/x/miga.json", "sites@miga", "more"], ["sites@miga"]] {
            #expect(NativeHost.caller(words) == nil, "\(words)")
        }
    }

    @Test func the_rules_name_each_site_with_its_pause_and_quotes_for_a_pause_without_the_host() throws {
        try folder.write("""
            pause = 45
            [sites."youtube.com"]
            allow_minutes = 20
            [sites."reddit.com/r/all"]
            pause = 120
            """, to: "config/miga/config.toml")
        let answer = try json(host.answer(Array(#"{"type":"rules"}"#.utf8)))
        #expect(answer["type"] as? String == "rules")
        let sites = try #require(answer["sites"] as? [[String: Any]])
        #expect(sites.map { $0["site"] as? String } == ["reddit.com/r/all", "youtube.com"])
        #expect(sites.map { $0["pause"] as? Int } == [120, 45])
        #expect(sites[0]["path"] as? String == "/r/all")
        #expect(sites[1]["program"] as? String == "site:youtube.com")
        #expect(sites[1]["allowMinutes"] as? Double == 20)
        let quotes = try #require(answer["quotes"] as? [[String: Any]])
        #expect(quotes.count == NativeHost.quotesToKeep)
        #expect(quotes.allSatisfy { ($0["verses"] as? [String])?.isEmpty == false })
    }

    @Test(arguments: ["", "null", "[]", "{}", #"{"type":"launch"}"#, #"{"type":7}"#, "{\"type\":\"rules\"", "\u{FF}\u{FE}"])
    func a_message_that_is_none_of_the_requests_is_answered_with_an_error(message: String) throws {
        let answer = try json(host.answer(Array(message.utf8)))
        #expect(answer["type"] as? String == "error")
    }

    @Test func the_host_answers_each_message_until_the_stream_ends_and_stops_at_a_broken_frame() throws {
        func conversation(_ input: [UInt8]) throws -> (status: Int32, answers: [[String: Any]]) {
            var toHost: [Int32] = [0, 0], fromHost: [Int32] = [0, 0]
            pipe(&toHost)
            pipe(&fromHost)
            _ = input.withUnsafeBytes { write(toHost[1], $0.baseAddress, $0.count) }
            close(toHost[1])
            let status = host.serve(input: toHost[0], output: fromHost[1])
            close(toHost[0])
            close(fromHost[1])
            var output: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while case let n = read(fromHost[0], &buffer, buffer.count), n > 0 { output += buffer.prefix(n) }
            close(fromHost[0])
            var answers: [[String: Any]] = []
            var rest = output[...]
            while rest.count >= 4 {
                let length = Int(rest.prefix(4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
                answers.append(try json(Array(rest.dropFirst(4).prefix(length))))
                rest = rest.dropFirst(4 + length)
            }
            return (status, answers)
        }
        let rules = try #require(NativeMessage.frame(Array(#"{"type":"rules"}"#.utf8)))
        let garbage = try #require(NativeMessage.frame(Array("garbage".utf8)))
        let clean = try conversation(rules + garbage + rules)
        #expect(clean.status == ExitStatus.success)
        #expect(clean.answers.map { $0["type"] as? String } == ["rules", "error", "rules"])
        let broken = try conversation(rules + withUnsafeBytes(of: UInt32(1 << 30), Array.init) + rules)
        #expect(broken.status == ExitStatus.dataError)
        #expect(broken.answers.map { $0["type"] as? String } == ["rules"])
    }
}
