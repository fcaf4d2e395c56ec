import Foundation
import Testing
@testable import MIGADesktop
@testable import MIGATestSupport

@Suite struct TerminalEmulatorTests {
    let command = ["/usr/bin/miga", "gate", "--detach", "firefox", "--", "a b", "it's", "$HOME"]
    let window = PauseWindow(programName: "Firefox ESR")
    let title = "MIGA — a pause before Firefox ESR"

    @Test(arguments: [
        ("xdg-terminal-exec", [String]()), ("x-terminal-emulator", ["-e"]), ("gnome-terminal", ["--"]), ("ptyxis", ["--"]),
        ("konsole", ["-e"]), ("xfce4-terminal", ["-x"]), ("terminator", ["-x"]), ("alacritty", ["-e"]),
        ("kitty", []), ("foot", []), ("wezterm", ["start", "--"]), ("xterm", ["-e"]),
    ])
    func each_emulator_gets_the_command_as_separate_arguments_in_its_own_form(name: String, prefix: [String]) throws {
        let emulator = try #require(TerminalEmulator.known.first { $0.name == name })
        let words = emulator.arguments(running: command, in: window)
        #expect(Array(words.suffix(prefix.count + command.count)) == prefix + command)
    }

    /// Title, room for the pause (90×28 cells) and, for xterm, a font with the ring's dots: as each documents them.
    @Test(arguments: [
        ("xterm", ["-xrm", "*titleEncoding: UTF8_STRING", "-T", "MIGA — a pause before Firefox ESR", "-geometry", "90x28", "-fa", "DejaVu Sans Mono", "-fs", "13"]),
        ("kitty", ["--title", "MIGA — a pause before Firefox ESR", "-o", "remember_window_size=no",
                   "-o", "initial_window_width=90c", "-o", "initial_window_height=28c"]),
        ("foot", ["--title", "MIGA — a pause before Firefox ESR", "--window-size-chars", "90x28"]),
        ("alacritty", ["--title", "MIGA — a pause before Firefox ESR", "-o", "window.dimensions.columns=90",
                       "-o", "window.dimensions.lines=28"]),
        ("wezterm", ["--config", "initial_cols=90", "--config", "initial_rows=28"]),
        ("ghostty", ["--title=MIGA — a pause before Firefox ESR", "--window-width=90", "--window-height=28"]),
        ("konsole", ["-p", "tabtitle=MIGA — a pause before Firefox ESR", "-p", "TerminalColumns=90", "-p", "TerminalRows=28"]),
        ("gnome-terminal", ["--title", "MIGA — a pause before Firefox ESR", "--geometry", "90x28"]),
        ("mate-terminal", ["--title", "MIGA — a pause before Firefox ESR", "--geometry", "90x28"]),
        ("tilix", ["--title", "MIGA — a pause before Firefox ESR", "--geometry", "90x28"]),
        ("xfce4-terminal", ["--title=MIGA — a pause before Firefox ESR", "--geometry=90x28"]),
        ("ptyxis", ["--title", "MIGA — a pause before Firefox ESR"]),
        ("kgx", ["--title", "MIGA — a pause before Firefox ESR"]),
        ("terminator", ["--title", "MIGA — a pause before Firefox ESR"]),
        ("xdg-terminal-exec", []),
    ])
    func each_emulator_is_asked_for_a_title_room_and_the_rings_font_as_it_allows(name: String, options: [String]) throws {
        let emulator = try #require(TerminalEmulator.known.first { $0.name == name })
        let prefix = emulator.prefix
        #expect(emulator.arguments(running: command, in: window) == options + prefix + command)
        #expect(emulator.showsBraille, "a known emulator shows the ring: \(name)")
    }

    @Test func debians_alternative_takes_the_options_of_the_emulator_it_leads_to() throws {
        let base = try #require(TerminalEmulator.known.first { $0.name == "x-terminal-emulator" })
        for xterm in ["uxterm", "xterm", "lxterm", "koi8rxterm"] {
            let emulator = TerminalEmulator(name: base.name, prefix: base.prefix, actual: xterm)
            #expect(emulator.arguments(running: command, in: window)
                == ["-xrm", "*titleEncoding: UTF8_STRING", "-T", title, "-geometry", "90x28", "-fa", "DejaVu Sans Mono", "-fs", "13", "-e"]
                + command)
            #expect(emulator.showsBraille)
        }
        // Every alternative takes -T and -e (Debian Policy §11.8.3); a known one shows the ring by its own fonts.
        let konsole = TerminalEmulator(name: base.name, prefix: base.prefix, actual: "konsole")
        #expect(konsole.arguments(running: command, in: window) == ["-T", title, "-e"] + command)
        #expect(konsole.showsBraille)
        // One MIGA does not know may have only bitmap fonts without the ring's dots: the pause there is ASCII.
        let rxvt = TerminalEmulator(name: base.name, prefix: base.prefix, actual: "rxvt")
        #expect(rxvt.arguments(running: command, in: window) == ["-T", title, "-e"] + command)
        #expect(!rxvt.showsBraille)
    }

    @Test func the_alternative_is_followed_through_its_links() throws {
        let folder = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.path + "/alternatives", withIntermediateDirectories: true)
        for name in ["uxterm", "gnome-terminal.wrapper", "urxvt"] {
            try folder.write("#!/bin/sh\n", to: name)
            chmod(folder.path + "/" + name, 0o755)
        }
        for (target, actual) in [("uxterm", "uxterm"), ("gnome-terminal.wrapper", "gnome-terminal"), ("urxvt", "urxvt")] {
            unlink(folder.path + "/alternatives/x-terminal-emulator")
            unlink(folder.path + "/x-terminal-emulator")
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/alternatives/x-terminal-emulator",
                                                       withDestinationPath: folder.path + "/" + target)
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/x-terminal-emulator",
                                                       withDestinationPath: folder.path + "/alternatives/x-terminal-emulator")
            let found = try #require(TerminalChoice.installed(searchPath: folder.path, session: DisplaySession([.x11])).first)
            #expect(found.path == folder.path + "/x-terminal-emulator", "the alternative itself is started")
            #expect(found.emulator.actual == actual)
        }
    }

    @Test func the_title_names_the_program_without_control_characters() {
        #expect(PauseWindow(programName: "Firefox ESR").title == "MIGA — a pause before Firefox ESR")
        #expect(PauseWindow(programName: "Dump\u{1B}]0;owned\u{07}\n\tx\u{9B}y\u{202E}z").title == "MIGA — a pause before Dump]0;ownedxyz")
        #expect(PauseWindow(programName: " \u{1B} ").title == "MIGA — a pause before a program")
        let long = PauseWindow(programName: String(repeating: "n", count: 500)).title
        #expect(long.count < 100 && long.hasSuffix("n…"))
        // Konsole reads its title as a format: no placeholder and no second property come from a name.
        let konsole = TerminalEmulator(name: "konsole", prefix: ["-e"])
        #expect(konsole.arguments(running: ["x"], in: PauseWindow(programName: "100% a;colors=Bad"))
            .contains("tabtitle=MIGA — a pause before 100 acolors=Bad"))
    }

    @Test func the_desktops_launcher_comes_first_and_terminal_can_choose() throws {
        let folder = TemporaryDirectory()
        for name in ["xterm", "konsole", "xdg-terminal-exec"] {
            try folder.write("#!/bin/sh\n", to: name)
            chmod(folder.path + "/" + name, 0o755)
        }
        let x11 = DisplaySession([.x11])
        #expect(TerminalChoice.installed(searchPath: folder.path, session: x11).first?.emulator.name == "xdg-terminal-exec")
        #expect(TerminalChoice.installed(searchPath: folder.path, preferred: "/usr/bin/konsole", session: x11).first?.emulator.name == "konsole")
        #expect(TerminalChoice.installed(searchPath: folder.path, preferred: "unknown-term", session: x11).first?.emulator.name
            == "xdg-terminal-exec")
        #expect(TerminalChoice.installed(searchPath: "/nonexistent", session: x11).isEmpty)
    }
}
