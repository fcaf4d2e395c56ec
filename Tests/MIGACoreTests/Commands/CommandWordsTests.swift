import Testing
@testable import MIGACore

/// The words miga writes for itself to read back: each value read from the
/// words it writes is the value it wrote, and anything else is left to the parser.
@Suite struct CommandWordsTests {
    static let internalCommands: [InternalCommand] = [
        .remind(["Discord", "30", "1800000000000", "4242", "/usr/bin/discord"]), .remind([]), .lookBack,
        .nativeHost(["chrome-extension://abc/"]), .nativeHost([]), .watchStart(["--drain"]), .watchStart(["a", "--", "/bin/b"]),
        .notify(["Exit to Focus", "Well done"]),
    ]

    @Test(arguments: internalCommands)
    func an_internal_command_reads_back_from_its_words(command: InternalCommand) {
        #expect(InternalCommand(words: command.words) == command)
    }

    @Test func a_persons_command_is_no_internal_one() {
        for words in [[], ["stats"], ["gate", "remind"], ["look-back", "now"], ["Remind"], ["--help"]] {
            #expect(InternalCommand(words: words) == nil, "\(words)")
        }
        #expect(InternalCommand(invokedAs: InternalCommand.nativeHostName, arguments: ["x"]) == .nativeHost(["x"]))
        #expect(InternalCommand(invokedAs: "firefox", arguments: []) == nil)
    }

    static let invocations: [GateInvocation] = [
        GateInvocation(command: "firefox"),
        GateInvocation(command: "/usr/bin/steam", pause: 30),
        GateInvocation(command: "flatpak", detach: true, window: true, loginStart: true, identity: "spotify"),
        GateInvocation(command: "discord", pause: 3600, detach: true, identity: "discord", readyFile: "/run/user/1000/miga-window-1"),
        GateInvocation(command: "a program with spaces", window: true),
    ]

    @Test(arguments: invocations)
    func a_gate_invocation_reads_back_from_its_words_with_the_arguments_after(invocation: GateInvocation) throws {
        let words = invocation.words
        let read = try #require(GateInvocation.read(words + ["--new-window", "--", "-x"]))
        #expect(read.invocation == invocation)
        #expect(read.taken == words.count)
        // Without arguments, the `--` may be left out.
        let bare = try #require(GateInvocation.read(Array(words.dropLast())))
        #expect(bare.invocation == invocation && bare.taken == words.count - 1)
    }

    @Test func anything_else_is_left_to_the_full_parser() {
        for words in [["gate"], ["gate", ""], ["gate", "-h"], ["gate", "--help"], ["gate", "firefox", "extra"],
                      ["gate", "--pause", "0", "firefox"], ["gate", "--pause", "3601", "firefox"], ["gate", "--pause", "x", "firefox"],
                      ["gate", "--pause=30", "firefox"], ["gate", "--detach", "--detach", "firefox"], ["gate", "--as", "-x", "firefox"],
                      ["gate", "--as"], ["gate", "--", "firefox"], ["stats"], []] {
            #expect(GateInvocation.read(words) == nil, "\(words)")
        }
    }
}

extension InternalCommand: CustomTestStringConvertible {
    public var testDescription: String { words.joined(separator: " ") }
}

extension GateInvocation: CustomTestStringConvertible {
    public var testDescription: String { words.joined(separator: " ") }
}
