import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAStore

/// A protected website in Debian's real browsers with MIGA's extension and
/// the real `miga native-host`, installed as the host manifests name it (a
/// `miga-native-host` link to the built binary): the pause shows the host's
/// quote, Exit and Proceed are in the real history (and an exit the browser
/// held itself while the host was away, once it is back), an unprotected
/// site and an allowance open at once, `miga stats` counts the site beside a
/// program, and the pause page reads at WCAG AA in both looks.
@Suite(.serialized, .endToEnd) struct BrowserRealHostEndToEndTests {
    static let asked = "http://site.example/watch?v=1&list=a%20b#t=42"
    static let askedOnTheWire = "http://site.example/watch?v=1&list=a%20b"
    static let program = "site:site.example"

    /// One browser with the extension, a loopback site, and the real host
    /// registered, `site.example` protected with `options` (by default a
    /// two-second pause and a minute's allowance after a Proceed), and
    /// `alsoProtected` beside it.
    static func run(firefox: Bool, options: [String] = ["--pause", "2", "--allow", "1"],
                    alsoProtected: [(site: String, options: [String])] = []) throws -> SitesRun {
        try SitesRun(firefox: firefox, sites: [(site: "site.example", options: options)] + alsoProtected)
    }

    func pausesWithTheRealHost(firefox: Bool) throws {
        let run = try Self.run(firefox: firefox)

        // The extension said whether it may run in private windows: a browser started so has not been let.
        let privateWindows = "sites.private-windows." + (firefox ? "firefox" : "chromium")
        try eventually("what the extension says of private windows", timeout: 30) {
            try SessionStore(path: run.host.storePath).meta(privateWindows) == "refused" ? true : nil
        }

        // A site nobody protected opens at once.
        let free = "http://other.example/free?x=1"
        try run.browser.navigate(free)
        try eventually("the unprotected site", timeout: 60) { try run.browser.text(of: "site") == "The site itself." ? true : nil }
        #expect(try run.browser.address() == free)

        // The host written with its final dot is the same site: paused, never contacted.
        _ = try run.browser.pauseShown(for: "http://site.example./watch?v=dot")
        #expect(run.site.requests(on: "site.example").isEmpty, "the site was contacted: \(run.site.requests(on: "site.example"))")

        // Exit to Focus: the tab leaves, the site is never contacted, the history has the exit with the quote shown.
        let exitQuote = try hostsPause(run)
        // No allowance is on, so no alarm is set: nothing wakes the browser for MIGA.
        #expect(try alarms(run).isEmpty, "alarms while no allowance is on")
        try run.browser.press("e")
        try eventually("the focus page", timeout: 60) { try run.browser.address() == run.browser.extensionBase + "focus.html" ? true : nil }
        let exit = try eventually("the exit in the history", timeout: 30) { try run.host.sessions(of: Self.program, ending: "exit").first }
        #expect((exit["quotes"] as? [String])?.contains(exitQuote) == true, "\(exit)")
        #expect(run.site.requests(on: "site.example").isEmpty, "the site was contacted: \(run.site.requests(on: "site.example"))")

        // Without the host the browser pauses itself; the next contact hands
        // its exit over, and the history keeps it as the browser's word.
        try exitWithoutTheHost(run)

        // Proceed at zero on the host's clock: the address exactly, path, query and fragment.
        _ = try hostsPause(run)
        try run.browser.waitForProceedOpen()
        #expect(run.site.requests(on: "site.example").isEmpty, "the site was contacted before Proceed: \(run.site.requests(on: "site.example"))")
        try run.browser.press("p")
        try eventually("the asked-for address opened", timeout: 60) { try run.browser.address() == Self.asked ? true : nil }
        try eventually("the site reached", timeout: 30) { run.site.requests(on: "site.example").first == Self.askedOnTheWire ? true : nil }
        #expect(try run.browser.text(of: "site") == "The site itself.")
        try eventually("the proceed in the history", timeout: 30) { try run.host.sessions(of: Self.program, ending: "proceed").first }
        let exits = try eventually("the browser's exit in the history", timeout: 30) { () -> [[String: Any]]? in
            let exits = try run.host.sessions(of: Self.program, ending: "exit")
            return exits.count == 2 ? exits : nil
        }
        #expect(exits.filter { $0["origin"] as? String == "browser" }.count == 1, "\(exits)")

        // The allowance: another tab opens the site at once, with no pause.
        let second = "http://www.site.example/feed?y=2#z"
        try run.browser.openTab()
        try run.browser.navigate(second)
        try eventually("the site in a second tab", timeout: 60) { try run.browser.text(of: "site") == "The site itself." ? true : nil }
        #expect(try run.browser.address() == second)
        #expect(try run.host.sessions(of: Self.program, ending: "exit").count == 2)
        #expect(try run.host.sessions(of: Self.program, ending: "proceed").count == 1)
        if !firefox {
            // One alarm, at the allowance's end (a minute after the Proceed), to close it.
            try run.browser.navigate(run.browser.extensionBase + "focus.html")
            let alarms = try eventually("the extension's page", timeout: 30) { try? self.alarms(run) }
            #expect(alarms.count == 1 && alarms.first?.name == "allowances", "\(alarms)")
            let left = (alarms.first?.scheduledTime ?? 0) / 1000 - Date().timeIntervalSince1970
            #expect((0...61).contains(left), "the allowance's alarm is \(left) s away")
        }

        try figuresCountTheSiteBesideAProgram(run)
    }

    /// A pause while the host is not installed, left with Exit; the host installed again.
    func exitWithoutTheHost(_ run: SitesRun) throws {
        let manifests = try run.firefox ? FirefoxUnderTest.nativeHosts(in: run.folder) : ChromiumUnderTest.nativeHosts(in: run.folder)
        try run.host.unregister(in: manifests)
        _ = try run.browser.pauseShown(for: Self.asked)
        try eventually("the pause without the host", timeout: 30) {
            try run.browser.evaluate("String(document.getElementById('without-host').hidden)") == "false" ? true : nil
        }
        try run.browser.press("e")
        try eventually("the focus page", timeout: 60) { try run.browser.address() == run.browser.extensionBase + "focus.html" ? true : nil }
        try run.register()
    }

    /// The extension's alarms, read on one of its pages (the tab must show one).
    func alarms(_ run: SitesRun) throws -> [(name: String, scheduledTime: Double)] {
        let json = try #require(try run.browser.evaluate(
            "\(run.browser.api).alarms.getAll().then(all => JSON.stringify(all.map(a => [a.name, a.scheduledTime])))"))
        let pairs = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[Any]])
        return pairs.map { (name: $0.first as? String ?? "", scheduledTime: $0.last as? Double ?? 0) }
    }

    /// The pause for the asked-for address, from the host (not the browser's own); the quote's id.
    func hostsPause(_ run: SitesRun) throws -> String {
        _ = try run.browser.pauseShown(for: Self.asked)
        #expect(try run.browser.evaluate("String(document.getElementById('without-host').hidden)") == "true")
        return try eventually("the host's quote") { try run.browser.evaluate("state && state.quote ? state.quote.id : null") }
    }

    func figuresCountTheSiteBesideAProgram(_ run: SitesRun) throws {
        _ = try SessionStore(path: run.host.storePath).insertMissing([SessionRecord(
            id: UUID().uuidString, program: "argv-dump", startedAt: Date() - 60, endedAt: Date() - 50, outcome: .exit,
            pausedSeconds: 10, deepenCount: 0)])
        let programs = try run.host.stats()["programs"] as? [[String: Any]] ?? []
        let siteFigures = try #require(programs.first { $0["program"] as? String == Self.program }, "\(programs)")
        #expect(siteFigures["conscious_exits"] as? Int == 2)
        #expect(siteFigures["proceeds"] as? Int == 1)
        #expect(programs.contains { $0["program"] as? String == "argv-dump" && $0["conscious_exits"] as? Int == 1 }, "\(programs)")
    }

    @Test func chromiumPausesWithTheRealHost() throws { try pausesWithTheRealHost(firefox: false) }
    @Test func firefoxPausesWithTheRealHost() throws { try pausesWithTheRealHost(firefox: true) }

    /// A visit let through by Proceed ends when the tab leaves the site, for
    /// any page (MIGA's own focus page too); the site's page brought back by
    /// Back pauses again; and a Proceed on a site lets through none of a
    /// more particular site under it.
    @Test func chromiumEndsAVisitWhenTheTabLeavesAndPausesThePageBroughtBack() throws {
        let run = try Self.run(firefox: false, options: ["--pause", "2"], alsoProtected: [(site: "site.example/r/all", options: ["--pause", "2"])])
        func proceedToTheSite() throws {
            _ = try hostsPause(run)
            try run.browser.waitForProceedOpen()
            try run.browser.press("p")
            try eventually("the asked-for address opened", timeout: 60) { try run.browser.address() == Self.asked ? true : nil }
        }
        try proceedToTheSite()
        let other = "http://other.example/free?x=1"
        try run.browser.navigate(other)
        try eventually("the other site", timeout: 60) { try run.browser.text(of: "site") == "The site itself." && run.browser.address() == other ? true : nil }
        _ = try run.browser.evaluate("history.back(), 'back'")
        try eventually("the pause, back", timeout: 60) { try run.browser.address()?.hasPrefix(run.browser.pausePage) == true ? true : nil }

        try proceedToTheSite()
        try run.browser.navigate(run.browser.extensionBase + "focus.html")
        try eventually("the focus page", timeout: 60) { try run.browser.address() == run.browser.extensionBase + "focus.html" ? true : nil }
        _ = try run.browser.pauseShown(for: Self.asked)

        // A Proceed on the site is none on a more particular site under it: that one pauses of its own.
        try run.browser.waitForProceedOpen()
        try run.browser.press("p")
        try eventually("the asked-for address opened", timeout: 60) { try run.browser.address() == Self.asked ? true : nil }
        _ = try run.browser.pauseShown(for: "http://site.example/r/all/top")
    }

    /// `hold_when_unfocused` for a site: while the pause's tab is hidden
    /// behind another, the countdown holds; back in front, it runs on.
    @Test func chromiumHoldsTheCountdownWhileThePausesTabIsHidden() throws {
        let run = try Self.run(firefox: false, options: ["--pause", "10", "--hold-when-unfocused"])
        _ = try hostsPause(run)
        // The pause began before now: a countdown that ran on would be over 12 s from here.
        let overIfNotHeld = Date() + 12
        let chromium = try #require(run.browser as? ChromiumUnderTest)
        try chromium.coverWithAnotherTab()
        try eventually("the pause's tab hidden", timeout: 30) {
            try chromium.evaluate("document.visibilityState") == "hidden" ? true : nil
        }
        // Watched for as long as the whole pause would take: Proceed stays shut.
        var openedWhileHidden = false
        while Date() < overIfNotHeld && !openedWhileHidden {
            openedWhileHidden = try chromium.evaluate("String(state.proceedOpen)") == "true"
            usleep(250_000)
        }
        #expect(!openedWhileHidden, "the countdown ran on while the tab was hidden")
        try chromium.bringToFront()
        try run.browser.waitForProceedOpen()
    }

    /// The extension runs in private windows only when the person lets it
    /// (the browser's own opt-in): neither manifest asks for them. Chromium's
    /// says only how it runs there once let (`split`: a background of its
    /// own, without which its pages could not show in a private tab).
    @Test func neitherManifestAsksForPrivateWindows() throws {
        for browser in ["chromium", "firefox"] {
            let manifest = try Data(contentsOf: URL(fileURLWithPath: extensionSource + "/manifests/\(browser).json"))
            let keys = try #require(try JSONSerialization.jsonObject(with: manifest) as? [String: Any])
            #expect(keys["incognito"] == nil || keys["incognito"] as? String == "split", "\(browser): incognito is \(keys["incognito"] ?? "")")
            #expect(!String(decoding: manifest, as: UTF8.self).contains("privateBrowsing"))
        }
    }

    /// WCAG AA in the light look and the dark: every text of the pause page
    /// (the quote, the countdown, the buttons, the hints) against what is
    /// behind it, at least 4.5:1, or 3:1 for large text.
    @Test func chromiumPausePageMeetsWCAGAAInBothLooks() throws {
        let run = try Self.run(firefox: false)
        _ = try hostsPause(run)
        let chromium = try #require(run.browser as? ChromiumUnderTest)
        for scheme in ["light", "dark"] {
            try chromium.emulateColorScheme(scheme)
            try eventually("the \(scheme) look", timeout: 30) {
                try chromium.evaluate("String(matchMedia('(prefers-color-scheme: \(scheme))').matches)") == "true" ? true : nil
            }
            let measured = try #require(try chromium.evaluate(Self.contrasts).flatMap { jsonObject($0) })
            let background = try #require(measured["background"] as? Double)
            #expect(scheme == "light" ? background > 0.5 : background < 0.1, "\(scheme): the page's background luminance is \(background)")
            let texts = try #require(measured["texts"] as? [[String: Any]])
            #expect(texts.count == Self.measuredTexts.count)
            for text in texts {
                let ratio = text["ratio"] as? Double ?? 0
                let needed = text["large"] as? Bool == true ? 3.0 : 4.5
                #expect(ratio >= needed, "\(scheme): \(text["selector"] ?? "?") has \(ratio):1, under \(needed):1")
            }
        }
    }

    /// The texts measured: everything a pause page can show in words.
    static let measuredTexts = ["#header", "#facts", "#seconds", "#verses", "#source", "#alternative", "#answer-label",
                                "#answer-input", "#notice", "#longer", "#exit", "#exit kbd", "#deepen", "#instead",
                                "#proceed", "#proceed kbd", "#proceed[aria-disabled='false']", "#without-host"]

    /// WCAG's contrast ratio of each measured text's colour over the first
    /// opaque background behind it (an element's own or an ancestor's, the
    /// page's last), from the computed styles. `#proceed[aria-disabled='false']`
    /// is Proceed once open, measured on a copy of the button.
    static let contrasts = """
        (() => {
          const channel = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
          const parse = (text) => { const [r, g, b, a = 1] = text.match(/[\\d.]+/g).map(Number); return { r, g, b, a }; };
          const luminance = ({ r, g, b }) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
          const behind = (element) => {
            for (let node = element; node; node = node.parentElement) {
              const colour = parse(getComputedStyle(node).backgroundColor);
              if (colour.a === 1) return colour;
            }
            return parse(getComputedStyle(document.documentElement).backgroundColor);
          };
          const open = document.getElementById('proceed').cloneNode(true);
          open.id = 'proceed-open';
          open.setAttribute('aria-disabled', 'false');
          document.getElementById('choices').appendChild(open);
          const find = (selector) => selector === "#proceed[aria-disabled='false']" ? open : document.querySelector(selector);
          const texts = [\(measuredTexts.map { "\"\($0)\"" }.joined(separator: ", "))].map((selector) => {
            const element = find(selector);
            const style = getComputedStyle(element);
            const fore = luminance(parse(style.color)), back = luminance(behind(element));
            const ratio = (Math.max(fore, back) + 0.05) / (Math.min(fore, back) + 0.05);
            const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
            return { selector, ratio: Math.round(ratio * 100) / 100, large: size >= 24 || (bold && size >= 18.66) };
          });
          open.remove();
          return JSON.stringify({ background: luminance(behind(document.body)), texts });
        })()
        """
}
