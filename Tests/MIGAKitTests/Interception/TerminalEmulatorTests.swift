import Foundation
import Testing
@testable import MIGAKit

@Suite struct TerminalEmulatorTests {
    let command = ["/usr/bin/miga", "gate", "--detach", "firefox", "--", "a b", "it's", "$HOME"]

    @Test(arguments: [
        ("xdg-terminal-exec", [String]()), ("x-terminal-emulator", ["-e"]), ("gnome-terminal", ["--"]),
        ("konsole", ["-e"]), ("xfce4-terminal", ["-x"]), ("terminator", ["-x"]), ("alacritty", ["-e"]),
        ("kitty", []), ("foot", []), ("wezterm", ["start", "--"]), ("xterm", ["-e"]),
    ])
    func each_emulator_gets_the_command_as_separate_arguments_in_its_own_form(name: String, prefix: [String]) throws {
        let emulator = try #require(TerminalEmulator.known.first { $0.name == name })
        #expect(emulator.arguments(running: command) == prefix + command)
    }

    @Test func the_desktops_launcher_comes_first_and_terminal_can_choose() throws {
        let folder = TemporaryDirectory()
        for name in ["xterm", "konsole", "xdg-terminal-exec"] {
            try folder.write("#!/bin/sh\n", to: name)
            chmod(folder.path + "/" + name, 0o755)
        }
        #expect(TerminalEmulator.find(searchPath: folder.path)?.emulator.name == "xdg-terminal-exec")
        #expect(TerminalEmulator.find(searchPath: folder.path, preferred: "/usr/bin/konsole")?.emulator.name == "konsole")
        #expect(TerminalEmulator.find(searchPath: folder.path, preferred: "unknown-term")?.emulator.name == "xdg-terminal-exec")
        #expect(TerminalEmulator.find(searchPath: "/nonexistent") == nil)
    }
}
