import Foundation
import Testing
@testable import MIGADesktop
@testable import MIGATestSupport

/// The order the pause's window is tried in: the person's `$TERMINAL`, then
/// the emulators that speak the session's own display, Debian's alternative
/// judged by where it leads.
@Suite struct TerminalChoiceTests {
    let folder = TemporaryDirectory()
    let wayland = DisplaySession([.wayland])
    let xwayland = DisplaySession([.wayland, .x11])
    let x11 = DisplaySession([.x11])

    /// Emulators installed in the folder, and Debian's alternative leading to `alternative`.
    func install(_ names: [String], alternative: String? = nil) throws {
        for name in names + [alternative].compactMap({ $0 }) {
            try folder.write("#!/bin/sh\n", to: name)
            chmod(folder.path + "/" + name, 0o755)
        }
        guard let alternative else { return }
        try FileManager.default.createDirectory(atPath: folder.path + "/alternatives", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/alternatives/x-terminal-emulator",
                                                   withDestinationPath: folder.path + "/" + alternative)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/x-terminal-emulator",
                                                   withDestinationPath: folder.path + "/alternatives/x-terminal-emulator")
    }

    func order(_ session: DisplaySession, preferred: String? = nil) -> [String] {
        TerminalChoice.installed(searchPath: folder.path, preferred: preferred, session: session).map(\.emulator.described)
    }

    @Test func on_wayland_a_terminal_that_speaks_it_goes_before_debians_xterm() throws {
        try install(["xterm", "foot", "kitty"], alternative: "uxterm")
        // uxterm and xterm are one program: tried once, last.
        #expect(order(wayland) == ["kitty", "foot", "x-terminal-emulator (uxterm)"])
        #expect(order(xwayland) == ["kitty", "foot", "x-terminal-emulator (uxterm)"])
        let first = try #require(TerminalChoice.installed(searchPath: folder.path, session: wayland).first)
        #expect(first.why == "the first installed terminal that speaks Wayland, before x-terminal-emulator (uxterm), which speaks only X11")
        #expect(first.canOpen(in: wayland))
        let last = try #require(TerminalChoice.installed(searchPath: folder.path, session: wayland).last)
        #expect(!last.canOpen(in: wayland) && last.canOpen(in: xwayland))
    }

    @Test func on_x11_debians_alternative_stays_first_and_foot_goes_last() throws {
        try install(["xterm", "foot", "kitty"], alternative: "uxterm")
        #expect(order(x11) == ["x-terminal-emulator (uxterm)", "kitty", "foot"])
        #expect(TerminalChoice.installed(searchPath: folder.path, session: x11).first?.why == "Debian's default terminal")
        #expect(TerminalChoice.installed(searchPath: folder.path, session: x11).last?.canOpen(in: x11) == false)
    }

    @Test func an_alternative_that_speaks_wayland_keeps_its_place() throws {
        try install(["foot", "kitty"], alternative: "konsole")
        #expect(order(wayland) == ["x-terminal-emulator (konsole)", "kitty", "foot"])
    }

    @Test func an_alternative_miga_does_not_know_is_taken_for_x11_only() throws {
        try install(["foot"], alternative: "urxvt")
        #expect(order(wayland) == ["foot", "x-terminal-emulator (urxvt)"])
    }

    @Test func the_persons_terminal_comes_first_even_where_it_cannot_open() throws {
        try install(["xterm", "foot", "kitty"], alternative: "uxterm")
        #expect(order(wayland, preferred: "/usr/bin/xterm") == ["xterm", "kitty", "foot"])
        let named = try #require(TerminalChoice.installed(searchPath: folder.path, preferred: "foot", session: x11).first)
        #expect(named.emulator.name == "foot" && named.why == "named by $TERMINAL")
    }

    @Test func the_desktops_launcher_comes_first_on_either() throws {
        try install(["xdg-terminal-exec", "foot"], alternative: "uxterm")
        #expect(order(wayland).first == "xdg-terminal-exec")
        #expect(order(x11).first == "xdg-terminal-exec")
        #expect(TerminalChoice.installed(searchPath: folder.path, session: wayland).first?.why
            == "the desktop's launcher of the terminal you chose")
    }

    @Test func the_session_is_read_from_the_environment() {
        #expect(DisplaySession(environment: ["WAYLAND_DISPLAY": "wayland-1"]) == wayland)
        #expect(DisplaySession(environment: ["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"]) == xwayland)
        #expect(DisplaySession(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": ""]) == x11)
        #expect(DisplaySession(environment: [:]).isEmpty)
    }
}
