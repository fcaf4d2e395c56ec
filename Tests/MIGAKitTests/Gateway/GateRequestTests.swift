import Testing
import MIGACore
@testable import MIGAKit

@Suite struct GateRequestTests {
    func request(_ words: [String]) -> GateRequest? {
        GateRequest(launchCommandLine: words, raw: words.map { Array($0.utf8) })
    }

    @Test func the_launch_form_is_read_without_the_full_parser() throws {
        let bare = try #require(request(["gate", "firefox"]))
        #expect(bare.command == "firefox")
        #expect(bare.arguments.isEmpty)
        #expect(bare.pause == nil)
        let withArguments = try #require(request(["gate", "firefox", "--", "--new-window", "a b", "--"]))
        #expect(withArguments.arguments == [Array("--new-window".utf8), Array("a b".utf8), Array("--".utf8)])
        #expect(try #require(request(["gate", "/usr/bin/firefox", "--"])).arguments.isEmpty)
        // As desktop entries and the pause's window write it, options and all.
        let options = try #require(request(["gate", "--window", "--detach", "--pause", "5", "--as", "spotify", "flatpak", "--", "run", "x"]))
        #expect(options.invocation == GateInvocation(command: "flatpak", pause: 5, detach: true, window: true, identity: "spotify"))
        #expect(options.arguments == [Array("run".utf8), Array("x".utf8)])
    }

    @Test func everything_else_goes_to_the_full_parser() {
        #expect(request([]) == nil)
        #expect(request(["gate"]) == nil)
        #expect(request(["gate", "--pause=5", "firefox"]) == nil)
        #expect(request(["gate", "--help"]) == nil)
        #expect(request(["gate", "firefox", "https://example.org"]) == nil)
        #expect(request(["gate", ""]) == nil)
        #expect(request(["stats"]) == nil)
    }
}
