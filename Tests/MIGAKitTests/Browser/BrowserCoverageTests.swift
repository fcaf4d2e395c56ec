import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGAStore
@testable import MIGAKit
@testable import MIGADesktop
@testable import MIGATestSupport

/// Doctor's browser lines: covered or not, what to do, and private windows.
@Suite struct BrowserCoverageTests {
    let folder = TemporaryDirectory()
    var root: String { folder.path }
    var environment: [String: String] {
        ["HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_DATA_HOME": root + "/data", "PATH": root + "/bin"]
    }
    var gateway: String { root + "/miga" }

    init() throws {
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        for program in ["miga", "bin/firefox-esr", "bin/chromium"] {
            try "#!/bin/sh\n".write(toFile: root + "/" + program, atomically: true, encoding: .utf8)
            chmod(root + "/" + program, 0o755)
        }
    }

    func setup(_ config: Config = Config(), gateway: String? = nil) -> BrowserSetup {
        BrowserSetup(environment: environment, gateway: gateway ?? self.gateway, running: self.gateway, config: config)
    }

    /// Now, as doctor asks; a browser "runs" by touching its settings folder.
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func findings(_ config: Config = Config(), store: SessionStore? = nil, gateway: String? = nil) -> [Finding] {
        BrowserCoverage(setup: setup(config, gateway: gateway), store: store,
                        connections: BrowserConnections(paths: XDGPaths(environment: environment)), now: now).findings()
    }

    var siteProtected: Config {
        var config = Config()
        config.sites["youtube.com"] = ProgramSettings(.site(try! Site("youtube.com")))
        return config
    }

    func store() throws -> SessionStore { try SessionStore(path: root + "/data/miga/miga.sqlite") }

    /// Sets the modification time of `path` (and makes it a folder when missing).
    func touch(_ path: String, at date: Date) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    /// The manifests written an hour ago, so that "ran since" is told apart from "equipped".
    func equipAnHourAgo() throws {
        _ = setup().run()
        for file in [root + "/.mozilla/native-messaging-hosts/miga.json", root + "/config/chromium/NativeMessagingHosts/miga.json"] {
            try FileManager.default.setAttributes([.modificationDate: now - 3600], ofItemAtPath: file)
        }
        try touch(root + "/.mozilla/firefox", at: now - 3600)
        try touch(root + "/config/chromium", at: now - 3600)
        try FileManager.default.setAttributes([.modificationDate: now - 3600], ofItemAtPath: root + "/config/chromium/NativeMessagingHosts")
    }

    @Test func equipped_browsers_that_have_not_run_since_are_not_known_yet_and_say_how_to_add_the_extension() throws {
        try equipAnHourAgo()
        let lines = findings(siteProtected)
        #expect(lines.allSatisfy { $0.info }, "\(lines)")
        #expect(lines.map(\.text).allSatisfy { $0.contains("not known yet: it has not run since MIGA equipped it; then add MIGA's extension") })
    }

    @Test func a_browser_that_ran_and_whose_extension_never_reached_miga_is_not_covered() throws {
        try equipAnHourAgo()
        try touch(root + "/config/chromium/Default", at: now - 60)
        let chromium = try #require(findings(siteProtected).last)
        #expect(!chromium.ok)
        #expect(chromium.text == "browser: Chromium: not covered: it ran a minute ago, and its extension has never reached MIGA")
        #expect(chromium.fix?.hasPrefix("add MIGA's extension to it: the extension: open chrome://extensions") == true)
    }

    @Test func a_browser_whose_extension_reached_miga_the_last_time_it_ran_is_covered_and_says_when() throws {
        try equipAnHourAgo()
        let store = try store()
        try store.setMeta(BrowserConnections.reachedKey("chromium"), String((now - 600).milliseconds))
        try touch(root + "/config/chromium/Default", at: now - 590)
        let lines = findings(siteProtected, store: store)
        #expect(lines.contains(Finding(ok: true, text: "browser: Chromium: covered: its extension reached MIGA 10 minutes ago, and the browser has not run since")))
        // It ran again later without reaching MIGA (the extension removed, a profile of its own): not covered.
        try touch(root + "/config/chromium/Default", at: now - 120)
        let again = try #require(findings(siteProtected, store: store).first { $0.text.hasPrefix("browser: Chromium:") })
        #expect(!again.ok)
        #expect(again.text == "browser: Chromium: not covered: it ran 2 minutes ago, and its extension has not reached MIGA since 10 minutes ago")
    }

    @Test func a_browser_connected_now_is_covered() throws {
        try equipAnHourAgo()
        let connections = BrowserConnections(paths: XDGPaths(environment: environment))
        let file = try #require(connections.register("firefox"))
        defer { connections.unregister(file) }
        #expect(findings(siteProtected).first == Finding(ok: true, text: "browser: Firefox ESR: covered: its extension is connected to MIGA now"))
    }

    @Test func a_connection_whose_process_is_gone_is_stale_and_removed() throws {
        let connections = BrowserConnections(paths: XDGPaths(environment: environment))
        try FileManager.default.createDirectory(atPath: root + "/data/miga/browsers", withIntermediateDirectories: true)
        try "\(ProcessIdentity.currentBootID)/999999/1\n\n".write(toFile: root + "/data/miga/browsers/chromium.999999", atomically: true, encoding: .utf8)
        #expect(connections.live().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: root + "/data/miga/browsers/chromium.999999"))
    }

    @Test func a_browser_without_the_manifest_is_not_covered_a_problem_only_while_sites_are_protected() throws {
        let quiet = findings()
        #expect(quiet.allSatisfy { $0.info })
        #expect(quiet.first?.text == "browser: Firefox ESR: not covered (miga browser setup equips it, once you protect a site)")
        let problems = findings(siteProtected)
        #expect(problems.map(\.ok) == [false, false])
        try #require(problems.count == 2)
        #expect(problems[1].text == "browser: Chromium: not covered: protected sites open in it without a pause")
        #expect(problems[1].fix == "miga browser setup (or protect the browser as a program: miga protect chromium)")
        // Protected as a program: each start pauses, which is the person's choice.
        var config = siteProtected
        config.programs["chromium"] = ProgramSettings(command: "chromium")
        #expect(findings(config).last == Finding(info: "browser: Chromium: protected as a program, so each start of it pauses"))
    }

    @Test func a_manifest_naming_another_miga_is_not_coverage() throws {
        _ = setup(gateway: root + "/bin/firefox-esr").run()
        #expect(findings(siteProtected).map(\.ok) == [false, false, false])
        #expect(findings(siteProtected).first?.text.contains("points at \(root)/bin/firefox-esr, which is no miga") == true)
    }

    /// The host link left pointing at a miga that was removed (a package
    /// taken away): a problem doctor names, and `--fix` mends.
    @Test func a_dangling_host_link_is_a_problem_that_mend_puts_right() throws {
        _ = setup(gateway: root + "/bin/gone/miga").run()
        let link = setup().link
        let problem = try #require(findings(siteProtected).first)
        #expect(!problem.ok)
        #expect(problem.text.hasPrefix("the browsers' host link \(link.path) points at \(root)/bin/gone/miga, which is not there"))
        #expect(problem.fix == "miga doctor --fix (points it at this miga)")
        #expect(link.mend()?.hasSuffix("it now points at \(gateway).") == true)
        #expect(link.mend() == nil)
        #expect(!findings(siteProtected).contains { $0.text.contains("host link") })
    }

    @Test func private_windows_are_what_the_extension_reported_with_how_to_allow_them() throws {
        try equipAnHourAgo()
        let store = try store()
        try store.setMeta("sites.private-windows.firefox", "allowed")
        try store.setMeta("sites.private-windows.chromium", "refused")
        try store.setMeta(BrowserConnections.reachedKey("firefox"), String((now - 60).milliseconds))
        try store.setMeta(BrowserConnections.reachedKey("chromium"), String((now - 60).milliseconds))
        let lines = findings(siteProtected, store: store).map(\.text)
        #expect(lines.contains("browser: Firefox ESR: private windows: paused too"))
        #expect(lines.contains("browser: Chromium: private windows: not paused: to pause them, chrome://extensions, MIGA sites, Details, Allow in Incognito"))
        #expect(findings(siteProtected, store: store).filter { $0.text.contains("private windows") }.allSatisfy { $0.info })
    }
}
