import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGADesktop

/// A protected browser made the default, as its "Make default" button does:
/// the real `xdg-settings` on a generic desktop rewrites the MimeType line of
/// MIGA's override. The override stays MIGA's: doctor finds it fine, refresh
/// follows the package's next change and keeps the desktop's, and a launch
/// from the menu still reaches the pause.
@Suite(.serialized, .endToEnd) struct DefaultBrowserEndToEndTests {
    let sandbox = Sandbox()
    let server: NotificationServer
    let tmux: Tmux
    var override: String { sandbox.root + "/data/applications/firefox-esr.desktop" }
    var source: String { sandbox.root + "/system/applications/firefox-esr.desktop" }

    /// As Debian's firefox-esr package writes it (translations left out), with the program in this sandbox.
    func entry(named name: String) -> String {
        """
        [Desktop Entry]
        Name=\(name)
        Comment=Browse the World Wide Web
        GenericName=Web Browser
        X-GNOME-FullName=Firefox ESR Web Browser
        Exec=\(sandbox.root)/bin/firefox-esr %u
        Terminal=false
        X-MultipleArgs=false
        Type=Application
        Icon=firefox-esr
        Categories=Network;WebBrowser;
        MimeType=text/html;text/xml;application/xhtml+xml;application/xml;application/vnd.mozilla.xul+xml;application/rss+xml;application/rdf+xml;image/gif;image/jpeg;image/png;x-scheme-handler/http;x-scheme-handler/https;
        StartupWMClass=firefox-esr
        StartupNotify=true

        """
    }

    init() throws {
        server = try NotificationServer(folder: sandbox.root + "/server")
        // The browser: each start leaves a file of its arguments (NUL-separated), written aside and renamed.
        try sandbox.program("firefox-esr", """
            #!/bin/sh
            printf '%s\\0' "$@" > "\(sandbox.root)/launch.$$.tmp"
            /bin/mv "\(sandbox.root)/launch.$$.tmp" "\(sandbox.root)/launch.$$"
            """)
        tmux = try Tmux(command: "sleep 600", environment: sandbox.environment)
        try FileManager.default.createDirectory(atPath: sandbox.root + "/system/applications", withIntermediateDirectories: true)
        try entry(named: "Firefox ESR").write(toFile: source, atomically: true, encoding: .utf8)
        try sandbox.terminal(into: tmux)
    }

    /// A session with no desktop of its own: xdg-settings takes its generic way.
    var environment: [String: String] {
        sandbox.environment.merging(["XDG_DATA_DIRS": sandbox.root + "/system", "SHELL": "/bin/bash", "TERMINAL": "gnome-terminal",
                                     "DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress,
                                     "XDG_CURRENT_DESKTOP": "X-Generic"]) { $1 }
    }

    func launches() throws -> [[String]] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.root).filter { $0.hasPrefix("launch.") && !$0.hasSuffix(".tmp") }
            .compactMap { sandbox.bytes($0) }
            .map { bytes in bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) } }
    }

    func current() throws -> DesktopEntry {
        try DesktopEntry(text: try #require(sandbox.read("data/applications/firefox-esr.desktop")))
    }

    /// Doctor's line for the override says it starts the pause, and nothing says it was edited by hand.
    func doctorFindsTheOverrideFine() throws {
        let doctor = try run(migaBinary, ["doctor"], environment: environment)
        #expect(doctor.output.contains("✓ menu: \(override) starts the pause, then firefox-esr as \(source) says"), "\(doctor.output)")
        #expect(!doctor.output.contains("edited by hand"), "\(doctor.output)")
    }

    @Test func made_the_default_browser_the_override_stays_migas_follows_its_package_and_still_pauses() throws {
        let protect = try run(migaBinary, ["protect", "firefox-esr", "--pause", "1"], environment: environment)
        #expect(protect.status == 0, "\(protect.error)")

        let settings = try run("/usr/bin/xdg-settings", ["set", "default-web-browser", "firefox-esr.desktop"], environment: environment)
        #expect(settings.status == 0, "\(settings.error)")
        #expect(try run("/usr/bin/xdg-settings", ["get", "default-web-browser"], environment: environment).output == "firefox-esr.desktop\n")
        let desktops = try #require(try current().value("MimeType"))
        #expect(desktops.hasPrefix("x-scheme-handler/unknown;x-scheme-handler/about;text/html;"), "xdg-settings edited the override: \(desktops)")
        try doctorFindsTheOverrideFine()

        // The package's next version renames the entry: refresh follows it, and keeps the desktop's MimeType.
        try entry(named: "Firefox ESR (Extended Support Release)").write(toFile: source, atomically: true, encoding: .utf8)
        let refresh = try run(migaBinary, ["refresh"], environment: environment)
        #expect(refresh.status == 0, "\(refresh.error)")
        #expect(!refresh.output.contains("edited by hand"), "\(refresh.output)")
        #expect(try current().value("Name") == "Firefox ESR (Extended Support Release)")
        #expect(try current().value("MimeType") == desktops)
        try doctorFindsTheOverrideFine()
        let fix = try run(migaBinary, ["doctor", "--fix"], environment: environment)
        #expect(!fix.output.contains("edited by hand"), "\(fix.output)")
        #expect(try current().value("MimeType") == desktops)

        // A link opened from the menu's entry reaches the pause, then the browser with the link.
        let launcher = try run("/usr/bin/gio", ["launch", override, "https://example.org/"], environment: environment)
        #expect(launcher.status == 0, "\(launcher.error)")
        try tmux.proceedInWindow(1, name: "Firefox ESR")
        #expect(try eventually("the browser to start") { try launches().first } == ["https://example.org/"])
        #expect(try sandbox.sessions().map(\.outcome) == [.proceed])
    }
}
