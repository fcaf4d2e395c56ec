import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAStore

/// `miga browser setup` with the real binary in a private home: the browsers
/// on PATH equipped (their manifests' JSON, a host path that is this miga
/// and answers as the browser would start it), a Snap browser named with
/// what to do instead, and doctor's word on each afterwards.
@Suite(.endToEnd) struct BrowserSetupEndToEndTests {
    let sandbox = Sandbox()
    var firefoxManifest: String { sandbox.root + "/.mozilla/native-messaging-hosts/miga.json" }
    var chromiumManifest: String { sandbox.root + "/config/chromium/NativeMessagingHosts/miga.json" }
    var environment: [String: String] {
        var environment = sandbox.environment
        environment["PATH"] = sandbox.root + "/snap/bin:" + environment["PATH"]!
        return environment
    }

    init() throws {
        try sandbox.program("firefox-esr", "#!/bin/sh\nexit 0\n")
        try sandbox.program("chromium", "#!/bin/sh\nexit 0\n")
        // A Snap's command is a link in /snap/bin to `snap`.
        try FileManager.default.createDirectory(atPath: sandbox.root + "/snap/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sandbox.root + "/usr/bin", withIntermediateDirectories: true)
        try "#!/bin/sh\nexit 1\n".write(toFile: sandbox.root + "/usr/bin/snap", atomically: true, encoding: .utf8)
        chmod(sandbox.root + "/usr/bin/snap", 0o755)
        symlink(sandbox.root + "/usr/bin/snap", sandbox.root + "/snap/bin/firefox")
    }

    func manifest(_ file: String) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: file), "no \(file)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Messages framed as the browser frames them (each shorter than 128 bytes).
    func framed(_ message: String) -> String {
        String(UnicodeScalar(UInt8(message.utf8.count))) + "\0\0\0" + message
    }

    @Test func setup_equips_each_browser_and_the_host_answers_as_the_browser_starts_it() throws {
        try sandbox.config("[sites.\"youtube.com\"]\npause = 30\n")
        let setup = try run(migaBinary, ["browser", "setup"], environment: environment)
        #expect(setup.status == 0, "\(setup.output)\(setup.error)")
        #expect(setup.output.contains("✓ Firefox ESR: equipped (\(firefoxManifest))"), "\(setup.output)")
        #expect(setup.output.contains("✓ Chromium: equipped (\(chromiumManifest))"), "\(setup.output)")
        #expect(setup.output.contains("· Firefox (Snap): cannot be equipped"), "\(setup.output)")
        #expect(setup.output.contains("Protect the browser as a program instead: miga protect firefox"), "\(setup.output)")
        #expect(setup.output.contains("chrome://extensions, switch on Developer mode, choose Load unpacked"), "\(setup.output)")
        // The extension's steps, after every browser's line, once for each browser that takes them.
        let steps = try #require(setup.output.components(separatedBy: "Then add MIGA's extension:\n").last, "\(setup.output)")
        #expect(steps.contains("  Chromium: the extension: open chrome://extensions") && steps.contains("  Firefox ESR: the add-on:"),
                "\(setup.output)")
        #expect(setup.output.components(separatedBy: "Load Temporary Add-on").count == 2, "\(setup.output)")

        let firefox = try manifest(firefoxManifest), chromium = try manifest(chromiumManifest)
        #expect(firefox["name"] as? String == "miga" && firefox["type"] as? String == "stdio")
        #expect(firefox["allowed_extensions"] as? [String] == ["sites@miga"])
        #expect(chromium["allowed_origins"] as? [String] == ["chrome-extension://cbgolgnocihlfhpkfbbocelojnaodpbo/"])
        let host = try #require(firefox["path"] as? String)
        #expect(chromium["path"] as? String == host)
        #expect(host.hasPrefix("/") && host.hasSuffix("/miga-native-host"))
        #expect(URL(fileURLWithPath: host).resolvingSymlinksInPath().path == URL(fileURLWithPath: migaBinary).resolvingSymlinksInPath().path)

        // Started as Firefox starts it: the manifest's path and the add-on's ID.
        let answer = try run(host, [firefoxManifest, "sites@miga"], environment: sandbox.environment, input: framed(#"{"type":"rules"}"#))
        #expect(answer.status == 0, "\(answer.error)")
        #expect(answer.output.contains(#"{"type":"rules","#) || answer.output.contains(#""type":"rules""#), "\(answer.output)")
        #expect(answer.output.contains(#""program":"site:youtube.com""#), "\(answer.output)")
        let asChromium = try run(host, ["chrome-extension://cbgolgnocihlfhpkfbbocelojnaodpbo/"], environment: sandbox.environment,
                                 input: framed(#"{"type":"rules"}"#))
        #expect(asChromium.output.contains(#""program":"site:youtube.com""#), "\(asChromium.output)")

        // Again: nothing changes.
        let before = try String(contentsOfFile: firefoxManifest, encoding: .utf8)
        let again = try run(migaBinary, ["browser", "setup"], environment: environment)
        #expect(again.status == 0)
        #expect(again.output.contains("✓ Firefox ESR: equipped already"), "\(again.output)")
        #expect(try String(contentsOfFile: firefoxManifest, encoding: .utf8) == before)

        let json = try run(migaBinary, ["browser", "setup", "--json"], environment: environment)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let browsers = try #require(report["browsers"] as? [[String: Any]])
        #expect(browsers.map { $0["state"] as? String } == ["cannot", "equipped", "equipped"])
    }

    @Test func a_folder_name_with_control_characters_reaches_the_terminal_as_text() throws {
        var environment = environment
        environment["XDG_CONFIG_HOME"] = sandbox.root + "/config\u{1B}]2;owned\u{07}\u{1B}[2J"
        let setup = try run(migaBinary, ["browser", "setup"], environment: environment)
        #expect(setup.status == 0, "\(setup.error)")
        #expect(setup.output.contains("✓ Chromium: equipped"), "\(setup.output)")
        #expect(!setup.output.contains("\u{1B}") && !setup.output.contains("\u{07}"), "\(setup.output.debugDescription)")
        let json = try run(migaBinary, ["browser", "setup", "--json"], environment: environment)
        #expect(!json.output.contains("\u{1B}"))
        #expect(json.output.contains("\\u001b]2;owned"), "\(json.output)")
    }

    @Test func doctor_names_each_browser_covered_or_not_and_its_private_windows() throws {
        try sandbox.config("[sites.\"youtube.com\"]\npause = 30\n")
        let before = try run(migaBinary, ["doctor"], environment: environment)
        #expect(before.output.contains("✗ browser: Chromium: not covered: protected sites open in it without a pause"), "\(before.output)")
        #expect(before.output.contains("fix: miga browser setup"), "\(before.output)")
        #expect(before.output.contains("· browser: Firefox (Snap): not covered: its sandbox keeps MIGA's host out; "
                                       + "protect the browser as a program: miga protect firefox"), "\(before.output)")

        #expect(try run(migaBinary, ["browser", "setup"], environment: environment).status == 0)
        // Firefox's extension reached MIGA (and said it may not run in private windows); Chromium's has not yet.
        let store = try SessionStore(path: sandbox.storePath)
        try store.setMeta("sites.private-windows.firefox", "refused")
        try store.setMeta("sites.reached.firefox", String(Date().milliseconds))
        let after = try run(migaBinary, ["doctor"], environment: environment)
        #expect(!after.output.contains("✗ browser"), "\(after.output)")
        #expect(after.output.contains("✓ browser: Firefox ESR: covered: its extension reached MIGA moments ago"), "\(after.output)")
        #expect(after.output.contains("· browser: Firefox ESR: private windows: not paused: to pause them, about:addons, "
                                      + "MIGA sites, Run in Private Windows: Allow"), "\(after.output)")
        #expect(after.output.contains("· browser: Chromium: not known yet"), "\(after.output)")
    }
}
