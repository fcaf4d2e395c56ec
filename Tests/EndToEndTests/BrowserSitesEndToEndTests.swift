import Foundation
import Testing
import MIGATestSupport

/// A protected website in Debian's real browsers, headless, with MIGA's
/// extension unpacked (as `make extension` builds it) and the stand-in
/// native host: the site is never contacted before Proceed, the pause page
/// shows the host's pause (its words as text, never markup), Proceed at zero
/// opens the address exactly, and without the host the browser still pauses
/// and keeps the outcome. (Exit, the history and the allowance with the real
/// host: BrowserRealHostEndToEndTests.)
@Suite(.serialized, .endToEnd) struct BrowserSitesEndToEndTests {
    static let asked = "http://site.example/watch?v=1#t"
    static let askedOnTheWire = "http://site.example/watch?v=1"
    static let bundledSources = ["Seneca", "Marcus Aurelius", "Henry David Thoreau", "Blaise Pascal", "Laozi", "Epictetus"]

    /// One browser with the extension, a loopback site, and the stand-in host registered.
    final class SitesRun {
        let folder = BrowserFolder()
        let site: LoopbackSite
        let host: StandInNativeHost
        let hostManifests: String
        private(set) var browser: BrowserUnderTest!

        init(firefox: Bool) throws {
            try buildExtension()
            site = try LoopbackSite()
            host = try StandInNativeHost(in: folder)
            if firefox {
                hostManifests = try FirefoxUnderTest.nativeHosts(in: folder)
                try host.register(in: hostManifests, geckoID: FirefoxUnderTest.extensionID)
                browser = try FirefoxUnderTest(in: folder, site: site)
            } else {
                hostManifests = try ChromiumUnderTest.nativeHosts(in: folder)
                try host.register(in: hostManifests, chromiumID: ChromiumUnderTest.extensionID)
                browser = try ChromiumUnderTest(in: folder, site: site)
            }
            try rulesInPlace()
        }

        // The browser dies before its folder goes.
        deinit { browser = nil }

        var siteRequests: [String] { site.requests(on: "site.example") }

        func rulesInPlace() throws { try browser.waitForRedirects(probe: "http://probe.site.example/") }
        func text(of id: String) throws -> String? { try browser.text(of: id) }
        func address() throws -> String? { try browser.address() }
        func pauseShown() throws -> String { try browser.pauseShown(for: BrowserSitesEndToEndTests.asked) }

        func queued() throws -> [[String: Any]] {
            let json = try browser.evaluate("\(browser.api).storage.local.get('queued').then(r => JSON.stringify(r.queued || []))") ?? "[]"
            return (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: Any]] ?? []
        }
    }

    func pausesAndProceedsAtZero(firefox: Bool) throws {
        let run = try SitesRun(firefox: firefox)
        let verses = try run.pauseShown()
        #expect(verses.contains(StandInNativeHost.quoteLine))
        // The host's words are text, never markup.
        #expect(verses.contains("in <b>two</b> lines."))
        #expect(try run.browser.evaluate("String(document.querySelectorAll('#verses b').length)") == "0")
        #expect(try run.address() == run.browser.extensionBase + "pause.html#" + Self.asked)
        #expect(run.host.messages.contains { $0.contains("\"pause\"") && $0.contains(Self.asked) })
        // A breathing pause has no line to type and no question: no field shows.
        #expect(try run.browser.evaluate("getComputedStyle(document.getElementById('answer')).display") == "none")
        try run.browser.waitForProceedOpen()
        #expect(run.siteRequests.isEmpty, "the site was contacted before Proceed: \(run.siteRequests)")
        try run.browser.press("p")
        try eventually("the asked-for address opened", timeout: 60) { try run.address() == Self.asked ? true : nil }
        try eventually("the site reached", timeout: 30) { run.siteRequests.first == Self.askedOnTheWire ? true : nil }
        #expect(try run.text(of: "site") == "The site itself.")
    }

    func pausesWithoutTheHost(firefox: Bool) throws {
        let run = try SitesRun(firefox: firefox)
        try run.host.unregister(in: run.hostManifests)
        _ = try run.pauseShown()
        try eventually("the pause without the host", timeout: 30) {
            try run.browser.evaluate("String(document.getElementById('without-host').hidden)") == "false" ? true : nil
        }
        let source = try run.text(of: "source") ?? ""
        #expect(Self.bundledSources.contains(source), "not a bundled quote: \(source)")
        try run.browser.press("e")
        try eventually("the focus page", timeout: 60) { try run.address() == run.browser.extensionBase + "focus.html" ? true : nil }
        let queued = try eventually("the queued outcome", timeout: 30) { try run.queued().first }
        // The site by its name: the history's form of it is the host's to write.
        #expect(queued["site"] as? String == "site.example" && queued["program"] == nil)
        #expect(queued["ending"] as? String == "exitToFocus")
        #expect(queued["url"] as? String == Self.asked)
        #expect(run.siteRequests.isEmpty, "the site was contacted: \(run.siteRequests)")

        // The host back: the next pause hands the queue over.
        try run.host.register(in: run.hostManifests, chromiumID: firefox ? nil : ChromiumUnderTest.extensionID,
                              geckoID: firefox ? FirefoxUnderTest.extensionID : nil)
        _ = try run.pauseShown()
        try eventually("the outcomes handed to the host", timeout: 60) {
            run.host.messages.contains { $0.contains("\"outcomes\"") && $0.contains("exitToFocus") } ? true : nil
        }
        try eventually("the queue emptied", timeout: 30) { try run.queued().isEmpty ? true : nil }
    }

    /// No pause due (the host answers "open": an allowance, outside focus
    /// hours): the address opens at once, and the tab's visit goes on unpaused.
    func opensWhenNoPauseIsDue(firefox: Bool) throws {
        let run = try SitesRun(firefox: firefox)
        let allowed = "http://site.example/allowance?x=1"
        try run.browser.navigate(allowed)
        try eventually("the address opened", timeout: 60) { try run.text(of: "site") == "The site itself." ? true : nil }
        #expect(try run.address() == allowed)
        #expect(run.host.messages.contains { $0.contains("\"pause\"") && $0.contains(allowed) })
        try run.browser.navigate("http://site.example/next")
        try eventually("the next page of the visit", timeout: 60) {
            run.siteRequests.contains("http://site.example/next") ? true : nil
        }
    }

    @Test func chromiumOpensWhenNoPauseIsDue() throws { try opensWhenNoPauseIsDue(firefox: false) }
    @Test func firefoxOpensWhenNoPauseIsDue() throws { try opensWhenNoPauseIsDue(firefox: true) }

    /// A path prefix covers its own segment and below, not a longer word
    /// (`/r/allah` opens), and a single-page site's `history.pushState` into
    /// it goes to the pause.
    func pausesASinglePageNavigationIntoAProtectedPath(firefox: Bool) throws {
        let run = try SitesRun(firefox: firefox)
        let neighbour = "http://other.example/r/allah"
        try run.browser.navigate(neighbour)
        try eventually("the unprotected page", timeout: 60) { try run.text(of: "site") == "The site itself." ? true : nil }
        #expect(try run.address() == neighbour)
        #expect(run.site.requests(on: "other.example").first == neighbour)
        _ = try run.browser.evaluate("history.pushState({}, '', '/r/all/top'); 'pushed'")
        try eventually("the pause after pushState", timeout: 60) {
            try run.address() == run.browser.extensionBase + "pause.html#http://other.example/r/all/top" ? true : nil
        }
        let protected = run.site.requests(on: "other.example").filter { $0.hasPrefix("http://other.example/r/all/") }
        #expect(protected.isEmpty, "the protected path was contacted: \(protected)")
    }

    @Test func chromiumPausesASinglePageNavigationIntoAProtectedPath() throws { try pausesASinglePageNavigationIntoAProtectedPath(firefox: false) }
    @Test func firefoxPausesASinglePageNavigationIntoAProtectedPath() throws { try pausesASinglePageNavigationIntoAProtectedPath(firefox: true) }
    @Test func chromiumPausesBeforeTheSiteAndProceedsAtZero() throws { try pausesAndProceedsAtZero(firefox: false) }
    @Test func chromiumPausesWithoutTheHostAndQueuesTheOutcome() throws { try pausesWithoutTheHost(firefox: false) }
    @Test func firefoxPausesBeforeTheSiteAndProceedsAtZero() throws { try pausesAndProceedsAtZero(firefox: true) }
    @Test func firefoxPausesWithoutTheHostAndQueuesTheOutcome() throws { try pausesWithoutTheHost(firefox: true) }

    /// The ID in Extension/README.md and the tests is the one Chromium derives
    /// from the manifest's key: SHA-256 of the key's DER, its first 32 hex
    /// digits written with the letters a to p.
    @Test func chromiumExtensionIDComesFromTheManifestKey() throws {
        let manifest = try Data(contentsOf: URL(fileURLWithPath: extensionSource + "/manifests/chromium.json"))
        let key = try #require((try JSONSerialization.jsonObject(with: manifest) as? [String: Any])?["key"] as? String)
        let der = try #require(Data(base64Encoded: key))
        let folder = BrowserFolder()
        try der.write(to: URL(fileURLWithPath: folder.root + "/key.der"))
        let digest = try run("/usr/bin/sha256sum", [folder.root + "/key.der"]).output.prefix(32)
        let id = String(digest.map { Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8($0.hexDigitValue!))) })
        #expect(id == ChromiumUnderTest.extensionID)
        let readme = try String(contentsOfFile: extensionSource + "/README.md", encoding: .utf8)
        #expect(readme.contains(id))
        let gecko = try Data(contentsOf: URL(fileURLWithPath: extensionSource + "/manifests/firefox.json"))
        let settings = (try JSONSerialization.jsonObject(with: gecko) as? [String: Any])?["browser_specific_settings"] as? [String: Any]
        #expect((settings?["gecko"] as? [String: Any])?["id"] as? String == FirefoxUnderTest.extensionID)
    }
}
