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
