#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAConfig
import MIGAStore
import MIGADesktop

/// Doctor's word on the browsers. A browser is covered when its extension
/// reaches MIGA: connected now, or the last time the browser ran. A host
/// manifest in place says only that it could: the extension may be missing,
/// switched off, or running in a profile that reads no manifest of MIGA's,
/// so a browser that has run since its extension last reached MIGA (or ran
/// and never reached it) is not covered, and one that has not run since is
/// not known. What is the person's choice (a browser not equipped while no
/// site is protected, private windows left out) is information, never a problem.
public struct BrowserCoverage {
    let setup: BrowserSetup
    /// The history, where what the extensions reported is kept (nil: none yet).
    let store: SessionStore?
    let connections: BrowserConnections
    let now: Date

    /// How long after the extension last reached MIGA the browser may still
    /// have written its settings (closing, say) and not have run since.
    static let settleTime: TimeInterval = 120

    public init(setup: BrowserSetup, store: SessionStore?, connections: BrowserConnections, now: Date) {
        self.setup = setup
        self.store = store
        self.connections = connections
        self.now = now
    }

    public func findings() -> [Finding] {
        let found = setup.finder.find()
        let sitesProtected = !KeptRules(paths: setup.finder.paths).protectedOnly(setup.config).sites.isEmpty
        if found.isEmpty {
            return setup.link.findings()
                + (sitesProtected ? [Finding(info: "browsers: none found, so no tab pauses the protected sites (MIGA's extension runs in "
                                                   + KnownBrowser.all.map(\.name).joined(separator: ", ") + ")")] : [])
        }
        let connected = Set(connections.live().map(\.browser))
        return setup.link.findings() + found.flatMap { browser -> [Finding] in
            let name = "browser: \(printable(browser.title))"
            if setup.isProtectedAsProgram(browser) {
                return [Finding(info: "\(name): protected as a program, so each start of it pauses")]
            }
            let program = "protect the browser as a program: miga protect \(printable(browser.command))"
            guard browser.canBeEquipped else {
                return [Finding(info: "\(name): not covered: its sandbox keeps MIGA's host out; \(program)")]
            }
            guard let manifest = reachingManifest(browser) else {
                guard sitesProtected else {
                    return [Finding(info: "\(name): not covered (miga browser setup equips it, once you protect a site)")]
                }
                return [Finding(ok: false, text: "\(name): not covered: protected sites open in it without a pause",
                                fix: "miga browser setup (or \(program))")]
            }
            return extensionFindings(browser, name: name, connected: connected.contains(browser.browser.id),
                                     equippedAt: modificationDate(of: manifest), sitesProtected: sitesProtected)
        }
    }

    /// What is known of `browser`'s extension, its host manifest in place since `equippedAt`.
    private func extensionFindings(_ browser: FoundBrowser, name: String, connected: Bool, equippedAt: Date?,
                                   sitesProtected: Bool) -> [Finding] {
        let id = browser.browser.id
        let lastRun = setup.finder.lastRun(of: browser.browser)
        let add = "add MIGA's extension to it: " + setup.extensionAdvice(browser.browser)
        let privateLine = Finding(info: "\(name): private windows: \(privateWindows(browser.browser))")
        if connected {
            return [Finding(ok: true, text: "\(name): covered: its extension is connected to MIGA now"), privateLine]
        }
        if let reached = BrowserConnections.lastReached(id, in: store) {
            let when = timeAgo(now.timeIntervalSince(reached))
            if let lastRun, lastRun > reached + Self.settleTime {
                return [problem("\(name): not covered: it ran \(timeAgo(now.timeIntervalSince(lastRun))), and its extension "
                                + "has not reached MIGA since \(when)", fix: add, sitesProtected), privateLine]
            }
            return [Finding(ok: true, text: "\(name): covered: its extension reached MIGA \(when), and the browser has not run since"),
                    privateLine]
        }
        if let lastRun, let equippedAt, lastRun > equippedAt + Self.settleTime {
            return [problem("\(name): not covered: it ran \(timeAgo(now.timeIntervalSince(lastRun))), and its extension "
                            + "has never reached MIGA", fix: add, sitesProtected)]
        }
        return [Finding(info: "\(name): not known yet: it has not run since MIGA equipped it; then \(add)")]
    }

    /// A browser not covered: a problem while a site is protected, else worth knowing.
    private func problem(_ text: String, fix: String, _ sitesProtected: Bool) -> Finding {
        sitesProtected ? Finding(ok: false, text: text, fix: fix) : Finding(info: text + " (" + fix + ")")
    }

    /// The manifest `browser` reads (this person's, or every user's from a
    /// package) that is MIGA's and starts this miga; nil when there is none.
    func reachingManifest(_ browser: FoundBrowser) -> String? {
        guard browser.canBeEquipped else { return nil }
        return ([setup.finder.hostsFolder(of: browser.browser)] + browser.browser.systemHosts).map { $0 + "/" + HostManifest.fileName }
            .first { file in
                guard case .ours(let manifest) = HostManifest.read(file) else { return false }
                return manifest.reaches(setup.link.gateway, for: browser.browser.engine)
            }
    }

    func privateWindows(_ browser: KnownBrowser) -> String {
        let allow = browser.engine == .firefox
            ? "about:addons, MIGA sites, Run in Private Windows: Allow"
            : (browser.name == "Brave" ? "brave://extensions" : "chrome://extensions") + ", MIGA sites, Details, Allow in Incognito"
        switch (try? store?.meta(BrowserConnections.privateWindowsKey(browser.id))) ?? nil {
        case "allowed": return "paused too"
        case "refused": return "not paused: to pause them, \(allow)"
        default: return "not reported yet (to pause them: \(allow))"
        }
    }
}
