import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGAKit
@testable import MIGADesktop
@testable import MIGATestSupport

/// Browsers found in a fixture home and PATH, and the manifests written for them.
@Suite struct BrowserSetupTests {
    let folder = TemporaryDirectory()
    var root: String { folder.path }
    var environment: [String: String] {
        ["HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_DATA_HOME": root + "/data",
         "PATH": root + "/bin:" + root + "/snap/bin:" + root + "/flatpak/exports/bin"]
    }
    /// The miga the link points at.
    var gateway: String { root + "/prefix/bin/miga" }

    init() throws {
        for sub in ["bin", "snap/bin", "flatpak/exports/bin", "prefix/bin", "prefix/share/miga/extension/firefox", "usr/bin"] {
            try FileManager.default.createDirectory(atPath: folder.path + "/" + sub, withIntermediateDirectories: true)
        }
        try executable("prefix/bin/miga")
        try "{}".write(toFile: folder.path + "/prefix/share/miga/extension/firefox/manifest.json", atomically: true, encoding: .utf8)
    }

    func executable(_ relative: String) throws {
        try "#!/bin/sh\n".write(toFile: root + "/" + relative, atomically: true, encoding: .utf8)
        chmod(root + "/" + relative, 0o755)
    }

    func setup(config: Config = Config()) -> BrowserSetup {
        BrowserSetup(environment: environment, gateway: gateway, running: gateway, config: config)
    }

    func json(_ file: String) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: file))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func each_engines_manifest_names_the_host_link_and_only_migas_extension() throws {
        let chromium = try JSONSerialization.jsonObject(with: Data(HostManifest(engine: .chromium, path: "/h/miga-native-host").text.utf8))
            as? [String: Any]
        #expect(chromium?["name"] as? String == "miga")
        #expect(chromium?["type"] as? String == "stdio")
        #expect(chromium?["path"] as? String == "/h/miga-native-host")
        #expect(chromium?["allowed_origins"] as? [String] == ["chrome-extension://cbgolgnocihlfhpkfbbocelojnaodpbo/"])
        #expect(chromium?["allowed_extensions"] == nil)
        let firefox = try JSONSerialization.jsonObject(with: Data(HostManifest(engine: .firefox, path: "/h/miga-native-host").text.utf8))
            as? [String: Any]
        #expect(firefox?["allowed_extensions"] as? [String] == ["sites@miga"])
        #expect(firefox?["allowed_origins"] == nil)
        #expect(HostManifest(engine: .firefox, path: "/h/miga-native-host").text.contains("\"/h/miga-native-host\""))
    }

    @Test func browsers_are_found_by_their_commands_and_their_settings_folders() throws {
        try executable("bin/firefox-esr")
        try executable("bin/chromium-browser")
        // Chrome ran here once, started some other way.
        try FileManager.default.createDirectory(atPath: root + "/config/google-chrome", withIntermediateDirectories: true)
        // Firefox's folder is Firefox ESR's too: one browser there.
        try FileManager.default.createDirectory(atPath: root + "/.mozilla/firefox", withIntermediateDirectories: true)
        let found = BrowserFinder(environment: environment).find()
        #expect(found.map(\.title) == ["Firefox ESR", "Chromium", "Google Chrome"])
        try #require(found.count == 3)
        #expect(found[0].installation == .native(root + "/bin/firefox-esr"))
        #expect(found[1].command == "chromium-browser")
        #expect(found[2].installation == .settingsOnly)
        #expect(found.allSatisfy { $0.canBeEquipped })
    }

    @Test func a_snap_or_flatpak_browser_is_found_as_one_and_cannot_be_equipped() throws {
        // A Snap's command is a link to `snap`; a Flatpak app's is exported by its ID.
        try executable("usr/bin/snap")
        #expect(symlink(root + "/usr/bin/snap", root + "/snap/bin/firefox") == 0)
        try executable("flatpak/exports/bin/com.brave.Browser")
        let found = BrowserFinder(environment: environment).find()
        #expect(found.map(\.installation) == [.snap(root + "/snap/bin/firefox"), .flatpak("com.brave.Browser")])
        #expect(found.map(\.title) == ["Firefox (Snap)", "Brave (Flatpak)"])
        let outcomes = setup().run().outcomes
        #expect(outcomes.map(\.state) == [.cannot, .cannot])
        try #require(outcomes.count == 2)
        #expect(outcomes[0].advice == ["its sandbox keeps it from starting MIGA's host, so its tabs cannot pause sites. "
                                       + "Protect the browser as a program instead: miga protect firefox"])
        #expect(!FileManager.default.fileExists(atPath: root + "/.mozilla/native-messaging-hosts/miga.json"))
        #expect(!FileManager.default.fileExists(atPath: root + "/data/miga/miga-native-host"))
        var config = Config()
        config.programs["firefox"] = ProgramSettings(command: "firefox")
        #expect(setup(config: config).run().outcomes.first?.advice.first?.hasSuffix("It is protected as a program: every start of it pauses.") == true)
    }

    @Test func a_browser_protected_as_a_program_is_still_found_past_migas_shim() throws {
        try FileManager.default.createDirectory(atPath: root + "/data/miga/shims", withIntermediateDirectories: true)
        #expect(symlink(gateway, root + "/data/miga/shims/chromium") == 0)
        try executable("bin/chromium")
        var environment = environment
        environment["PATH"] = root + "/data/miga/shims:" + root + "/bin"
        #expect(BrowserFinder(environment: environment, gateway: gateway).find().map(\.installation) == [.native(root + "/bin/chromium")])
    }

    @Test func setup_writes_each_manifest_and_the_link_once_and_again_changes_nothing() throws {
        try executable("bin/firefox-esr")
        try executable("bin/chromium")
        try executable("bin/brave-browser")
        let first = setup().run().outcomes
        let firefox = root + "/.mozilla/native-messaging-hosts/miga.json"
        let chromium = root + "/config/chromium/NativeMessagingHosts/miga.json"
        let brave = root + "/config/BraveSoftware/Brave-Browser/NativeMessagingHosts/miga.json"
        #expect(first.map(\.state) == [.equipped(manifest: firefox, changed: true), .equipped(manifest: chromium, changed: true),
                                       .equipped(manifest: brave, changed: true)])
        let link = root + "/data/miga/miga-native-host"
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == gateway)
        #expect(try json(firefox)["path"] as? String == link)
        #expect(try json(firefox)["allowed_extensions"] as? [String] == ["sites@miga"])
        #expect(try json(brave)["allowed_origins"] as? [String] == ["chrome-extension://cbgolgnocihlfhpkfbbocelojnaodpbo/"])
        try #require(first.count == 3)
        #expect(first[0].advice[0].contains(root + "/prefix/share/miga/extension/firefox/manifest.json"))
        #expect(first[2].advice[0].contains("in no store: open brave://extensions, switch on Developer mode, choose Load unpacked"))
        let again = setup().run().outcomes
        #expect(again.map(\.state) == [.equipped(manifest: firefox, changed: false), .equipped(manifest: chromium, changed: false),
                                       .equipped(manifest: brave, changed: false)])
    }

    /// Another miga (the package's, run by a person who had installed their
    /// own) takes the link over: setup says so rather than "equipped already";
    /// what it wrote is recorded for uninstall.
    @Test func setup_says_when_it_points_the_host_link_at_another_miga_and_records_what_it_wrote() throws {
        try executable("bin/chromium")
        #expect(setup().run().linkChange == nil)
        try FileManager.default.createDirectory(atPath: root + "/usr/bin", withIntermediateDirectories: true)
        try executable("usr/bin/miga")
        let package = BrowserSetup(environment: environment, gateway: root + "/usr/bin/miga", running: root + "/usr/bin/miga", config: Config())
        let report = package.run()
        #expect(report.linkChange == "The host link \(root)/data/miga/miga-native-host now points at \(root)/usr/bin/miga (it pointed at \(gateway)).")
        #expect(report.outcomes.first?.state == .equipped(manifest: root + "/config/chromium/NativeMessagingHosts/miga.json", changed: false))
        let recorded = Manifest(path: root + "/data/miga/manifest").entries
        #expect(recorded.contains(.browserPart(path: root + "/config/chromium/NativeMessagingHosts/miga.json")))
        #expect(recorded.contains(.browserPart(path: root + "/data/miga/miga-native-host")))
    }

    /// The package's extension is where Debian's browsers load it by
    /// themselves: nothing to add by hand, and no file named that is not there.
    @Test func the_firefox_steps_name_the_packed_add_on_only_where_it_is() throws {
        try executable("bin/firefox-esr")
        try FileManager.default.createDirectory(atPath: root + "/prefix/share/miga/extension/firefox", withIntermediateDirectories: true)
        try "{}".write(toFile: root + "/prefix/share/miga/extension/firefox/manifest.json", atomically: true, encoding: .utf8)
        let advice = setup().run().outcomes.first?.advice.first ?? ""
        #expect(advice.contains("Load Temporary Add-on"), "\(advice)")
        #expect(!advice.contains("miga-firefox.xpi"), "\(advice)")
    }

    @Test func the_extension_is_named_where_it_is_installed_or_where_make_install_puts_it() throws {
        try executable("bin/chromium")
        #expect(setup().run().outcomes.first?.advice == ["the extension: open chrome://extensions, switch on Developer mode, choose Load unpacked and pick "
                                            + root + "/prefix/share/miga/extension/chromium"])
        let built = BrowserSetup(environment: environment, gateway: gateway, running: root + "/usr/bin/snap", config: Config())
        #expect(built.run().outcomes.first?.advice.first?.hasSuffix("pick PREFIX/share/miga/extension/chromium (once make install has put it there)") == true)
    }

    @Test func a_file_not_migas_at_a_manifests_or_the_links_place_is_left_alone() throws {
        try executable("bin/chromium")
        let hosts = root + "/config/chromium/NativeMessagingHosts"
        try FileManager.default.createDirectory(atPath: hosts, withIntermediateDirectories: true)
        let someoneElses = #"{"name":"miga","path":"/opt/other/host","type":"stdio","description":"x"}"#
        try someoneElses.write(toFile: hosts + "/miga.json", atomically: true, encoding: .utf8)
        guard case .failed(let reason)? = setup().run().outcomes.first?.state else { Issue.record("equipped over another host"); return }
        #expect(reason.contains("names another host"))
        #expect(try String(contentsOfFile: hosts + "/miga.json", encoding: .utf8) == someoneElses)
        // A manifest that is a link is not written through.
        try FileManager.default.removeItem(atPath: hosts + "/miga.json")
        #expect(symlink(root + "/elsewhere.json", hosts + "/miga.json") == 0)
        #expect(setup().run().outcomes.first?.state != .equipped(manifest: hosts + "/miga.json", changed: true))
        #expect(!FileManager.default.fileExists(atPath: root + "/elsewhere.json"))
        // Nor is a file where the link goes.
        try FileManager.default.removeItem(atPath: hosts + "/miga.json")
        try FileManager.default.createDirectory(atPath: root + "/data/miga", withIntermediateDirectories: true)
        try "mine".write(toFile: root + "/data/miga/miga-native-host", atomically: true, encoding: .utf8)
        guard case .failed(let linkReason)? = setup().run().outcomes.first?.state else { Issue.record("wrote over a file"); return }
        #expect(linkReason.contains("not MIGA's link"))
        #expect(try String(contentsOfFile: root + "/data/miga/miga-native-host", encoding: .utf8) == "mine")
    }

    @Test func a_link_to_another_miga_is_pointed_at_this_one() throws {
        try executable("bin/chromium")
        try FileManager.default.createDirectory(atPath: root + "/data/miga", withIntermediateDirectories: true)
        #expect(symlink("/gone/.build/debug/miga", root + "/data/miga/miga-native-host") == 0)
        _ = setup().run().outcomes
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/data/miga/miga-native-host") == gateway)
    }
}
