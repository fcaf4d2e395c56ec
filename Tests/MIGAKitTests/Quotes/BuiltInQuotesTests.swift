import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATestSupport

/// The pause's reading of the built-in bank, a line at a time, gives what
/// the whole bank's parse gives: the same ids in the same order, the same
/// tags, and each quote alike.
@Suite struct BuiltInQuotesTests {
    @Test func each_built_in_quote_made_from_its_line_is_the_one_the_whole_bank_holds() {
        let bank = QuoteBank.builtIn.quotes
        #expect(bank.count > 100)
        #expect(BuiltInQuotes.entries.map(\.id) == bank.map(\.id))
        #expect(BuiltInQuotes.entries.map(\.tags) == bank.map(\.tags))
        for quote in bank { #expect(BuiltInQuotes.quote(quote.id) == quote) }
        #expect(BuiltInQuotes.quote("no-such-quote") == nil)
    }

    @Test func the_pool_draws_from_the_built_in_ids_and_matches_interests_by_tag() throws {
        let folder = TemporaryDirectory()
        let tag = try #require(QuoteBank.builtIn.quotes.first?.tags.first)
        let pool = QuotePool(folder: folder.path + "/none", interests: [tag.uppercased()])
        #expect(pool.pool == QuoteBank.builtIn.quotes.filter { $0.tags.contains { $0.lowercased() == tag.lowercased() } }.map(\.id))
        let everything = QuotePool(folder: folder.path + "/none", interests: [])
        #expect(everything.pool == QuoteBank.builtIn.quotes.map(\.id))
        for id in everything.pool.prefix(5) { #expect(everything[id] == QuoteBank.builtIn[id]) }
    }
}
