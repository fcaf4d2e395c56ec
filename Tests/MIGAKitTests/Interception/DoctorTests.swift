import Foundation
import Testing
@testable import MIGAKit

@Suite struct DoctorTests {
    let home = TemporaryDirectory()

    init() throws {
        try home.write("#!/bin/sh\n", to: "bin/firefox")
        chmod(home.path + "/bin/firefox", 0o755)
        try home.write("binary", to: "gateway/miga")
        chmod(home.path + "/gateway/miga", 0o755)
    }

    var shims: String { home.path + "/.local/share/miga/shims" }

    func doctor(path: String, server: String? = "dunst") -> Doctor {
        let environment = ["HOME": home.path, "PATH": path, "SHELL": "/bin/zsh"]
        let protection = Protection(paths: XDGPaths(environment: environment), environment: environment,
                                    gateway: home.path + "/gateway/miga")
        return Doctor(protection: protection, notificationServer: { server })
    }

    @Test func all_is_well_when_every_route_reaches_the_gateway() throws {
        let healthy = doctor(path: shims + ":" + home.path + "/bin")
        try healthy.protection.protect("firefox")
        try home.write("eval \"$(miga init zsh)\"\n", to: ".zshrc")
        let findings = healthy.examine()
        #expect(findings.allSatisfy { $0.ok }, "\(findings.filter { !$0.ok })")
        #expect(findings.contains { $0.text == "firefox: reaches the gateway" })
        #expect(findings.contains { $0.text == "notifications: dunst is listening" })
    }

    @Test func each_problem_comes_with_a_one_line_fix() throws {
        let unhooked = doctor(path: home.path + "/bin", server: nil)
        try unhooked.protection.protect("firefox")
        try home.write("pause = oops\n", to: ".config/miga/config.toml")
        let problems = unhooked.examine().filter { !$0.ok }
        #expect(problems.map(\.text).contains { $0.contains("is not on PATH") })
        #expect(problems.map(\.text).contains { $0.contains(".zshrc does not run miga init") })
        #expect(problems.map(\.text).contains { $0.hasPrefix("config: ") })
        #expect(problems.map(\.text).contains { $0.hasPrefix("notifications: no notification server") })
        #expect(problems.allSatisfy { $0.fix?.isEmpty == false })
        #expect(problems.first { $0.text.contains("not on PATH") }?.fix?.contains("eval \"$(miga init zsh)\"") == true)
    }

    @Test func a_program_that_path_reaches_before_its_shim_is_named() throws {
        let behind = doctor(path: home.path + "/bin:" + shims)
        try behind.protection.protect("firefox")
        let finding = try #require(behind.examine().first { $0.text.hasPrefix("firefox:") })
        #expect(!finding.ok)
        #expect(finding.text == "firefox: typing it runs \(home.path)/bin/firefox, not the gateway")
    }

    @Test func a_damaged_history_is_reported() throws {
        try home.write("not a database at all", to: ".local/share/miga/miga.sqlite")
        let finding = try #require(doctor(path: home.path + "/bin").examine().first { $0.text.hasPrefix("history:") })
        #expect(!finding.ok)
        #expect(finding.fix?.contains("move it aside") == true)
    }
}

@Suite struct UninstallTests {
    let home = TemporaryDirectory()

    @Test func uninstall_removes_what_miga_wrote_and_says_what_stays() throws {
        try home.write("#!/bin/sh\n", to: "bin/firefox")
        chmod(home.path + "/bin/firefox", 0o755)
        try home.write("# mine\nexport EDITOR=vi\neval \"$(miga init bash)\"\n", to: ".bashrc")
        let environment = ["HOME": home.path, "PATH": home.path + "/bin"]
        let protection = Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: "/usr/bin/true")
        try protection.protect("firefox")
        var manifest = Manifest(path: protection.manifestPath)
        manifest.record(.hookLine(file: home.path + "/.bashrc", line: "eval \"$(miga init bash)\""))
        try manifest.save()
        _ = try SessionStore(path: protection.paths.storeFile)

        let remaining = try protection.uninstall(purge: false)
        #expect(try String(contentsOfFile: home.path + "/.bashrc", encoding: .utf8) == "# mine\nexport EDITOR=vi\n")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/.local/share/miga/shims"))
        #expect(!FileManager.default.fileExists(atPath: protection.manifestPath))
        #expect(!FileManager.default.fileExists(atPath: protection.paths.configFile))
        #expect(FileManager.default.fileExists(atPath: protection.paths.storeFile))
        #expect(remaining.contains { $0.contains("history is kept") })

        _ = try protection.uninstall(purge: true)
        #expect(!FileManager.default.fileExists(atPath: protection.paths.dataDirectory))
    }
}
