import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGAStore
@testable import MIGAKit
@testable import MIGADesktop
@testable import MIGATestSupport

/// Doctor's browser lines: covered or not, what to do, and private windows.
@Suite struct BrowserCoverageTests {
    let folder = TemporaryDirectory()
    var root: String { folder.path }
    var environment: [String: String] {
        ["HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_DATA_HOME": root + "/data", "PATH": root + "/bin"]
    }
    var gateway: String { root + "/miga" }

    init() throws {
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        for program in ["miga", "bin/firefox-esr", "bin/chromium"] {
            try "#!/bin/sh\n".write(toFile: root + "/" + program, atomically: true, encoding: .utf8)
            chmod(root + "/" + program, 0o755)
        }
    }

    func setup(_ config: Config = Config(), gateway: String? = nil) -> BrowserSetup {
        BrowserSetup(environment: environment, gateway: gateway ?? self.gateway, running: self.gateway, config: config)
    }

    func findings(_ config: Config = Config(), store: SessionStore? = nil, gateway: String? = nil) -> [Finding] {
        BrowserCoverage(setup: setup(config, gateway: gateway), store: store).findings()
    }

    var siteProtected: Config {
        var config = Config()
        config.sites["youtube.com"] = ProgramSettings(command: "site:youtube.com")
        return config
    }

    @Test func after_setup_every_browser_is_covered_and_doctor_stays_green() throws {
        _ = setup().run()
        let lines = findings(siteProtected)
        #expect(lines.allSatisfy { $0.ok })
        #expect(lines.map(\.text) == [
            "browser: Firefox ESR: covered: MIGA's extension, once added, reaches MIGA from it",
            "browser: Firefox ESR: private windows: not reported yet",
            "browser: Chromium: covered: MIGA's extension, once added, reaches MIGA from it",
            "browser: Chromium: private windows: not reported yet",
        ])
    }

    @Test func a_browser_without_the_manifest_is_not_covered_a_problem_only_while_sites_are_protected() throws {
        let quiet = findings()
        #expect(quiet.allSatisfy { $0.info })
        #expect(quiet.first?.text == "browser: Firefox ESR: not covered (miga browser setup equips it, once you protect a site)")
        let problems = findings(siteProtected)
        #expect(problems.map(\.ok) == [false, false])
        try #require(problems.count == 2)
        #expect(problems[1].text == "browser: Chromium: not covered: protected sites open in it without a pause")
        #expect(problems[1].fix == "miga browser setup (or protect the browser as a program: miga protect chromium)")
        // Protected as a program: each start pauses, which is the person's choice.
        var config = siteProtected
        config.programs["chromium"] = ProgramSettings(command: "chromium")
        #expect(findings(config).last == Finding(info: "browser: Chromium: not covered for sites; protected as a program, so each start of it pauses"))
    }

    @Test func a_manifest_naming_another_miga_is_not_coverage() throws {
        _ = setup(gateway: root + "/bin/firefox-esr").run()
        #expect(findings(siteProtected).map(\.ok) == [false, false])
    }

    @Test func private_windows_are_what_the_extension_reported() throws {
        _ = setup().run()
        let store = try SessionStore(path: root + "/data/miga/miga.sqlite")
        try store.setMeta("sites.private-windows.firefox", "allowed")
        try store.setMeta("sites.private-windows.chromium", "refused")
        let lines = findings(siteProtected, store: store).map(\.text)
        #expect(lines.contains("browser: Firefox ESR: private windows: paused too"))
        #expect(lines.contains("browser: Chromium: private windows: not paused (allow the extension in private windows to cover them)"))
        #expect(findings(siteProtected, store: store).filter { $0.text.contains("private windows") }.allSatisfy { $0.info })
    }
}
