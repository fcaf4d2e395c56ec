import Foundation
import Testing
@testable import MIGACore
@testable import MIGADesktop
@testable import MIGATestSupport

/// Edits others make to a menu override of MIGA's. Setting the default
/// browser (`xdg-settings` on a generic desktop) rewrites the override's
/// MimeType; a person may choose another icon. Neither touches the gate, so
/// the override stays MIGA's: it keeps their change and goes on following its
/// source. An edit of the gate itself (an Exec, Terminal) is the person's own,
/// and kept as it is.
@Suite struct DesktopEditsTests {
    let home = TemporaryDirectory()
    let protection: Protection
    var source: String { home.path + "/system/applications/firefox.desktop" }
    var override: String { home.path + "/.local/share/applications/firefox.desktop" }
    var gateway: String { home.path + "/live/miga" }

    init() throws {
        try home.write(DesktopOverridesTests.firefox, to: "system/applications/firefox.desktop")
        try home.writeProgram("#!/bin/sh\n", to: "bin/firefox")
        // A gateway that exists: whether an Exec reaches it is read from the file system.
        try home.writeProgram("#!/bin/sh\n", to: "live/miga")
        let environment = ["HOME": home.path, "PATH": home.path + "/bin", "XDG_DATA_DIRS": home.path + "/system"]
        protection = Protection(paths: XDGPaths(environment: environment), environment: environment, gateway: home.path + "/live/miga")
    }

    /// What `xdg-settings set default-web-browser firefox.desktop` does to
    /// the override on a generic desktop, for each scheme its MimeType lacks
    /// (its fix_local_desktop_file): the MimeType line goes, and comes back as
    /// the file's last line with the scheme in front. With actions, that is
    /// the last action's group.
    func setAsDefaultBrowser() throws {
        for scheme in ["x-scheme-handler/about", "x-scheme-handler/unknown"] {
            var lines = try text(override).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            let types = lines.filter { $0.hasPrefix("MimeType=") }.map { $0.dropFirst("MimeType=".count) }.joined(separator: "\n")
            let edited = lines.filter { !$0.hasPrefix("MimeType=") } + ["MimeType=\(scheme);\(types)"]
            try (edited.joined(separator: "\n") + "\n").write(toFile: override, atomically: true, encoding: .utf8)
            chmod(override, 0o600)
        }
    }

    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func entry(_ path: String) throws -> DesktopEntry { try DesktopEntry(text: try text(path)) }

    /// The MimeType of every group of the file that has one.
    func mimeTypes(_ path: String) throws -> [String: String] {
        try mimeTypes(of: try text(path))
    }

    func mimeTypes(of text: String) throws -> [String: String] {
        let entry = try DesktopEntry(text: text)
        return entry.groups.reduce(into: [:]) { found, group in found[group] = entry.value("MimeType", in: group) }
    }

    func recorded() throws -> Manifest.MenuOverride {
        try #require(Manifest(path: protection.manifestPath).menuOverrides().first)
    }

    /// Every Exec of the file starts this gateway.
    func everyExecReachesTheGate(_ path: String) throws -> Bool {
        let entry = try entry(path)
        return try ([DesktopEntry.mainGroup] + entry.actionGroups).allSatisfy { group in
            try DesktopExec.split(try #require(entry.value("Exec", in: group))).first == .text(gateway)
        }
    }

    @Test func the_default_browser_set_by_the_desktop_leaves_the_override_in_place_as_the_desktop_left_it() throws {
        try protection.protect("firefox")
        try setAsDefaultBrowser()
        let edited = try text(override)
        #expect(try mimeTypes(override).values.contains { $0.hasPrefix("x-scheme-handler/unknown;x-scheme-handler/about;text/html;") })
        #expect(protection.desktop.state(of: try recorded()) == .inPlace(source: source))
        #expect(try protection.protect("firefox").isEmpty)
        #expect(try protection.refresh().isEmpty, "nothing to put right")
        #expect(try text(override) == edited)
        #expect(protection.desktop.state(of: try recorded()) == .inPlace(source: source))
    }

    @Test func after_the_default_browser_a_package_update_is_followed_and_the_desktops_mime_types_kept() throws {
        try protection.protect("firefox")
        try setAsDefaultBrowser()
        let desktops = try mimeTypes(override)
        // The package renames the entry: the override no longer matches it, and protect follows.
        try home.write(DesktopOverridesTests.firefox.replacingOccurrences(of: "Name=Firefox\n", with: "Name=Firefox Web Browser\n"),
                       to: "system/applications/firefox.desktop")
        #expect(protection.desktop.state(of: try recorded()) == .stale(source: source))
        #expect(try protection.protect("firefox").isEmpty)
        #expect(try entry(override).value("Name") == "Firefox Web Browser")
        #expect(try mimeTypes(override) == desktops)
        #expect(protection.desktop.state(of: try recorded()) == .inPlace(source: source))
        // Then it adds an action: refresh gives it the gate too, and the desktop's MimeType stays.
        try home.write(DesktopOverridesTests.firefox
            .replacingOccurrences(of: "Name=Firefox\n", with: "Name=Firefox Web Browser\n")
            .replacingOccurrences(of: "Actions=new-window;new-private-window;", with: "Actions=new-window;new-private-window;profile-manager;")
            + "\n[Desktop Action profile-manager]\nName=Profile Manager\nExec=/usr/lib/firefox/firefox --ProfileManager\n",
            to: "system/applications/firefox.desktop")
        let done = try protection.refresh()
        #expect(!done.contains { $0.contains("edited by hand") }, "\(done)")
        #expect(try entry(override).actionGroups.contains("Desktop Action profile-manager"))
        #expect(try everyExecReachesTheGate(override))
        #expect(try mimeTypes(override) == desktops)
        #expect(try entry(override).value("Name") == "Firefox Web Browser")
        #expect(protection.desktop.state(of: try recorded()) == .inPlace(source: source))
    }

    @Test func an_icon_the_person_chose_is_kept_while_the_override_follows_its_source() throws {
        try protection.protect("firefox")
        try text(override).replacingOccurrences(of: "Icon=firefox", with: "Icon=my-firefox")
            .write(toFile: override, atomically: true, encoding: .utf8)
        #expect(protection.desktop.state(of: try recorded()) == .inPlace(source: source))
        try home.write(DesktopOverridesTests.firefox.replacingOccurrences(of: "Comment=Browse the World Wide Web", with: "Comment=Browse the web"),
                       to: "system/applications/firefox.desktop")
        #expect(try protection.protect("firefox").isEmpty)
        #expect(try entry(override).value("Icon") == "my-firefox")
        #expect(try entry(override).value("Comment") == "Browse the web")
        #expect(protection.desktop.state(of: try recorded()) == .inPlace(source: source))
    }

    @Test func an_override_written_before_copies_were_kept_is_told_from_its_unchanged_source() throws {
        try protection.protect("firefox")
        // As a MIGA that kept no copy of what it wrote left it.
        try FileManager.default.removeItem(atPath: protection.desktop.written)
        try setAsDefaultBrowser()
        let edited = try text(override)
        #expect(protection.desktop.state(of: try recorded()) == .inPlace(source: source))
        #expect(try protection.protect("firefox").isEmpty)
        #expect(try text(override) == edited)
        // From now on the copy is kept: a package update is followed too.
        try home.write(DesktopOverridesTests.firefox.replacingOccurrences(of: "Name=Firefox\n", with: "Name=Firefox Web Browser\n"),
                       to: "system/applications/firefox.desktop")
        #expect(try protection.refresh().allSatisfy { !$0.contains("edited by hand") })
        #expect(try entry(override).value("Name") == "Firefox Web Browser")
        #expect(try mimeTypes(override) == (try mimeTypes(of: edited)))
    }

    @Test func unprotecting_puts_away_the_copy_of_what_miga_wrote() throws {
        try protection.protect("firefox")
        let copy = protection.desktop.written + "/firefox.desktop"
        #expect(try text(copy) == (try text(override)))
        try setAsDefaultBrowser()
        try protection.unprotect("firefox")
        #expect(!FileManager.default.fileExists(atPath: override))
        #expect(!FileManager.default.fileExists(atPath: copy))
    }

    /// Edits of the gate: the main Exec, an action's, Terminal (the launcher would open a window of its own).
    @Test(arguments: [(DesktopEntry.mainGroup, "Exec", "/usr/lib/firefox/firefox %u"),
                      ("Desktop Action new-private-window", "Exec", "/usr/lib/firefox/firefox --private-window %u"),
                      (DesktopEntry.mainGroup, "Terminal", "true")])
    func an_edit_of_the_gate_is_the_persons_own_and_kept_as_it_is(group: String, key: String, value: String) throws {
        try protection.protect("firefox")
        try setAsDefaultBrowser()
        var edited = try entry(override)
        edited.setValue(value, for: key, in: group)
        try edited.text.write(toFile: override, atomically: true, encoding: .utf8)
        let notes = try protection.protect("firefox")
        #expect(notes.contains { $0.contains("edited by hand") }, "\(notes)")
        #expect(try text(override) == edited.text)
        #expect(protection.desktop.state(of: try recorded()) == .editedByHand(reachesGateway: key != "Exec"))
        // A package update changes nothing of it.
        try home.write(DesktopOverridesTests.firefox.replacingOccurrences(of: "Name=Firefox\n", with: "Name=Firefox Web Browser\n"),
                       to: "system/applications/firefox.desktop")
        #expect(try protection.refresh().contains { $0.contains("edited by hand") })
        #expect(try text(override) == edited.text)
    }
}
