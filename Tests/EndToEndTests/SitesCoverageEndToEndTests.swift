import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAStore
@testable import MIGAKit

/// What `miga doctor` says of a real browser, from what its extension did:
/// covered while connected, and when it last reached MIGA once closed; not
/// covered once the browser ran without the extension; private windows
/// paused where the person let the extension in, and named with how to let
/// it where not. And `miga uninstall` takes every browser part away, the
/// running browser told first, the site kept.
@Suite(.serialized, .endToEnd) struct SitesCoverageEndToEndTests {
    static let asked = "http://site.example/watch?v=7"

    func doctor(_ run: SitesRun, line prefix: String) throws -> String? {
        try run.miga(["doctor"]).output.split(separator: "\n").map(String.init).first { $0.contains(prefix) }
    }

    /// Sets when the history says `browser`'s extension last reached MIGA.
    func reached(_ run: SitesRun, _ browser: String, at date: Date) throws {
        try SessionStore(path: run.host.storePath).setMeta(BrowserConnections.reachedKey(browser), String(date.milliseconds))
    }

    @Test func doctorSaysWhetherChromiumsExtensionReachedMIGA() throws {
        let run = try SitesRun(firefox: false)
        #expect(try doctor(run, line: "browser: Chromium:") == "✓ browser: Chromium: covered: its extension is connected to MIGA now")
        #expect(try doctor(run, line: "Chromium: private windows")?.contains("not paused: to pause them, chrome://extensions") == true)

        // Closed: covered, as of the last time it ran.
        try run.stop()
        let closed = try #require(try doctor(run, line: "browser: Chromium:"))
        #expect(closed.hasPrefix("✓ browser: Chromium: covered: its extension reached MIGA"), "\(closed)")
        #expect(closed.hasSuffix("and the browser has not run since"), "\(closed)")

        // Run again without the extension (removed, or a profile of its own): not covered, and said so.
        try reached(run, "chromium", at: Date() - 600)
        var without = BrowserOptions()
        without.withExtension = false
        try run.start(without)
        try run.siteShown(for: Self.asked)
        try run.stop()
        let missing = try #require(try doctor(run, line: "browser: Chromium:"))
        #expect(missing.hasPrefix("✗ browser: Chromium: not covered: it ran"), "\(missing)")
        #expect(missing.hasSuffix("and its extension has not reached MIGA since 10 minutes ago"), "\(missing)")
        #expect(try run.miga(["doctor"]).status == ExitStatus.failure)
    }

    /// A browser equipped but whose extension never reached MIGA: not known
    /// while it has not run since; not covered once it ran.
    @Test func doctorNamesABrowserWhoseExtensionNeverReachedMIGA() throws {
        var without = BrowserOptions()
        without.withExtension = false
        let run = try SitesRun(firefox: false, options: without, probe: nil)
        try run.stop()
        let manifest = try ChromiumUnderTest.nativeHosts(in: run.folder) + "/miga.json"
        try FileManager.default.setAttributes([.modificationDate: Date() - 600], ofItemAtPath: manifest)
        let never = try #require(try doctor(run, line: "browser: Chromium:"))
        #expect(never.hasPrefix("✗ browser: Chromium: not covered: it ran"), "\(never)")
        #expect(never.contains("its extension has never reached MIGA"), "\(never)")
        #expect(try run.miga(["doctor"]).output.contains("fix: add MIGA's extension to it"))
    }

    /// Private windows pause where the person let the extension in
    /// (Chromium: Allow in Incognito; Firefox: Run in Private Windows), and
    /// doctor says so; where not, the site opens there and doctor says how to let it.
    func privateWindows(firefox: Bool) throws {
        var options = BrowserOptions()
        options.privateWindows = true
        let run = try SitesRun(firefox: firefox, options: options)
        let name = firefox ? "Firefox ESR" : "Chromium"
        try eventually("doctor's word on private windows", timeout: 60) {
            try doctor(run, line: "\(name): private windows") == "· browser: \(name): private windows: paused too" ? true : nil
        }
        if let chromium = run.browser as? ChromiumUnderTest {
            try chromium.openPrivateTab()
        } else {
            _ = try run.browser.pauseShown(for: "http://site.example/first")
            try (run.browser as? FirefoxUnderTest)?.openPrivateTab()
        }
        _ = try run.browser.pauseShown(for: Self.asked)
        #expect(run.pages().isEmpty, "the site was asked: \(run.pages())")
    }

    @Test func chromiumPausesInPrivateWindowsWhereTheExtensionIsLet() throws { try privateWindows(firefox: false) }
    @Test func firefoxPausesInPrivateWindowsWhereTheExtensionIsLet() throws { try privateWindows(firefox: true) }

    @Test func aPrivateWindowTheExtensionIsNotLetIntoOpensTheSiteAndDoctorSaysHowToLetIt() throws {
        let run = try SitesRun(firefox: false)
        try (run.browser as? ChromiumUnderTest)?.openPrivateTab()
        try run.siteShown(for: Self.asked)
        #expect(try doctor(run, line: "Chromium: private windows")
                == "· browser: Chromium: private windows: not paused: to pause them, chrome://extensions, MIGA sites, Details, Allow in Incognito")
    }

    /// An extension that cannot reach MIGA says so itself: the toolbar button
    /// is marked, and its page says what to run; protected sites still pause.
    @Test func anExtensionThatCannotReachMIGASaysSoItself() throws {
        let run = try SitesRun(firefox: false)
        try run.stop()
        try FileManager.default.removeItem(atPath: try ChromiumUnderTest.nativeHosts(in: run.folder) + "/miga.json")
        try run.start()
        // The rules kept from before still pause, with the browser's own quotes.
        _ = try run.browser.pauseShown(for: Self.asked)
        try eventually("the toolbar's mark", timeout: 30) { try run.browser.evaluate("chrome.action.getBadgeText({})") == "!" ? true : nil }
        try run.browser.navigate(run.browser.extensionBase + "status.html")
        let said = try eventually("the toolbar's page", timeout: 30) { () -> String? in
            let text = try run.browser.evaluate("document.body.innerText") ?? ""
            return text.contains("MIGA") ? text : nil
        }
        #expect(said.contains("MIGA is not answering this browser."), "\(said)")
        #expect(said.contains("miga browser setup"), "\(said)")
    }

    /// `miga uninstall` with a browser running: the browser drops the sites'
    /// rules first, every part MIGA wrote for the browsers goes (host
    /// manifests, the host's link), the site opens with no pause, and
    /// `miga list` shows it kept.
    @Test func uninstallTakesEveryBrowserPartAwayAndTheSiteOpens() throws {
        let run = try SitesRun(firefox: false)
        let setup = try run.miga(["browser", "setup"])
        #expect(setup.status == 0, "\(setup.output)\(setup.error)")
        let home = run.host.environment["HOME"]!
        let parts = [home + "/.config/chromium/NativeMessagingHosts/miga.json", home + "/.mozilla/native-messaging-hosts/miga.json",
                     home + "/.local/share/miga/miga-native-host"]
        for part in parts { #expect(FileManager.default.fileExists(atPath: part) || (try? FileManager.default.destinationOfSymbolicLink(atPath: part)) != nil, "\(part)") }
        _ = try run.browser.pauseShown(for: Self.asked)

        let uninstall = try run.miga(["uninstall", "--now"])
        #expect(uninstall.status == 0, "\(uninstall.error)")
        #expect(!uninstall.output.contains("has not confirmed"), "\(uninstall.output)")
        for part in parts { #expect((try? FileManager.default.attributesOfItem(atPath: part)) == nil, "left behind: \(part)") }
        try run.siteShown(for: Self.asked)
        let list = try run.miga(["list"]).output
        #expect(list.contains("site.example: kept, not protected — `miga protect --site site.example` turns it back on"), "\(list)")
        #expect(!FileManager.default.fileExists(atPath: home + "/.bashrc"))

        // Protected again: the same rules, and the site pauses once MIGA can be reached again.
        #expect(try run.miga(["protect", "--site", "site.example"]).output.contains("Protected site.example"))
        try run.register()
        #expect(try run.miga(["list"]).output.contains("kept") == false)
    }
}
