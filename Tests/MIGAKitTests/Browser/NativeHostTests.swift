import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGAStore
@testable import MIGAKit
@testable import MIGATestSupport

@Suite struct NativeHostTests {
    let folder = TemporaryDirectory()
    var paths: XDGPaths {
        XDGPaths(environment: ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path + "/config", "XDG_DATA_HOME": folder.path + "/data"])
    }
    let time = ManualTime()
    var environment: [String: String] {
        ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path + "/config", "XDG_DATA_HOME": folder.path + "/data"]
    }
    let notifier = RecordingNotifier()
    /// A host as the browser starts it: a conversation of its own.
    func newHost(browser: NativeHost.Browser = .chromium) -> NativeHost {
        NativeHost(context: GatewayContext(environment: environment, time: time, timeZone: .utc,
                                           generator: SeededGenerator(seed: 7), terminal: nil, notifier: notifier,
                                           messages: { _ in }, gatewayIdentity: nil, gatewayPath: nil),
                   browser: browser)
    }
    var host: NativeHost { newHost() }
    var sessions: [SessionRecord] {
        get throws { try SessionStore(path: folder.path + "/data/miga/miga.sqlite").sessions() }
    }

    func ask(_ host: NativeHost, _ message: String) throws -> [String: Any] {
        try json(host.answer(Array(message.utf8)))
    }

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

    @Test func the_rules_give_each_site_its_pattern_priorities_and_pause_and_quotes_for_a_pause_without_the_host() throws {
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
        let narrow = try Site("reddit.com/r/all"), broad = try Site("youtube.com")
        #expect(sites[0]["pattern"] as? String == narrow.pattern)
        #expect(sites[0]["redirectPriority"] as? Int == SitePattern.redirectPriority(narrow))
        #expect(sites[1]["allowPriority"] as? Int == SitePattern.allowPriority(broad))
        #expect(sites[1]["program"] as? String == "site:youtube.com")
        // The allowance's end is the host's word, in the answers that open a site, never a length to count again.
        #expect(sites[1]["allowSeconds"] == nil)
        #expect((answer["generation"] as? String)?.isEmpty == false)
        let quotes = try #require(answer["quotes"] as? [[String: Any]])
        #expect(quotes.count == SiteRules.quotesToKeep)
        #expect(quotes.allSatisfy { ($0["verses"] as? [String])?.isEmpty == false })
    }

    /// A config that cannot be read protects nothing as it stands: the
    /// extension is told so and keeps the rules it has, rather than being
    /// handed none and letting every site through.
    @Test(arguments: ["[sites.\"youtube.com\"]\npause = 30\n}", "[sites.\"youtube.com\"\npause = 30\n"])
    func a_config_that_cannot_be_read_gives_no_rules_so_the_extension_keeps_its_own(config: String) throws {
        try folder.write(config, to: "config/miga/config.toml")
        let answer = try json(host.answer(Array(#"{"type":"rules"}"#.utf8)))
        #expect(answer["type"] as? String == "error", "\(answer)")
        #expect(answer["sites"] == nil)
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

    // MARK: The pause in the tab

    static let site = "[sites.\"youtube.com\"]\npause = 3\n"
    static let watch = "https://www.youtube.com/watch?v=1&t=2#c"

    @Test func proceed_opens_at_zero_on_the_hosts_clock_and_gives_the_address_back_exactly() throws {
        try folder.write(Self.site, to: "config/miga/config.toml")
        let host = newHost()
        let first = try ask(host, #"{"type":"pause","url":"\#(Self.watch)"}"#)
        #expect(first["type"] as? String == "state")
        let state = try #require(first["state"] as? [String: Any])
        #expect(state["program"] as? String == "youtube.com")
        #expect(state["secondsLeft"] as? Int == 3)
        #expect(state["proceedOpen"] as? Bool == false)
        #expect((state["choices"] as? [String])?.first == "exitToFocus")
        let early = try ask(host, #"{"type":"choose","choice":{"choice":"proceed"}}"#)
        #expect((early["state"] as? [String: Any])?["notice"] as? String == "notYet")
        time.advance(3.2)
        let ticked = try ask(host, #"{"type":"tick"}"#)
        #expect((ticked["state"] as? [String: Any])?["proceedOpen"] as? Bool == true)
        let ended = try ask(host, #"{"type":"choose","choice":{"choice":"proceed"}}"#)
        #expect(ended["type"] as? String == "ended")
        #expect(ended["ending"] as? String == "proceed")
        #expect(ended["open"] as? String == Self.watch)
        let row = try #require(try sessions.first)
        #expect(row.program == "site:youtube.com" && row.outcome == .proceed)
    }

    @Test func exit_to_focus_ends_the_pause_without_an_address_and_is_recorded() throws {
        try folder.write(Self.site, to: "config/miga/config.toml")
        let host = newHost()
        _ = try ask(host, #"{"type":"pause","url":"https://m.youtube.com/"}"#)
        let ended = try ask(host, #"{"type":"choose","choice":{"choice":"exitToFocus"}}"#)
        #expect(ended["ending"] as? String == "exitToFocus")
        #expect(ended["open"] == nil)
        #expect(try sessions.map(\.outcome) == [.exit])
        let again = try ask(host, #"{"type":"pause","url":"https://m.youtube.com/"}"#)
        #expect(again["type"] as? String == "error")
    }

    @Test func exit_to_focus_is_celebrated_with_a_desktop_notification_and_proceed_is_not() throws {
        try folder.write(Self.site, to: "config/miga/config.toml")
        let exiting = newHost()
        _ = try ask(exiting, #"{"type":"pause","url":"https://youtube.com/"}"#)
        _ = try ask(exiting, #"{"type":"choose","choice":{"choice":"exitToFocus"}}"#)
        let celebration = try #require(notifier.notifications.first)
        #expect(notifier.notifications.count == 1)
        #expect(celebration.summary.contains("youtube.com") || celebration.body.contains("youtube.com"), "\(celebration)")
        let proceeding = newHost()
        _ = try ask(proceeding, #"{"type":"pause","url":"https://youtube.com/"}"#)
        time.advance(3.2)
        #expect(try ask(proceeding, #"{"type":"choose","choice":{"choice":"proceed"}}"#)["ending"] as? String == "proceed")
        #expect(notifier.notifications.count == 1)
    }

    @Test func with_notifications_off_an_exit_sends_none() throws {
        try folder.write("notifications = false\n" + Self.site, to: "config/miga/config.toml")
        let host = newHost()
        _ = try ask(host, #"{"type":"pause","url":"https://youtube.com/"}"#)
        #expect(try ask(host, #"{"type":"choose","choice":{"choice":"exitToFocus"}}"#)["ending"] as? String == "exitToFocus")
        #expect(notifier.notifications.isEmpty)
    }

    // MARK: Private windows

    @Test func whether_the_extension_may_run_in_private_windows_is_kept_for_each_browser() throws {
        try folder.write(Self.site, to: "config/miga/config.toml")
        let store = { try SessionStore(path: self.folder.path + "/data/miga/miga.sqlite") }
        #expect(try ask(newHost(browser: .chromium), #"{"type":"rules","privateWindows":true}"#)["type"] as? String == "rules")
        #expect(try ask(newHost(browser: .firefox), #"{"type":"rules","privateWindows":false}"#)["type"] as? String == "rules")
        #expect(try store().meta("sites.private-windows.chromium") == "allowed")
        #expect(try store().meta("sites.private-windows.firefox") == "refused")
        _ = try ask(newHost(browser: .chromium), #"{"type":"rules","privateWindows":false}"#)
        #expect(try store().meta("sites.private-windows.chromium") == "refused")
        // An extension that does not say (an older one) leaves what is known as it was.
        _ = try ask(newHost(browser: .firefox), #"{"type":"rules"}"#)
        #expect(try store().meta("sites.private-windows.firefox") == "refused")
    }

    @Test func a_conversation_ended_before_a_choice_leaves_the_pause_abandoned() throws {
        try folder.write(Self.site, to: "config/miga/config.toml")
        let host = newHost()
        _ = try ask(host, #"{"type":"pause","url":"https://youtube.com/"}"#)
        host.finish()
        #expect(try sessions.map(\.outcome) == [.abandoned])
    }

    @Test func an_address_on_no_protected_site_or_no_address_is_refused_and_nothing_recorded() throws {
        try folder.write(Self.site, to: "config/miga/config.toml")
        for message in [#"{"type":"pause","url":"https://example.org/"}"#, #"{"type":"pause"}"#, #"{"type":"tick"}"#,
                        #"{"type":"choose","choice":{"choice":"proceed"}}"#,
                        #"{"type":"pause","url":"https://youtube.com/\#(String(repeating: "a", count: 20_000))"}"#] {
            let answer = try ask(host, message)
            #expect(answer["type"] as? String == "error", "\(message.prefix(60))")
        }
        let stored = FileManager.default.fileExists(atPath: folder.path + "/data/miga/miga.sqlite") ? try sessions : []
        #expect(stored.isEmpty)
    }

    @Test func outside_focus_hours_or_inside_an_allowance_the_address_opens_and_that_is_recorded() throws {
        // 1_800_000_000 is a Friday, 08:00 UTC.
        try folder.write("[sites.\"youtube.com\"]\npause = 3\nhours = \"Sat 09:00-17:00\"\n", to: "config/miga/config.toml")
        let outside = try ask(host, #"{"type":"pause","url":"https://youtube.com/"}"#)
        #expect(outside["type"] as? String == "open" && outside["reason"] as? String == "outside-hours")
        try folder.write("[sites.\"youtube.com\"]\npause = 3\nallow_minutes = 10\n", to: "config/miga/config.toml")
        let host = newHost()
        _ = try ask(host, #"{"type":"pause","url":"https://youtube.com/"}"#)
        time.advance(3.5)
        let proceeded = try ask(host, #"{"type":"choose","choice":{"choice":"proceed"}}"#)
        #expect(proceeded["ending"] as? String == "proceed")
        time.advance(60)
        let inside = try ask(newHost(), #"{"type":"pause","url":"https://www.youtube.com/feed"}"#)
        #expect(inside["type"] as? String == "open" && inside["reason"] as? String == "allowed")
        #expect(try sessions.map(\.outcome).sorted { $0.rawValue < $1.rawValue } == [.passthrough, .passthrough, .proceed])
    }

    // MARK: Outcomes the extension kept while the host was away

    @Test func queued_outcomes_count_in_the_figures_once_and_never_shape_the_protection() throws {
        try folder.write("[sites.\"youtube.com\"]\npause = 3\nallow_minutes = 30\n", to: "config/miga/config.toml")
        // 1_800_000_000 is the host's now; the extension paused twice an hour ago.
        // The first as this extension queues it (the site by its name), the second as one before it did.
        let items = #"[{"site":"youtube.com","url":"https://youtube.com/","ending":"exitToFocus","deepenCount":1,"at":"2027-01-15T07:00:00Z","waitedSeconds":40},"#
            + #"{"program":"site:youtube.com","url":"https://youtube.com/x","ending":"proceed","deepenCount":0,"at":"2027-01-15T07:58:00Z","waitedSeconds":90}]"#
        let answer = try ask(host, #"{"type":"outcomes","items":\#(items)}"#)
        #expect(answer["type"] as? String == "recorded")
        #expect(answer["count"] as? Int == 2)
        // Sent again (the answer was lost): nothing twice.
        #expect(try ask(host, #"{"type":"outcomes","items":\#(items)}"#)["count"] as? Int == 0)
        let rows = try sessions.sorted { $0.startedAt < $1.startedAt }
        #expect(rows.map(\.outcome) == [.exit, .proceed])
        #expect(rows.allSatisfy { $0.program == "site:youtube.com" && $0.origin == "browser" })
        #expect(rows.first?.pausedSeconds == 40 && rows.first?.deepenCount == 1)
        // The Proceed two minutes ago is the browser's word: it begins no allowance here.
        let pause = try ask(newHost(), #"{"type":"pause","url":"https://youtube.com/"}"#)
        #expect(pause["type"] as? String == "state")
    }

    @Test(arguments: [
        #"{"program":"site:example.org","ending":"exitToFocus","at":"2027-01-15T07:00:00Z","waitedSeconds":1}"#,
        #"{"site":"example.org","ending":"exitToFocus","at":"2027-01-15T07:00:00Z","waitedSeconds":1}"#,
        #"{"site":"firefox","ending":"exitToFocus","at":"2027-01-15T07:00:00Z","waitedSeconds":1}"#,
        #"{"program":"firefox","ending":"exitToFocus","at":"2027-01-15T07:00:00Z","waitedSeconds":1}"#,
        #"{"program":"site:youtube.com","ending":"launch","at":"2027-01-15T07:00:00Z","waitedSeconds":1}"#,
        #"{"program":"site:youtube.com","ending":"proceed","at":"2027-02-15T07:00:00Z","waitedSeconds":1}"#,
        #"{"program":"site:youtube.com","ending":"proceed","at":"2026-01-15T07:00:00Z","waitedSeconds":1}"#,
        #"{"program":"site:youtube.com","ending":"proceed","at":"yesterday","waitedSeconds":1}"#,
        #"{"program":"site:youtube.com","ending":"proceed","at":"2027-01-15T07:00:00Z","waitedSeconds":1e308}"#,
        #"{"program":"site:youtube.com","ending":"proceed","at":"2027-01-15T07:00:00Z","waitedSeconds":-5}"#,
    ])
    func an_outcome_that_is_not_a_pause_of_a_protected_site_lately_is_not_recorded(item: String) throws {
        try folder.write(Self.site, to: "config/miga/config.toml")
        let answer = try ask(host, #"{"type":"outcomes","items":[\#(item)]}"#)
        #expect(answer["type"] as? String == "recorded" && answer["count"] as? Int == 0)
        let stored = FileManager.default.fileExists(atPath: folder.path + "/data/miga/miga.sqlite") ? try sessions : []
        #expect(stored.isEmpty)
    }
}
