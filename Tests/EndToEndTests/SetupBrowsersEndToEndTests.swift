import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit

/// Setup's "Sites in your browser", in a real terminal: with a site protected
/// and a browser found, its last question equips the browser, as
/// `miga browser setup` does, once setup ends.
@Suite(.serialized, .endToEnd) struct SetupBrowsersEndToEndTests {
    let sandbox = Sandbox()
    var environment: [String: String] { sandbox.environment.merging(["SHELL": "/bin/bash"]) { $1 } }

    @Test func setup_asks_about_the_browsers_and_yes_equips_them() throws {
        try sandbox.program("chromium", "#!/bin/sh\nexit 0\n")
        try sandbox.config("[sites.\"youtube.com\"]\npause = 30\n")
        #expect(try run(migaBinary, ["protect", "chromium"], environment: environment).status == 0)
        let tmux = try Tmux(command: try sandbox.migaScript(["setup"]), environment: environment)
        try tmux.waitForScreen("the program list") { $0.contains("Which programs should pause first?") }
        try tmux.send("Enter")
        try tmux.waitForScreen("interests") { $0.contains("What would you like to read") }
        try tmux.send("Enter")
        try tmux.waitForScreen("the pause length") { $0.contains("How long should a pause last?") }
        try tmux.send("Enter")
        try tmux.waitForScreen("the hook offer") { $0.contains("Reach your programs from the shell") }
        try tmux.send("n")
        try tmux.waitForScreen("the browsers' question") { $0.contains("Sites in your browser") && $0.contains("Chromium") }
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/config/chromium/NativeMessagingHosts/miga.json"))
        try tmux.send("y")
        try tmux.waitForScreen("the summary") { $0.contains("Ready when you are") && $0.contains("equip Chromium") }
        // The last page says how to add the extension, which no file MIGA writes can do.
        try tmux.waitForScreen("the extension's steps") { $0.contains("Then add MIGA's extension") && $0.contains("chrome://extensions") }
        try tmux.send("Enter")
        let manifest = sandbox.root + "/config/chromium/NativeMessagingHosts/miga.json"
        try eventually("the manifest") { FileManager.default.fileExists(atPath: manifest) ? true : nil }
        try tmux.waitForScreen("the hub") { $0.contains("s stats") }
        try tmux.send("q")
        #expect(try sandbox.status() == 0)
        let doctor = try run(migaBinary, ["doctor"], environment: environment)
        // Protected as a program besides: each start pauses, which doctor says first.
        #expect(doctor.output.contains("· browser: Chromium: protected as a program, so each start of it pauses"), "\(doctor.output)")
    }
}
