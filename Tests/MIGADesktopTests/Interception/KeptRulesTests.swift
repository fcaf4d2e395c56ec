import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGAConfig
@testable import MIGADesktop
@testable import MIGATestSupport

/// After `miga uninstall` without `--purge` every program's rules stay in
/// the config, kept: not protected, so no route of theirs is missing and
/// nothing they start goes around a pause, until `miga protect` again. And a
/// leak is a launch that had a route of MIGA's to go around: not a process
/// open since before the program was protected, nor one MIGA's menu
/// override started.
@Suite struct KeptRulesTests {
    let home = TemporaryDirectory()
    let protection: Protection

    init() throws {
        try home.writeProgram("\u{7F}ELF steam\n", to: "bin/steam")
        try home.write("[Desktop Entry]\nType=Application\nName=Steam\nExec=steam %U\n", to: "system/applications/steam.desktop")
        let environment = ["HOME": home.path, "PATH": home.path + "/.local/share/miga/shims:" + home.path + "/bin", "SHELL": "/bin/bash",
                           "XDG_DATA_DIRS": home.path + "/system"]
        protection = Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: "/usr/bin/true")
    }

    var override: String { home.path + "/.local/share/applications/steam.desktop" }

    @Test func rules_kept_by_uninstall_are_shown_as_kept_and_nothing_treats_them_as_protected() throws {
        try protection.protect("steam", ProgramChanges(pause: 20))
        _ = try protection.uninstall(purge: false)
        let status = try #require(protection.list().first)
        #expect(status.kept && status.settings.pause == 20)
        let table = ProgramTable.render(protection.list())
        #expect(table.contains("kept — miga protect steam turns it back on"), "\(table)")
        #expect(!table.contains("✗"), "\(table)")
        #expect(protection.coverage().isEmpty)

        let findings = Doctor(protection: protection, notificationServer: { "dunst" }).examine()
        let steam = findings.filter { $0.text.hasPrefix("steam") }
        #expect(steam.map(\.text) == ["steam: kept, not protected — `miga protect steam` turns it back on"], "\(findings.map(\.text))")
        #expect(steam.allSatisfy { $0.ok && $0.info })
        // doctor --fix writes nothing for it: only protect turns it back on.
        #expect(try protection.repair().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: protection.shims.path + "/steam"))
        #expect(!FileManager.default.fileExists(atPath: override))

        try protection.protect("steam")
        #expect(protection.list().map(\.kept) == [false])
        #expect(protection.coverage().map(\.program) == ["steam"])
    }

    /// A site's rules are kept as a program's: uninstall keeps them, and
    /// protecting it again brings it back; what uninstall recorded of the
    /// browsers (a manifest, the host's link) goes, and so does a start-up
    /// file MIGA made for its hook line, once that line is gone.
    @Test func uninstall_keeps_the_sites_rules_and_takes_the_browser_parts_and_a_file_it_made_away() throws {
        let site = try protection.protectSite("youtube.com").site
        let manifest = home.path + "/.mozilla/native-messaging-hosts/miga.json"
        try home.write("{}\n", to: ".mozilla/native-messaging-hosts/miga.json")
        var record = Manifest(path: Manifest.path(in: protection.paths))
        record.record(.browserPart(path: manifest))
        try record.save()
        let hook = try #require(protection.hookOffer())
        #expect(!FileManager.default.fileExists(atPath: hook.file))
        try protection.addHookLine(hook)

        var letGo = false
        _ = try protection.uninstall(purge: false, letGo: { letGo = KeptRules(paths: protection.paths).protectedOnly(protection.config).sites.isEmpty })
        #expect(letGo, "the browsers were told while the sites were still being protected")
        #expect(protection.isKept(site))
        #expect(!FileManager.default.fileExists(atPath: manifest))
        #expect(!FileManager.default.fileExists(atPath: hook.file), "an empty start-up file MIGA made was left")
        #expect(try protection.protectSite("youtube.com").lines == ["Protected youtube.com, with its subdomains."])
        #expect(!protection.isKept(site))
        #expect(try protection.protectSite("YouTube.COM").lines == ["youtube.com is protected already."])
    }

    @Test func a_program_whose_routes_were_never_written_is_not_kept_but_missing_them() throws {
        // As a protect that could not write its shim leaves it, or a table written by hand.
        try home.write("[programs.steam]\n", to: ".config/miga/config.toml")
        #expect(protection.list().map(\.kept) == [false])
        #expect(protection.coverage().first?.routes.contains { !$0.reaches } == true)
        // Unprotected while kept, then written again by hand: not kept either.
        try protection.protect("steam")
        _ = try protection.uninstall(purge: false)
        try protection.unprotect("steam")
        try home.write("[programs.steam]\n", to: ".config/miga/config.toml")
        #expect(protection.list().map(\.kept) == [false])
    }

    @Test func a_leak_is_a_launch_around_a_route_that_was_there_and_each_is_recorded_once() throws {
        let steam = home.path + "/bin/steam"
        try protection.protect("steam")
        let protectedAt = try #require(protection.protectedSince("steam"))
        let proc = try FakeProc(around: protectedAt)
        let store = try SessionStore(path: protection.paths.storeFile)
        // Open since before protect: it went around nothing.
        try proc.process(300, exe: steam, after: -60, cmdline: [steam])
        // Through MIGA's menu override, its mark dropped on the way: the gateway started it.
        try proc.process(301, exe: steam, after: 60, environment: ["GIO_LAUNCHED_DESKTOP_FILE=\(override)", "GIO_LAUNCHED_DESKTOP_FILE_PID=290"],
                         cmdline: [steam])
        // By its path, and from an entry no override covers: two leaks.
        try proc.process(302, exe: steam, after: 60, cmdline: [steam])
        let other = home.path + "/system/applications/steam-big-picture.desktop"
        try proc.process(303, exe: steam, after: 61, environment: ["GIO_LAUNCHED_DESKTOP_FILE=\(other)", "GIO_LAUNCHED_DESKTOP_FILE_PID=303"],
                         cmdline: [steam, "-bigpicture"])
        // Recorded as the chores record them (`Upkeep.recordLeaks`, tested in its own right with the app), with the config as it is at each look.
        func recordLeaks() -> Int {
            (try? store.recordLeaks(protection.leaks(around: store, config: protection.config, watch: proc.watch), at: Date())) ?? 0
        }
        // Seen by a look that only counts: the two, written nowhere.
        #expect(protection.unrecordedLeaks(around: store, watch: proc.watch).count == 2)
        #expect(try store.leaks(since: protectedAt.addingTimeInterval(-1)).isEmpty)
        #expect(recordLeaks() == 2)
        #expect(recordLeaks() == 0, "seen again: the same two")
        #expect(protection.unrecordedLeaks(around: store, watch: proc.watch).isEmpty, "recorded now")
        let recorded = try store.leaks(since: protectedAt.addingTimeInterval(-1))
        #expect(recorded.map(\.route.description).sorted() == [LeakRoute.path(steam).description, LeakRoute.menu(other).description].sorted())
        let named = try #require(recorded.first { $0.route == .menu(other) }?.route.description)
        #expect(named.hasPrefix("from the application menu (") && named.hasSuffix("/steam-big-picture.desktop)"), "\(named)")

        // Kept after uninstall: nothing it starts is a launch around a pause.
        _ = try protection.uninstall(purge: false)
        try proc.process(304, exe: steam, after: 120, cmdline: [steam])
        #expect(recordLeaks() == 0)
    }

    @Test func doctor_names_each_way_around_once_with_how_often() throws {
        try protection.protect("steam")
        let store = try SessionStore(path: protection.paths.storeFile)
        let now = Date()
        let leaks = (1...3).map { Leak(program: "steam", process: ProcessIdentity(bootID: "b", pid: $0, startTicks: 9), route: .path("/opt/steam")) }
            + [Leak(program: "steam", process: ProcessIdentity(bootID: "b", pid: 4, startTicks: 9), route: .menu("steam.desktop"))]
        #expect(try store.recordLeaks(leaks + leaks, at: now) == 4)
        let finding = try #require(Doctor(protection: protection, notificationServer: { "dunst" }).examine().first { $0.text.hasPrefix("leaks:") })
        #expect(finding.text == "leaks: 4 launches went around the pause in the last 7 days "
                + "(steam from /opt/steam, a path no shim sees (3 times); steam from the application menu (steam.desktop))")
        #expect(finding.fix?.hasPrefix("miga refresh puts the pause in front of login starts and menu entries") == true)
    }
}
