import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGAConfig
@testable import MIGADesktop
@testable import MIGATestSupport

/// Small promises from the security review (SECURITY.md), each kept by a test.
@Suite(.serialized) struct HardeningTests {
    let folder = TemporaryDirectory()

    @Test func writing_through_a_symbolic_link_keeps_the_link() throws {
        // A dotfile manager's ~/.bashrc is a link into its repository.
        try folder.write("# mine\n", to: "dotfiles/bashrc")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/.bashrc", withDestinationPath: folder.path + "/dotfiles/bashrc")
        try atomicWrite("# mine\neval \"$(miga init bash)\"\n", to: folder.path + "/.bashrc", mode: 0o644)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path + "/.bashrc") == folder.path + "/dotfiles/bashrc")
        #expect(try String(contentsOfFile: folder.path + "/dotfiles/bashrc", encoding: .utf8) == "# mine\neval \"$(miga init bash)\"\n")
    }

    @Test func a_temporary_left_by_a_killed_writer_is_removed_by_the_next_write() throws {
        // A pid that is surely gone: a child that ran and was waited for.
        var child: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        // Not `environ`: other tests change TZ while this one runs.
        let environment = steadyEnvironmentEntries().map { strdup($0) } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        #expect(posix_spawn(&child, "/bin/true", nil, nil, argv, environment) == 0)
        var status: Int32 = 0
        waitpid(child, &status, 0)
        try folder.write("half", to: "config.toml.\(child).tmp")
        try folder.write("busy", to: "config.toml.1.tmp")      // pid 1 runs: a writer still at work
        try folder.write("other", to: "quotes.txt.\(child).tmp") // another file's
        try atomicWrite("pause = 60\n", to: folder.path + "/config.toml", mode: 0o600)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["config.toml", "config.toml.1.tmp", "quotes.txt.\(child).tmp"])
    }

    @Test func a_line_break_in_a_watched_folder_writes_nothing_into_the_unit() {
        let paths = XDGPaths(environment: ["HOME": folder.path])
        let units = SystemdUnits(paths: paths, gateway: "/usr/bin/miga",
                                 watched: ["/usr/share/applications\n[Service]\nExecStart=/bin/sh -c evil", "/usr/local/share/applications"])
        #expect(!units.pathUnitText.contains("ExecStart"))
        #expect(units.pathUnitText.contains("PathChanged=/usr/local/share/applications"))
        #expect(units.pathUnitText.components(separatedBy: "PathChanged=").count == 2)
    }

    @Test func notification_bodies_show_markup_characters_as_written() {
        #expect(LibnotifyNotifier.markupEscaped("You stepped away from Tom & Jerry <b>now</b>.")
                == "You stepped away from Tom &amp; Jerry &lt;b&gt;now&lt;/b&gt;.")
        #expect(LibnotifyNotifier.markupEscaped("plain words") == "plain words")
    }

    @Test func an_editor_named_without_a_path_comes_only_from_path() throws {
        // A bare name is looked up on PATH and nowhere else: posix_spawn would
        // take it as a file in the current folder.
        try folder.writeProgram("#!/bin/sh\ntouch \"$1.ran\"\n", to: "not-an-editor-on-path")
        #expect(EditorSession.runEditor(["not-an-editor-on-path", folder.path + "/copy"]) == -1)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/copy.ran"))
        // With a path it is the person's explicit choice, and it runs.
        #expect(EditorSession.runEditor([folder.path + "/not-an-editor-on-path", folder.path + "/copy"]) == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/copy.ran"))
    }
}
