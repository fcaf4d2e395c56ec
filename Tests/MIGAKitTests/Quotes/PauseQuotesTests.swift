import Foundation
import Testing
@testable import MIGAKit

/// The pause's light reading of the quote files agrees with the library's
/// full one: the same ids to draw from, the same words, the same problems.
@Suite struct PauseQuotesTests {
    let folder = TemporaryDirectory()

    init() throws {
        try folder.write("""
            # mine
            tea-1 | Tea, Rest | a friend | A cup, slowly.
            tea-2 | Tea | | Steam / and then / quiet
            bad line without fields
            tea-1 | Tea | | the same id again
            stoicism-001 | Tea | | a built-in id is not mine to take
            blank-tags | , | | no tags at all
            empty | Tea | |
            """, to: "quotes/a.txt")
        try folder.write("tea-2 | Tea | | a second file's copy is skipped\nzen-x | Zen | Bashō | A frog.\n", to: "quotes/b.txt")
        FileManager.default.createFile(atPath: folder.path + "/quotes/c.txt",
                                       contents: Data("bytes-1 | Odd | | caf\u{E9} ".utf8 + [0xFF] + Array(" end\n".utf8)))
    }

    @Test(arguments: [[], ["tea"], ["ZEN", "rest"], ["nothing-matches"]])
    func the_pool_and_every_quote_match_the_library(interests: [String]) {
        let library = QuoteLibrary(folder: folder.path + "/quotes")
        let light = PauseQuotes(folder: folder.path + "/quotes", interests: interests)
        #expect(light.pool == library.bank.pool(for: interests).map(\.id))
        for id in light.pool { #expect(light[id] == library.bank[id], "\(id)") }
        #expect(light.problems == library.problems)
        #expect(light["no-such-id"] == nil)
    }

    @Test func a_drawn_quote_of_the_persons_is_read_from_its_line() throws {
        let light = PauseQuotes(folder: folder.path + "/quotes", interests: [])
        let quote = try #require(light["tea-2"])
        #expect(quote.verses == ["Steam", "and then", "quiet"])
        #expect(quote.file == folder.path + "/quotes/a.txt")
        #expect(light["bytes-1"]?.text == "caf\u{E9} \u{FFFD} end")
    }
}
