import Foundation
@testable import MIGACore

/// One browser with MIGA's extension and the real `miga native-host`, as a
/// person has them: the sites protected with `miga protect --site`, the host
/// manifests written by `miga browser setup`, a loopback site that writes
/// down every request. The browser can be closed and started again on the
/// same profile.
final class SitesRun {
    let folder = BrowserFolder()
    let site: LoopbackSite
    let host: RealNativeHost
    let firefox: Bool
    private(set) var browser: BrowserUnderTest!

    /// `sites`: what `miga protect --site` is given, each with its options;
    /// `probe`: an address on one of them, visited until it pauses (the rules in place).
    init(firefox: Bool, sites: [(site: String, options: [String])] = [("site.example", ["--pause", "2"])],
         options: BrowserOptions = BrowserOptions(), probe: String? = "http://probe.site.example/") throws {
        try buildExtension()
        self.firefox = firefox
        site = try LoopbackSite()
        host = try RealNativeHost(in: folder, protecting: sites)
        try register()
        try start(options)
        if let probe, options.withExtension { try browser.waitForRedirects(probe: probe) }
    }

    // The browser dies before its folder goes.
    deinit { browser = nil }

    /// The host manifests in the browser's own folders.
    func register() throws {
        if firefox {
            try host.register(in: try FirefoxUnderTest.nativeHosts(in: folder), geckoID: FirefoxUnderTest.extensionID)
        } else {
            try host.register(in: try ChromiumUnderTest.nativeHosts(in: folder), chromiumID: ChromiumUnderTest.extensionID)
        }
    }

    /// Starts the browser (again, on the same profile).
    func start(_ options: BrowserOptions = BrowserOptions()) throws {
        browser = nil
        browser = try firefox ? FirefoxUnderTest(in: folder, site: site, options: options)
            : ChromiumUnderTest(in: folder, site: site, options: options)
    }

    /// Closes the browser as a person does, and waits until it is gone.
    func stop() throws {
        try browser.close()
        browser = nil
    }

    /// `miga ARGUMENTS` on the browser's history and config.
    func miga(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try run(migaBinary, arguments, environment: host.environment)
    }

    /// The pages the site served on `host` so far.
    func pages(on host: String = "site.example") -> [String] { site.pages(on: host) }

    /// Whether the tab shows the site's own page.
    func showsTheSite() throws -> Bool { try browser.text(of: "site") == "The site itself." }

    /// Goes to `url` and waits for the site's own page (not the pause).
    func siteShown(for url: String) throws {
        try browser.navigate(url)
        try eventually("the site's own page at \(url)", timeout: 60) { try showsTheSite() ? true : nil }
    }

    /// Proceeds through the pause on screen, once Proceed opens, and waits for `url`.
    func proceed(to url: String) throws {
        try browser.waitForProceedOpen()
        try browser.press("p")
        try eventually("the asked-for address opened", timeout: 60) { try browser.address() == url ? true : nil }
    }
}
