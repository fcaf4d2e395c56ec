import Testing
@testable import MIGAKit
import MIGAResources
@testable import MIGATerminal
@testable import MIGATestSupport

@Suite struct QuoteBankTests {
    @Test func the_built_in_bank_is_complete_and_clean() {
        let text = String(decoding: BuiltInResources.quoteBank, as: UTF8.self)
        let parsed = QuoteBank.parse(text, file: "quotes.txt")
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        let bank = QuoteBank.builtIn
        #expect(bank.quotes.count >= 150)
        #expect(bank.quotes.count == parsed.quotes.count)
        let tags = bank.tagCounts
        #expect(tags.count >= 8)
        for (tag, count) in tags {
            #expect(count >= 12, "\(tag) has only \(count) quotes")
        }
        for quote in bank.quotes {
            #expect(quote.text.count <= PauseScreen.longestQuote, "\(quote.id) is longer than the layout reserves")
            #expect(quote.source.map { $0.hasPrefix("inspired by ") } ?? true, "\(quote.id) has a source that reads like a citation")
        }
    }

    @Test func every_built_in_quote_fits_the_pause_at_80_by_24() {
        for quote in QuoteBank.builtIn.quotes {
            let session = PauseSession(programName: "Firefox", length: 90, quote: quote, at: 0)
            let frame = PauseScreen.frame(session, size: TerminalSize(columns: 80, rows: 24), look: PauseLook(motion: false))
            let shown = frame.text.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
            for word in quote.text.split(separator: " ") where word != "/" {
                #expect(shown.contains(word), "\(quote.id): \(word) is not on screen")
            }
            #expect(frame.text.contains("0:90") == false)
            #expect(frame.text.contains("1:30"), "\(quote.id) pushed the countdown off the screen")
        }
    }

    @Test func interests_choose_the_pool_and_fall_back_to_everything() {
        let bank = QuoteBank(quotes: [.sample("a", tags: ["Stoicism"]), .sample("b", tags: ["Nature", "Zen"]), .sample("c", tags: ["Poetry"])])
        #expect(bank.pool(for: ["zen"]).map(\.id) == ["b"])
        #expect(bank.pool(for: ["Stoicism", "Poetry"]).map(\.id) == ["a", "c"])
        #expect(bank.pool(for: []).count == 3)
        #expect(bank.pool(for: ["Knitting"]).count == 3)
    }

    @Test func bad_lines_are_reported_with_their_line_numbers_and_good_ones_kept() {
        let text = """
            # a comment
            one-001 | Zen |  | Sit.
            two-001 | Zen | only three fields
            one-001 | Zen |  | The same id again.
            three-001 |  |  | No tags.
            four-001 | Zen | inspired by a river | Flow | even with a pipe in the text.
            """
        let parsed = QuoteBank.parse(text, file: "mine.txt")
        #expect(parsed.quotes.map(\.id) == ["one-001", "four-001"])
        #expect(parsed.quotes[1].text == "Flow | even with a pipe in the text.")
        #expect(parsed.quotes[1].source == "inspired by a river")
        #expect(parsed.problems.map(\.line) == [3, 4, 5])
        #expect(parsed.problems[0].description.hasPrefix("mine.txt:3: expected `id | tags | source | text`"))
    }
}
