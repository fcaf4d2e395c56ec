import MIGACore
import MIGAConfig
import MIGAStore
import MIGADesktop

/// Doctor's word on the browsers: which can pause protected sites (their
/// host manifest present and pointing at this miga), which cannot and what
/// to do instead, and whether private windows pause too. What is the
/// person's choice (a browser not equipped while no site is protected,
/// private windows left out) is information, never a problem.
public struct BrowserCoverage {
    let setup: BrowserSetup
    /// The history, where the extension's reports are kept (nil: none yet).
    let store: SessionStore?

    public init(setup: BrowserSetup, store: SessionStore?) {
        self.setup = setup
        self.store = store
    }

    public func findings() -> [Finding] {
        let found = setup.finder.find()
        let sitesProtected = !setup.config.sites.isEmpty
        if found.isEmpty {
            return sitesProtected ? [Finding(info: "browsers: none found, so no tab pauses the protected sites (MIGA's extension runs in "
                                                  + KnownBrowser.all.map(\.name).joined(separator: ", ") + ")")] : []
        }
        return found.flatMap { browser -> [Finding] in
            let name = "browser: \(printable(browser.title))"
            if isCovered(browser) {
                return [Finding(ok: true, text: "\(name): covered: MIGA's extension, once added, reaches MIGA from it"),
                        Finding(info: "\(name): private windows: \(privateWindows(browser.browser.engine))")]
            }
            if setup.isProtectedAsProgram(browser) {
                return [Finding(info: "\(name): not covered for sites; protected as a program, so each start of it pauses")]
            }
            let program = "protect the browser as a program: miga protect \(printable(browser.command))"
            guard browser.canBeEquipped else {
                return [Finding(info: "\(name): not covered: its sandbox keeps MIGA's host out; \(program)")]
            }
            guard sitesProtected else {
                return [Finding(info: "\(name): not covered (miga browser setup equips it, once you protect a site)")]
            }
            return [Finding(ok: false, text: "\(name): not covered: protected sites open in it without a pause",
                            fix: "miga browser setup (or \(program))")]
        }
    }

    /// Whether a manifest `browser` reads (this person's, or every user's
    /// from a package) is MIGA's and starts this miga.
    func isCovered(_ browser: FoundBrowser) -> Bool {
        guard browser.canBeEquipped else { return false }
        return ([setup.finder.hostsFolder(of: browser.browser)] + browser.browser.systemHosts).contains { folder in
            guard case .ours(let manifest) = HostManifest.read(folder + "/" + HostManifest.fileName) else { return false }
            return manifest.reaches(setup.link.gateway, for: browser.browser.engine)
        }
    }

    func privateWindows(_ engine: NativeHost.Browser) -> String {
        switch (try? store?.meta(NativeHost.privateWindowsKey(engine))) ?? nil {
        case "allowed": "paused too"
        case "refused": "not paused (allow the extension in private windows to cover them)"
        default: "not reported yet"
        }
    }
}
