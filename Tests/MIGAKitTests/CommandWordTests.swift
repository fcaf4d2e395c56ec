import Testing
@testable import MIGAKit

/// What a run of miga does before its command is the command's to say.
@Suite struct CommandWordTests {
    @Test func a_command_that_only_looks_help_and_the_version_do_no_chores() {
        for words in [["stats"], ["stats", "--json"], ["history"], ["list"], ["doctor"], ["--help"], ["-h"], ["--version"],
                      ["help"], ["--experimental-dump-help"], ["--generate-completion-script", "bash"], ["protect", "--help"], ["sync", "-h"], ["gate", "firefox"], ["uninstall"]] {
            #expect(CommandWord.chores(of: words) == .none, "\(words)")
        }
    }

    @Test func commands_that_act_refresh_the_routes_and_send_the_look_back() {
        for words in [[], ["hub"], ["setup"], ["protect", "steam"], ["quotes", "add", "x"], ["sync", "/tmp/s"], ["export"]] {
            #expect(CommandWord.chores(of: words) == .both, "\(words)")
        }
        // Those that refresh the routes themselves only send the look back.
        for words in [["refresh"], ["doctor", "--fix"]] {
            #expect(CommandWord.chores(of: words) == CommandWord.Chores(refreshesRoutes: false, sendsLookBack: true), "\(words)")
        }
    }
}

/// A first word that names no command is refused with the command meant, never taken for the hub's.
@Suite struct CommandWordRefusalTests {
    @Test func a_mistyped_command_names_the_closest_one() throws {
        for (typed, meant) in [("stat", "stats"), ("histroy", "history"), ("protec", "protect"), ("dcotor", "doctor"), ("stup", "setup")] {
            let refusal = try #require(CommandWord.refusal(of: [typed]), "\(typed)")
            #expect(refusal.status == 64)
            #expect(refusal.message == "`\(typed)` is not a command; did you mean `miga \(meant)`?")
        }
    }

    @Test func a_word_far_from_every_command_gets_no_guess() throws {
        let refusal = try #require(CommandWord.refusal(of: ["frobnicate"]))
        #expect(refusal.message == "`frobnicate` is not a command; `miga --help` lists them.")
    }

    @Test func the_words_miga_writes_for_itself_are_never_suggested() {
        // Each internal word, and each a letter off it, is refused like any unknown word, naming no internal command.
        let internalWords = ["remind", "look-back", "native-host", "watch-start", "notify"]
        for word in internalWords + internalWords.map({ String($0.dropLast()) }) {
            let message = CommandWord.refusal(of: [word])?.message ?? ""
            #expect(!internalWords.contains { message.contains("`miga \($0)`") }, "\(word): \(message)")
        }
    }

    @Test func no_word_a_command_help_or_an_option_is_not_refused() {
        for words in [[], ["stats"], ["help"], ["help", "stats"], ["--help"], ["--version"], ["-h"], ["hub"]] {
            #expect(CommandWord.refusal(of: words) == nil, "\(words)")
        }
    }
}
