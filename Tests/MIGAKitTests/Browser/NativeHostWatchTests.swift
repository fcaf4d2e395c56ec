import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGAStore
@testable import MIGADesktop
@testable import MIGAKit
@testable import MIGATestSupport

/// The host as a connected browser's: watching the rules (sent again at each
/// change, the browser's report of what it put in place kept for
/// `miga protect --site` to wait for), the allowance's end always the host's
/// word, and a site whose rules are kept after uninstall given to no browser.
@Suite struct NativeHostWatchTests {
    let folder = TemporaryDirectory()
    let time = ManualTime()
    var environment: [String: String] {
        ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path + "/config", "XDG_DATA_HOME": folder.path + "/data"]
    }
    var paths: XDGPaths { XDGPaths(environment: environment) }

    func newHost(_ browser: NativeHost.Browser = .chromium) -> NativeHost {
        NativeHost(context: GatewayContext(environment: environment, time: time, timeZone: .utc,
                                           generator: SeededGenerator(seed: 7), terminal: nil, notifier: RecordingNotifier(),
                                           messages: { _ in }, gatewayIdentity: nil, gatewayPath: nil),
                   browser: browser)
    }

    func ask(_ host: NativeHost, _ message: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(host.answer(Array(message.utf8)))) as? [String: Any])
    }

    func sites(_ answer: [String: Any]) -> [String] {
        (answer["sites"] as? [[String: Any]] ?? []).compactMap { $0["site"] as? String }
    }

    @Test func a_watching_browser_is_connected_until_it_ends_and_is_sent_the_rules_again_only_when_they_change() throws {
        try folder.write("[sites.\"youtube.com\"]\n", to: "config/miga/config.toml")
        let host = newHost()
        let first = try ask(host, #"{"type":"watch","privateWindows":false,"browser":"google-chrome"}"#)
        #expect(sites(first) == ["youtube.com"])
        let connections = BrowserConnections(paths: paths)
        #expect(connections.live().map(\.browser) == ["google-chrome"])
        #expect(connections.live().first?.applied == nil)
        #expect(host.changedRules() == nil)

        let generation = try #require(first["generation"] as? String)
        #expect(try ask(host, #"{"type":"applied","generation":"\#(generation)"}"#)["type"] as? String == "noted")
        #expect(connections.live().first?.applied == generation)
        #expect(connections.waitFor(generation, timeout: 0, clock: time).isEmpty)

        try folder.write("[sites.\"youtube.com\"]\n[sites.\"reddit.com/r/all\"]\n", to: "config/miga/config.toml")
        let again = try JSONSerialization.jsonObject(with: Data(try #require(host.changedRules()))) as? [String: Any] ?? [:]
        #expect(sites(again) == ["reddit.com/r/all", "youtube.com"])
        #expect(again["generation"] as? String != generation)
        #expect(host.changedRules() == nil)
        #expect(connections.waitFor(try #require(SiteRules.generation(paths: paths)), timeout: 0, clock: time).count == 1)

        host.finish()
        #expect(connections.live().isEmpty)
        let store = try SessionStore(path: paths.storeFile)
        #expect(BrowserConnections.lastReached("google-chrome", in: store) == time.now())
        #expect(try store.meta(BrowserConnections.privateWindowsKey("google-chrome")) == "refused")
    }

    @Test func a_browser_the_extension_names_wrongly_is_kept_under_the_engine_that_called() throws {
        try folder.write("[sites.\"youtube.com\"]\n", to: "config/miga/config.toml")
        _ = try ask(newHost(.firefox), #"{"type":"rules","browser":"chromium"}"#)
        _ = try ask(newHost(.chromium), #"{"type":"rules","browser":"\u001b]52;c;x\u0007"}"#)
        let store = try SessionStore(path: paths.storeFile)
        #expect(BrowserConnections.lastReached("firefox", in: store) != nil)
        #expect(BrowserConnections.lastReached("chromium", in: store) != nil)
        #expect(try store.meta(BrowserConnections.reachedKey("\u{1b}]52;c;x\u{07}")) == nil)
    }

    /// Asking again near an allowance's end opens the site only until that
    /// end: the browser is told when it is, never given a fresh length.
    @Test func the_allowances_end_is_the_hosts_word_in_every_answer_that_opens_a_site() throws {
        try folder.write("[sites.\"youtube.com\"]\npause = 3\nallow_minutes = 10\n", to: "config/miga/config.toml")
        let host = newHost()
        _ = try ask(host, #"{"type":"pause","url":"https://youtube.com/"}"#)
        time.advance(3.5)
        let proceeded = try ask(host, #"{"type":"choose","choice":{"choice":"proceed"}}"#)
        let end = time.now() + 600
        #expect(proceeded["allowedUntil"] as? Double == Double(end.milliseconds))
        time.advance(590)
        let late = try ask(newHost(), #"{"type":"pause","url":"https://www.youtube.com/feed"}"#)
        #expect(late["type"] as? String == "open")
        #expect(late["allowedUntil"] as? Double == Double(end.milliseconds))
        time.advance(20)
        #expect(try ask(newHost(), #"{"type":"pause","url":"https://youtube.com/"}"#)["type"] as? String == "state")
    }

    /// After `miga uninstall` a site's rules are kept, protecting nothing: no
    /// browser is given it, and an address on it pauses no more.
    @Test func a_site_whose_rules_are_kept_is_given_to_no_browser() throws {
        try folder.write("[sites.\"youtube.com\"]\n[sites.\"reddit.com\"]\n", to: "config/miga/config.toml")
        try folder.write("site:youtube.com\n", to: "data/miga/kept")
        #expect(sites(try ask(newHost(), #"{"type":"rules"}"#)) == ["reddit.com"])
        #expect(try ask(newHost(), #"{"type":"pause","url":"https://youtube.com/"}"#)["type"] as? String == "error")
        #expect(try ask(newHost(), #"{"type":"pause","url":"https://reddit.com/"}"#)["type"] as? String == "state")
    }

    /// The host wakes for a change of the config (written through a rename,
    /// as the editor writes it) or of the kept list, and not for the
    /// history's own writes beside it.
    @Test func the_watch_wakes_for_the_config_and_the_kept_list_only() throws {
        try folder.write("[sites.\"youtube.com\"]\n", to: "config/miga/config.toml")
        let watch = try #require(ConfigWatch(paths: paths))
        _ = watch.drain()
        try folder.write("history", to: "data/miga/miga.sqlite-wal")
        #expect(!watch.drain())
        try folder.write("site:youtube.com\n", to: "data/miga/kept")
        #expect(watch.drain())
        try atomicWrite("[sites.\"reddit.com\"]\n", to: paths.configFile, mode: 0o600)
        #expect(watch.drain())
    }
}
