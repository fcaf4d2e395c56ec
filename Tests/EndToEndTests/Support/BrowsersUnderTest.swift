import Foundation

/// What the sites' tests do with either browser: go to an address, read
/// the page, press a key. Both hold the extension built by `make extension`.
protocol BrowserUnderTest: AnyObject {
    /// The extension's pages begin with this (`chrome-extension://ID/`, `moz-extension://UUID/`).
    var extensionBase: String { get }
    /// The extension API's name in a page: `chrome` or `browser`.
    var api: String { get }
    func navigate(_ url: String) throws
    func evaluate(_ expression: String) throws -> String?
    func press(_ key: String) throws
    /// A new tab, in front: later calls go to it.
    func openTab() throws
    /// Closes the browser as a person does, its settings written, and waits for it to end.
    func close() throws
}

extension BrowserUnderTest {
    func address() throws -> String? { try evaluate("location.href") }

    func text(of id: String) throws -> String? {
        try evaluate("document.getElementById('\(id)') ? document.getElementById('\(id)').textContent : null")
    }

    var pausePage: String { extensionBase + "pause.html" }

    /// The host's rules asked for at start-up and made a redirect: `probe`,
    /// on a protected site (a witness of its own in the site's log), goes
    /// to the pause. (Firefox's BiDi may not open the extension's own pages.)
    func waitForRedirects(probe: String) throws {
        try eventually("the site's redirect rule", timeout: 90) { () -> Bool? in
            try navigate(probe)
            let landed = try eventually("the probe's page", timeout: 15) { () -> String? in
                guard let address = try address(), address.hasPrefix(extensionBase) || address.hasPrefix(probe) else { return nil }
                return address
            }
            return landed.hasPrefix(pausePage) ? true : nil
        }
        // The probe's pause is begun (the host has recorded it) before the test
        // goes on: one begun late, under load, would pass for the test's own.
        _ = try eventually("the probe's pause", timeout: 60) { try text(of: "verses").flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// Goes to `url` and waits for the pause page's quote; its verses. The
    /// document the tab shows before is marked, so that a pause page it may
    /// be on already is not taken for the new one.
    func pauseShown(for url: String) throws -> String {
        _ = try evaluate("window.migaLeft = true")
        try navigate(url)
        try eventually("the pause page", timeout: 60) {
            try address()?.hasPrefix(pausePage) == true && evaluate("String(window.migaLeft === true)") == "false" ? true : nil
        }
        return try eventually("the pause's quote", timeout: 60) { try text(of: "verses").flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// Waits for the pause's Proceed to open (its countdown at zero).
    func waitForProceedOpen() throws {
        try eventually("Proceed open at zero", timeout: 30) {
            try evaluate("document.getElementById('proceed').getAttribute('aria-disabled')") == "false" ? true : nil
        }
    }
}

/// A temporary folder for one browser run: profile, home, logs. Removed at the end.
final class BrowserFolder {
    let root: String

    init() {
        var template = Array("/tmp/miga-browser-XXXXXX".utf8CString)
        root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func make(_ path: String) throws -> String {
        try FileManager.default.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
        return root + "/" + path
    }
}

/// How a browser under test starts.
struct BrowserOptions {
    /// Every host the browser asks for goes to the loopback site (the table
    /// of addresses), not only the tests' own (site.example, other.example).
    var everyHost = false
    /// The loopback site's http hosts count as secure, so that a site's service worker may run there.
    var workers = false
    /// The address of the browser's first tab (about:blank when nil).
    var startURL: String?
    /// Whether the extension is there at all.
    var withExtension = true
    /// Whether the person lets the extension run in private windows.
    var privateWindows = false
}

/// A browser in its own process group, its output to a file; the whole group is killed at the end.
final class BrowserProcess {
    let pid: pid_t

    init(_ executable: String, _ arguments: [String], environment: [String: String], output: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = shellLikeSpawnAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        pid = try spawnProcess(executable, arguments, environment: environment, actions: &actions, attributes: &attributes)
    }

    deinit {
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Waits for the browser to end by itself (after it was asked to close), up to a ceiling.
    func waitForExit() {
        _ = try? eventually("the browser's end", timeout: 30) { () -> Bool? in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) == pid ? true : nil
        }
    }
}

/// The environment a browser gets: a private HOME and nothing of the test runner's desktop.
func browserEnvironment(home: String) -> [String: String] {
    ["HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "XDG_CONFIG_HOME": home + "/.config",
     "XDG_CACHE_HOME": home + "/.cache", "XDG_DATA_HOME": home + "/.local/share", "TMPDIR": home]
}

/// The repository's root, from this file's place in it.
let repositoryRoot: String = {
    var folder = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { folder.deleteLastPathComponent() }
    return folder.path
}()

/// The extension's source (Extension/).
var extensionSource: String { repositoryRoot + "/Extension" }

/// `make extension` run once per test process, so that the browsers load the current source.
private let extensionBuild = Result { try run("/usr/bin/make", ["-C", repositoryRoot, "-s", "extension"]) }

func buildExtension() throws {
    let build = try extensionBuild.get()
    guard build.status == 0 else { throw ProtocolError(description: "make extension failed: \(build.output)\(build.error)") }
}

/// A folder `make extension` built: `chromium` or `firefox`.
func builtExtension(_ browser: String) -> String {
    repositoryRoot + "/.build/extension/" + browser
}

/// Debian's chromium, headless, the extension unpacked, the DevTools protocol on a free port.
final class ChromiumUnderTest: BrowserUnderTest {
    /// From the manifest's `key` (Extension/README.md).
    static let extensionID = "cbgolgnocihlfhpkfbbocelojnaodpbo"
    let extensionBase = "chrome-extension://\(extensionID)/"
    let api = "chrome"
    let userData: String
    private let process: BrowserProcess
    private let devtools: DevToolsClient

    /// Host manifests of this profile go in `nativeHosts(in:)`, written before
    /// the start: the profile is the one `XDG_CONFIG_HOME` names, as a person's is.
    static func nativeHosts(in folder: BrowserFolder) throws -> String { try folder.make("home/.config/chromium/NativeMessagingHosts") }

    init(in folder: BrowserFolder, site: LoopbackSite, options: BrowserOptions = BrowserOptions()) throws {
        userData = try folder.make("home/.config/chromium")
        let home = try folder.make("home")
        try? FileManager.default.removeItem(atPath: userData + "/DevToolsActivePort")
        let hosts = options.everyHost ? "MAP * 127.0.0.1:\(site.port)"
            : "MAP site.example 127.0.0.1:\(site.port), MAP *.site.example 127.0.0.1:\(site.port), MAP other.example 127.0.0.1:\(site.port), "
                + "MAP *.other.example 127.0.0.1:\(site.port)"
        var arguments = [
            "--headless=new", "--no-sandbox", "--user-data-dir=\(userData)", "--remote-debugging-port=0",
            "--no-first-run", "--disable-gpu", "--disable-features=DisableLoadExtensionCommandLineSwitch,HttpsUpgrades",
            "--host-resolver-rules=\(hosts)",
        ]
        if options.withExtension { arguments.append("--load-extension=\(builtExtension("chromium"))") }
        if options.workers {
            arguments.append("--unsafely-treat-insecure-origin-as-secure=http://site.example,http://www.site.example,http://other.example")
        }
        process = try BrowserProcess("/usr/bin/chromium", arguments + [options.startURL ?? "about:blank"],
                                     environment: browserEnvironment(home: home), output: folder.root + "/chromium.log")
        let portFile = userData + "/DevToolsActivePort"
        let port = try eventually("Chromium's DevToolsActivePort", timeout: 90) {
            (try? String(contentsOfFile: portFile, encoding: .utf8))?.split(separator: "\n").first.flatMap { Int($0) }
        }
        devtools = try DevToolsClient(port: port)
        if options.startURL == nil { try devtools.openTab() } else { try devtools.attachToFirstTab() }
        if options.privateWindows { try allowPrivateWindows() }
    }

    /// The person's opt-in: the extension may run in private windows
    /// (chrome://extensions, Details, Allow in Incognito). The extension reloads.
    private func allowPrivateWindows() throws {
        let page = try devtools.attachedTab(url: "chrome://extensions/")
        _ = try devtools.evaluate(in: page, """
            chrome.developerPrivate.updateProfileConfiguration({inDeveloperMode: true})
              .then(() => chrome.developerPrivate.updateExtensionConfiguration({extensionId: '\(Self.extensionID)', incognitoAccess: true}))
              .then(() => 'allowed')
            """)
    }

    /// A tab in a private window, in front: later calls go to it.
    func openPrivateTab() throws { try devtools.openTab(private: true) }

    func close() throws {
        _ = try? devtools.call("Browser.close", inPage: false, timeout: 10)
        process.waitForExit()
    }

    func navigate(_ url: String) throws { try devtools.navigate(url) }
    func evaluate(_ expression: String) throws -> String? { try devtools.evaluate(expression) }
    func press(_ key: String) throws { try devtools.press(key) }
    func openTab() throws { try devtools.openTab() }

    /// Another tab brought to the front, this one left behind it, hidden
    /// (later calls still go to this one).
    func coverWithAnotherTab() throws {
        // The focus emulated for key presses keeps a tab shown: off, so the covered one hides.
        try devtools.call("Emulation.setFocusEmulationEnabled", ["enabled": false])
        try devtools.call("Target.createTarget", ["url": "about:blank"], inPage: false)
    }

    /// This tab to the front again.
    func bringToFront() throws {
        try devtools.call("Page.bringToFront")
        try devtools.call("Emulation.setFocusEmulationEnabled", ["enabled": true])
    }

    /// The page as it looks under `prefers-color-scheme: scheme` (light, dark).
    func emulateColorScheme(_ scheme: String) throws {
        try devtools.call("Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": scheme]]])
    }
}

/// Debian's firefox-esr, headless, in a private profile whose proxy is the loopback
/// site; WebDriver BiDi on a free port; the extension installed through BiDi.
final class FirefoxUnderTest: BrowserUnderTest {
    static let extensionID = "sites@miga"
    /// The extension's internal UUID, fixed by the profile so its pages have a known address.
    static let extensionUUID = "3f1e9a52-6b7c-4d1e-9a0b-5c2d7e8f9a10"
    let extensionBase = "moz-extension://\(extensionUUID)/"
    let api = "browser"
    private let process: BrowserProcess
    private let bidi: BiDiClient

    /// Host manifests for this HOME go in `nativeHosts(in:)`, written before the start.
    static func nativeHosts(in folder: BrowserFolder) throws -> String { try folder.make("home/.mozilla/native-messaging-hosts") }

    /// `options.startURL`: the extension is installed in the profile (as a
    /// person's is) rather than for this run, and the browser starts with
    /// that address; Firefox finds an add-on put in the profile at the start
    /// after it is put there, so such a test starts the browser once before.
    init(in folder: BrowserFolder, site: LoopbackSite, options: BrowserOptions = BrowserOptions()) throws {
        let profile = try folder.make("firefox-profile")
        let home = try folder.make("home")
        let preferences: [(String, String)] = [
            ("network.proxy.type", "1"), ("network.proxy.http", "\"127.0.0.1\""), ("network.proxy.http_port", "\(site.port)"),
            ("network.proxy.no_proxies_on", "\"\""), ("network.proxy.allow_hijacking_localhost", "true"),
            ("dom.security.https_first", "false"), ("dom.security.https_first_schemeless", "false"),
            ("dom.security.https_only_mode", "false"), ("browser.fixup.alternate.enabled", "false"),
            ("network.captive-portal-service.enabled", "false"), ("network.connectivity-service.enabled", "false"),
            ("browser.shell.checkDefaultBrowser", "false"), ("browser.startup.homepage_override.mstone", "\"ignore\""),
            ("browser.aboutwelcome.enabled", "false"), ("datareporting.policy.dataSubmissionEnabled", "false"),
            ("toolkit.telemetry.reportingpolicy.firstRun", "false"), ("app.update.auto", "false"),
            ("extensions.autoDisableScopes", "0"), ("xpinstall.signatures.required", "false"),
            ("extensions.webextensions.uuids", "\"{\\\"\(Self.extensionID)\\\":\\\"\(Self.extensionUUID)\\\"}\""),
            ("remote.prefs.recommended", "true"), ("dom.serviceWorkers.testing.enabled", options.workers ? "true" : "false"),
            ("browser.sessionstore.resume_from_crash", "false"),
        ]
        if options.privateWindows {
            // The person's opt-in (about:addons, Run in Private Windows), as Firefox keeps it.
            try #"{"sites@miga":{"permissions":["internal:privateBrowsingAllowed"],"origins":[]}}"#
                .write(toFile: profile + "/extension-preferences.json", atomically: true, encoding: .utf8)
        }
        let inProfile = options.startURL != nil
        if inProfile && options.withExtension {
            try FileManager.default.createDirectory(atPath: profile + "/extensions", withIntermediateDirectories: true)
            try builtExtension("firefox").write(toFile: profile + "/extensions/" + Self.extensionID, atomically: true, encoding: .utf8)
        }
        try preferences.map { "user_pref(\"\($0.0)\", \($0.1));\n" }.joined()
            .write(toFile: profile + "/user.js", atomically: true, encoding: .utf8)
        let log = folder.root + "/firefox.log"
        var environment = browserEnvironment(home: home)
        environment["MOZ_HEADLESS"] = "1"
        process = try BrowserProcess("/usr/bin/firefox-esr", [
            "--headless", "--no-remote", "--profile", profile, "--remote-debugging-port", "0",
        ] + (options.startURL.map { [$0] } ?? []), environment: environment, output: log)
        let port = try eventually("Firefox's WebDriver BiDi port", timeout: 90) { () -> Int? in
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            guard let range = text.range(of: "WebDriver BiDi listening on ws://127.0.0.1:") else { return nil }
            return Int(text[range.upperBound...].prefix { $0.isNumber })
        }
        bidi = try BiDiClient(port: port)
        if !inProfile && options.withExtension { _ = try bidi.installExtension(path: builtExtension("firefox")) }
    }

    func close() throws {
        _ = try? bidi.call("browser.close", [:], timeout: 10)
        process.waitForExit()
    }

    /// A tab in a private window, opened by the extension from its page the
    /// tab shows, in front: later calls go to it.
    func openPrivateTab() throws {
        _ = try evaluate("browser.windows.create({incognito: true, url: 'about:blank'}).then(() => 'opened')")
        try bidi.switchToNewestContext()
    }

    func navigate(_ url: String) throws { try bidi.navigate(url) }
    func evaluate(_ expression: String) throws -> String? { try bidi.evaluate(expression) }
    func press(_ key: String) throws { try bidi.press(key) }
    func openTab() throws { try bidi.openTab() }
}
