import Testing
@testable import MIGADesktop
@testable import MIGATestSupport

/// The watcher's command line and its answer to the gateway.
@Suite struct StartWatchTests {
    @Test func the_words_the_gateway_writes_read_back_the_same() throws {
        for watch in [StartWatch(watcher: "/usr/bin/miga", sessionID: "s-1", programName: "Chromium", notify: true),
                      StartWatch(watcher: "/usr/bin/miga", sessionID: "s-2", programName: "--", notify: false)] {
            let words = watch.arguments + ["--", "/usr/bin/chromium", "chromium", "--quiet"]
            let parsed = try #require(StartWatch.parse(words, watcher: "/usr/bin/miga"))
            #expect(parsed.watch == watch)
            #expect(Array(words[parsed.taken...]) == ["/usr/bin/chromium", "chromium", "--quiet"])
        }
    }

    @Test func other_words_are_refused() {
        #expect(StartWatch.parse([], watcher: "m") == nil)
        #expect(StartWatch.parse(["--session", "s", "--name", "n"], watcher: "m") == nil) // no program
        #expect(StartWatch.parse(["--session", "s", "--"], watcher: "m") == nil)
        #expect(StartWatch.parse(["--pid", "1", "--session", "s", "--name", "n", "--"], watcher: "m") == nil)
    }

    @Test func the_answer_is_started_or_why_not() {
        #expect(StartWatch.code(fromAnswer: "started") == 0)
        #expect(StartWatch.code(fromAnswer: "failed 2") == 2)
        #expect(StartWatch.code(fromAnswer: "failed 0") == nil)
        #expect(StartWatch.code(fromAnswer: "whatever") == nil)
    }
}
