import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit

/// A menu's launch on a Wayland desktop without X11 (sway, headless, no
/// Xwayland), where Debian's `x-terminal-emulator` leads to uxterm, an
/// X11-only program, and foot is installed too: the pause opens in foot,
/// titled for the program and focused, and after Exit to Focus nothing of
/// it is left in the session's runtime folder. With Xwayland, xterm's
/// window is titled for the pause too.
@Suite(.serialized, .endToEnd) final class WaylandPauseWindowEndToEndTests {
    let sandbox = Sandbox()
    private var started: WaylandDesktop?
    var desktop: WaylandDesktop {
        get throws {
            if let started { return started }
            let desktop = try WaylandDesktop(folder: sandbox.root, environment: sandbox.environment)
            started = desktop
            return desktop
        }
    }
    let title = "MIGA — a pause before Firefox ESR"

    init() throws {
        try sandbox.config("[programs.argv-dump]\nname = \"Firefox ESR\"\n")
        // The gateway as installed: a file of its own, which the desktop's user can run.
        try copyExecutable(from: migaBinary, to: sandbox.root + "/bin/miga")
        // Debian's alternative, leading to uxterm; xterm itself; and foot.
        try FileManager.default.createDirectory(atPath: sandbox.root + "/alternatives", withIntermediateDirectories: true)
        symlink("/usr/bin/uxterm", sandbox.root + "/alternatives/x-terminal-emulator")
        symlink(sandbox.root + "/alternatives/x-terminal-emulator", sandbox.root + "/bin/x-terminal-emulator")
        symlink("/usr/bin/xterm", sandbox.root + "/bin/xterm")
        symlink("/usr/bin/foot", sandbox.root + "/bin/foot")
        // As a menu starts the program's entry: the gateway, without a terminal, asked for a window.
        try sandbox.program("launch-from-menu", """
            #!/bin/sh
            "\(sandbox.root)/bin/miga" gate --window --detach argv-dump -- from-menu 2> "\(sandbox.root)/gate.err"
            echo $? > "\(sandbox.root)/gate.status.$$"
            /bin/mv "\(sandbox.root)/gate.status.$$" "\(sandbox.root)/gate.status"
            """)
        // The machine's commands less its terminals, for the desktop's user to read.
        chmod(Sandbox.systemPath, 0o755)
    }

    /// Launches from the menu; with `terminal`, as `$TERMINAL` names it.
    func launchFromTheMenu(terminal: String? = nil) throws {
        let command = (terminal.map { "TERMINAL=\($0) " } ?? "") + sandbox.root + "/bin/launch-from-menu"
        let sent = try desktop.message(["exec", command])
        #expect(sent.status == 0, "\(sent.output) \(sent.error)")
    }

    /// The window titled for the pause, once sway shows it.
    func pauseWindow() throws -> WaylandDesktop.Window {
        var seen: [WaylandDesktop.Window] = []
        do {
            return try eventually("the pause's window") {
                seen = try desktop.windows()
                return seen.first { $0.title == title && $0.focused }
            }
        } catch {
            throw Timeout(what: "a focused window titled \(title)", last: "\(seen)\n" + (sandbox.read("gate.err") ?? ""))
        }
    }

    /// The files MIGA has left in the session's runtime folder.
    func leftInRuntime() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: try desktop.runtime).filter { $0.hasPrefix("miga") }
    }

    /// Exit to Focus, typed into the focused window; the window closes with the pause.
    func exitToFocus() throws {
        // wtype gives the compositor its keymap, and a key sent at once may
        // come before the keymap is taken: it waits a moment first (`-s`),
        // and types again while the window stays.
        var typed = Date.distantPast
        try eventually("the pause's window to close") { () -> Bool? in
            guard try desktop.windows().contains(where: { $0.title == title }) else { return true }
            if Date().timeIntervalSince(typed) > 5 {
                let sent = try desktop.client("/usr/bin/wtype", ["-s", "200", "e"])
                #expect(sent.status == 0, "\(sent.error)")
                typed = Date()
            }
            return nil
        }
        // Read as the desktop's user, with the real command: the store is that user's, and MIGA uses only its own.
        let history = try eventually("the pause's session") { () -> String? in
            let json = try desktop.client(sandbox.root + "/bin/miga", ["history", "--json"]).output
            return json.contains("\"outcome\" : \"exit\"") ? json : nil
        }
        #expect(history.contains("\"program\" : \"argv-dump\""), "\(history)")
        #expect(sandbox.read("argv") == nil, "Exit to Focus starts nothing")
        let left = try leftInRuntime()
        #expect(left.isEmpty, "\(left)")
    }

    @Test func the_pause_opens_in_foot_before_debians_xterm_and_leaves_nothing_behind() throws {
        try launchFromTheMenu()
        let window = try pauseWindow()
        #expect(window.appID == "foot", "\(window)")
        #expect(try eventually("the launch to be decided") { sandbox.read("gate.status") } == "0\n")
        #expect(sandbox.read("gate.err") == "")
        try exitToFocus()
    }

    /// The person's own choice is tried first; it cannot open a window
    /// without X11, and foot opens the pause instead of nothing.
    @Test func an_x11_only_terminal_that_opens_no_window_is_followed_by_foot() throws {
        try launchFromTheMenu(terminal: "x-terminal-emulator")
        let window = try pauseWindow()
        #expect(window.appID == "foot", "\(window)")
        #expect(try eventually("the launch to be decided") { sandbox.read("gate.status") } == "0\n")
        #expect(sandbox.read("gate.err") == "")
        // uxterm's window never came: its file was taken away as foot's was tried.
        let left = try leftInRuntime()
        #expect(left.isEmpty, "\(left)")
        try exitToFocus()
    }

    /// With Xwayland, an X11 terminal the person names opens the pause, and
    /// sway shows its title: xterm gives it as UTF-8, which the window
    /// manager in wlroots reads (it ignores COMPOUND_TEXT).
    @Test func under_xwayland_the_persons_xterm_window_has_the_pauses_title() throws {
        started = try WaylandDesktop(folder: sandbox.root, environment: sandbox.environment, xwayland: true)
        try launchFromTheMenu(terminal: "x-terminal-emulator")
        let window = try pauseWindow()
        #expect(window.appID == nil, "an X11 window: \(window)")
        #expect(try eventually("the launch to be decided") { sandbox.read("gate.status") } == "0\n")
        #expect(sandbox.read("gate.err") == "")
        try exitToFocus()
    }
}
