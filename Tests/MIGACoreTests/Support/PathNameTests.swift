import Foundation
import Testing
import MIGACore

/// Path names without Foundation, each as Foundation gives it.
@Suite struct PathNameTests {
    @Test(arguments: ["/home/a/miga/miga.sqlite", "/miga.sqlite", "miga.sqlite", "a/b/", "/", "", "//a//b", "/a/b//",
                      "/usr/bin/firefox", "/etc/alternatives/x-www-browser"])
    func the_folder_of_a_path_is_the_one_foundation_gives(path: String) {
        #expect(folderName(of: path) == (path as NSString).deletingLastPathComponent)
    }
}

/// The kernel splits a path at each "/" byte; a combining mark after the
/// slash makes one Character of the two, and must not hide the split.
@Suite struct PathBytesTests {
    @Test func a_slash_before_a_combining_mark_still_separates_names() {
        let path = "/home/a/\u{301}x/miga"
        #expect(folderName(of: path) == "/home/a/\u{301}x")
        #expect(baseName(of: "/home/a/\u{301}x") == "\u{301}x")
        #expect(baseName(of: path) == "miga")
    }

    @Test(arguments: ["/usr/bin/firefox", "firefox", "/", "", "a/b/", "//a//b", "/a/b//"])
    func the_last_name_is_the_last_nonempty_part(path: String) {
        let parts = path.split(separator: "/")
        #expect(baseName(of: path) == (parts.last.map(String.init) ?? path))
    }
}
