import Foundation
import Testing
import MIGATestSupport

/// A command typed as people type them, through the real binary: a mistyped
/// word is named with the command meant and exits 64 (usage), changing
/// nothing; the hub is what no word at all opens.
@Suite(.endToEnd) struct CommandTyposEndToEndTests {
    let sandbox = Sandbox()

    @Test func a_mistyped_command_names_the_one_meant_and_exits_64() throws {
        for (typed, meant) in [("stat", "stats"), ("histroy", "history")] {
            let result = try run(migaBinary, [typed], environment: sandbox.environment)
            #expect(result.status == 64, "\(typed): \(result.error)")
            #expect(result.error == "miga: `\(typed)` is not a command; did you mean `miga \(meant)`?\n", "\(typed)")
            // Not the hub's usage, nor its refusal of an argument it does not take.
            #expect(result.output.isEmpty && !result.error.contains("Unexpected argument"), "\(typed): \(result.output)")
        }
        // Mistyped with options after it, the word is still what is refused.
        let withOption = try run(migaBinary, ["stat", "--json"], environment: sandbox.environment)
        #expect(withOption.status == 64 && withOption.error.contains("did you mean `miga stats`?"), "\(withOption.error)")
        // Nothing ran before the refusal: no config, data or state written.
        for folder in ["config", "data", ".local/state"] {
            #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/" + folder + "/miga"), "\(folder)")
        }
    }

    @Test func a_word_near_only_an_internal_command_is_refused_without_a_guess() throws {
        let result = try run(migaBinary, ["remnd"], environment: sandbox.environment)
        #expect(result.status == 64)
        #expect(result.error == "miga: `remnd` is not a command; `miga --help` lists them.\n")
    }

    @Test func a_word_with_control_sequences_reaches_the_terminal_as_text() throws {
        let result = try run(migaBinary, ["st\u{1B}]0;owned\u{07}at\u{1B}[2J"], environment: sandbox.environment)
        #expect(result.status == 64)
        #expect(!result.error.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(result.error.debugDescription)")
    }

    @Test func no_word_is_the_hub_and_a_command_runs_as_typed() throws {
        // Without a terminal, the hub says what miga is (its help) and succeeds.
        let hub = try run(migaBinary, [], environment: sandbox.environment)
        #expect(hub.status == 0 && hub.output.contains("USAGE: miga"), "\(hub.error)")
        let stats = try run(migaBinary, ["stats"], environment: sandbox.environment)
        #expect(stats.status == 0, "\(stats.error)")
    }
}
