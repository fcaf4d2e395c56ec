import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGAStore
@testable import MIGAConfig
@testable import MIGADesktop
@testable import MIGATestSupport

/// The chores' one place: launches that went around the pause are recorded
/// once, whoever looks, and without a protection there is nothing to look at.
@Suite struct UpkeepTests {
    let home = TemporaryDirectory()

    @Test func a_leak_is_recorded_once_and_nothing_without_a_protection() throws {
        try home.writeProgram("\u{7F}ELF steam\n", to: "bin/steam")
        let environment = ["HOME": home.path, "PATH": home.path + "/.local/share/miga/shims:" + home.path + "/bin", "SHELL": "/bin/bash"]
        let protection = Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: "/usr/bin/true")
        try protection.protect("steam")
        let protectedAt = try #require(protection.protectedSince("steam"))
        let proc = try FakeProc(around: protectedAt)
        // Started by its path a minute after it was protected: around the pause.
        try proc.process(302, exe: home.path + "/bin/steam", after: 60, cmdline: [home.path + "/bin/steam"])
        let store = try SessionStore(path: protection.paths.storeFile)
        let upkeep = Upkeep(store: store, config: protection.config)
        #expect(upkeep.recordLeaks(nil, watch: proc.watch) == 0)
        #expect(upkeep.recordLeaks(protection, watch: proc.watch) == 1)
        #expect(upkeep.recordLeaks(protection, watch: proc.watch) == 0, "seen again: the same one")
        #expect(try store.leaks(since: protectedAt).map(\.program) == ["steam"])
    }
}
