import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGADesktop

/// The application menu's route: the override's Exec, run as a desktop
/// launcher runs it (field codes expanded, in a terminal because Terminal=true).
@Suite(.serialized, .endToEnd) struct DesktopEntryEndToEndTests {
    let sandbox = Sandbox()

    @Test func the_menu_entry_reaches_the_pause_and_proceed_starts_the_program_detached() throws {
        try FileManager.default.createDirectory(atPath: sandbox.root + "/system/applications", withIntermediateDirectories: true)
        let original = """
            [Desktop Entry]
            Type=Application
            Name=Dumper
            Exec=\(sandbox.root)/bin/argv-dump --from-menu %u
            Terminal=false
            Categories=Utility;

            """
        try original.write(toFile: sandbox.root + "/system/applications/dumper.desktop", atomically: true, encoding: .utf8)
        let environment = sandbox.environment.merging(["XDG_DATA_DIRS": sandbox.root + "/system"]) { $1 }
        let protect = try run(migaBinary, ["protect", "argv-dump", "--name", "Dumper", "--pause", "1"], environment: environment)
        #expect(protect.status == 0, "\(protect.error)")

        let override = sandbox.root + "/data/applications/dumper.desktop"
        let validation = try run("/usr/bin/desktop-file-validate", [override])
        #expect(validation.status == 0 && validation.output.isEmpty, "\(validation.output)")
        let entry = try DesktopEntry(text: try #require(sandbox.read("data/applications/dumper.desktop")))
        // MIGA's gateway opens the pause's window itself (here the test runs the Exec in its own terminal).
        #expect(entry.value("Terminal") == "false")
        // Expand the field codes as the launcher would, for a link with awkward characters.
        let link = "https://example.org/a b?q=\"x\"&y=$HOME"
        let words = try DesktopExec.split(try #require(entry.value("Exec"))).compactMap { word -> String? in
            switch word {
            case .text(let text): text
            case .fieldCode("u"): link
            default: nil
            }
        }
        let script = sandbox.root + "/launch.sh"
        try ("cd \(shellQuoted(sandbox.root))\n" + words.map(shellQuoted).joined(separator: " ") + "\necho \"$?\" > run.sh.status\nsleep 600\n")
            .write(toFile: script, atomically: true, encoding: .utf8)
        let tmux = try Tmux(command: "sh " + shellQuoted(script), environment: environment)
        try tmux.waitForScreen("the pause") { $0.contains("a pause before Dumper") }
        try tmux.waitForScreen("the end of the countdown") { $0.contains("[P] Proceed to Dumper") && $0.contains("the choice is yours") }
        try tmux.send("p")
        #expect(try sandbox.status() == 0)
        let argv = try eventually("the program to run") { sandbox.bytes("argv") }
        #expect(argv == Array("--from-menu\u{0}\(link)\u{0}".utf8))
        let row = try #require(try sandbox.sessions().first)
        #expect(row.program == "argv-dump")
        #expect(row.outcome == .proceed)

        let unprotect = try run(migaBinary, ["unprotect", "--now", "argv-dump"], environment: environment)
        #expect(unprotect.status == 0)
        #expect(!FileManager.default.fileExists(atPath: override))
    }
}
