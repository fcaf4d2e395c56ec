import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGAConfig
@testable import MIGATestSupport

/// The kinds of pause as the gateway prepares them: a scripted terminal, a
/// manual clock, a real store, and quotes of the test's own (the only ones
/// drawn, through `interests`), so that what a typed pause can ask for is known.
@Suite struct KindsGatewayTests {
    let home = TemporaryDirectory()
    let time = ManualTime(wall: Date(timeIntervalSince1970: 1_800_000_000))

    init() throws {
        try home.write("#!/bin/sh\nexit 0\n", to: "bin/fake")
        chmod(home.path + "/bin/fake", 0o755)
    }

    /// The config, with the quotes `texts` as the only ones in use.
    func configure(_ settings: String, quotes texts: [String]) throws {
        try home.write("interests = [\"Testing\"]\n\(settings)\n", to: "config/miga/config.toml")
        let lines = texts.enumerated().map { "testing-\($0.offset + 1) | Testing | | \($0.element)" }
        try home.write(lines.joined(separator: "\n") + "\n", to: "config/miga/quotes/testing.txt")
    }

    @discardableResult
    func launch(_ script: [ScriptedTerminal.Step], pause: Int = 5) -> (GateDecision, ScriptedTerminal) {
        let terminal = ScriptedTerminal(time: time, script: script)
        let context = GatewayContext(
            environment: ["HOME": home.path, "LANG": "C.UTF-8", "XDG_CONFIG_HOME": home.path + "/config",
                          "XDG_DATA_HOME": home.path + "/data", "PATH": home.path + "/bin", "NO_COLOR": "1"],
            time: time, timeZone: .utc, generator: SeededGenerator(seed: 7), terminal: terminal,
            notifier: RecordingNotifier(), messages: { _ in }, gatewayIdentity: nil, processID: 4242,
            gatewayPath: "/opt/miga/bin/miga", remind: { _ in })
        return (Gateway(context: context).run(GateRequest(command: "fake", pause: pause)), terminal)
    }

    var store: SessionStore { get throws { try SessionStore(path: home.path + "/data/miga/miga.sqlite") } }

    /// Keys as a hand types them: a tenth of a second apart.
    static func typed(_ text: String) -> [ScriptedTerminal.Step] {
        text.flatMap { character -> [ScriptedTerminal.Step] in
            [.events([.key(character == " " ? .space : .character(character))]), .wait(0.1)]
        }
    }

    @Test func a_typed_pause_with_nothing_to_type_breathes_and_says_so() throws {
        // No line of the person's own, and a quote without a sentence that fits (too short).
        try configure("pause_kinds = [\"type\"]", quotes: ["Be still."])
        let (decision, terminal) = launch([.wait(6), ScriptedTerminal.keys("p")])
        #expect(decision != .finish(0), "proceeded at zero, without a line to type")
        #expect(terminal.written.contains("A breathing pause: no line to type this time"))
        let row = try #require(try store.sessions().first)
        #expect(row.outcome == .proceed && row.kind == .breathe && row.typed == nil)
    }

    @Test func a_typed_pause_with_no_line_in_any_quote_is_left_out_of_the_draw() throws {
        // Never shown, its record would stay empty, and its uniform prior would win most draws for ever.
        try configure("pause_kinds = [\"breathe\", \"type\"]", quotes: ["Be still."])
        for _ in 0..<8 {
            let (decision, terminal) = launch([.wait(1), ScriptedTerminal.keys("e")])
            #expect(decision == .finish(0))
            #expect(!terminal.written.contains("no line to type"), "the typed pause was drawn")
        }
        let paths = XDGPaths(environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config",
                                           "XDG_DATA_HOME": home.path + "/data"])
        // Said by `miga stats` and `miga doctor`, for each protected program.
        try home.write("interests = [\"Testing\"]\n[programs.fake]\npause_kinds = [\"breathe\", \"type\"]\n",
                       to: "config/miga/config.toml")
        let protected = ConfigLoader.load(from: home.path + "/config/miga/config.toml").config
        #expect(KindSupply(paths: paths, config: protected).leftOut(in: protected)
                == ["type is left out of Fake's draw: no line to type (miga quotes add \"…\" --tag mine)"])
    }

    @Test func after_deepen_the_line_to_type_is_a_sentence_of_the_new_quote() throws {
        let quotes = ["The river does not hurry.", "Evening is yours to spend."]
        try configure("pause_kinds = [\"type\"]", quotes: quotes)
        let (decision, terminal) = launch([.wait(1), ScriptedTerminal.keys("d"), .wait(6), ScriptedTerminal.keys("p")]
                                          + Self.typed(quotes[0]) + Self.typed(quotes[1]) + [.events([.key(.enter)])])
        #expect(decision != .finish(0))
        let row = try #require(try store.sessions().first)
        #expect(row.outcome == .proceed && row.kind == .type && row.typed == true && row.deepenCount == 1)
        // The field opened after Deepen, on a sentence of the quote then on screen.
        #expect(row.quotes.count == 2 && row.quotes[0] != row.quotes[1])
        let line = row.quotes[1] == "testing-1" ? quotes[0] : quotes[1]
        let text = terminal.written.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
        #expect(text.contains("▏" + line))
    }

    @Test func an_intention_pause_is_left_for_focus_with_esc_from_its_first_frame() throws {
        try configure("pause_kinds = [\"intention\"]", quotes: ["The river does not hurry."])
        let (decision, terminal) = launch([.wait(1), ScriptedTerminal.keys("email"), .events([.key(.escape)])])
        #expect(decision == .finish(0))
        #expect(terminal.written.contains("[Esc] Exit to Focus"))
        let row = try #require(try store.sessions().first)
        #expect(row.outcome == .exit && row.kind == .intention && row.intention == nil)
    }
}
