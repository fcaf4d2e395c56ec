import Foundation
import Testing
@testable import MIGAKit

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
