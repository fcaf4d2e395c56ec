import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGATestSupport

@Suite struct QuoteLibraryTests {
    let folder = TemporaryDirectory()
    var quotes: String { folder.path + "/quotes" }

    @Test func the_persons_quotes_join_the_built_in_bank() throws {
        try folder.write("# mine\nmine-001 | Tea |  | The kettle is singing.\nbroken line\n", to: "quotes/mine.txt")
        let library = QuoteLibrary(folder: quotes)
        #expect(library.bank.quotes.count == QuoteBank.builtIn.quotes.count + 1)
        #expect(library.bank["mine-001"]?.file == quotes + "/mine.txt")
        #expect(library.bank.pool(for: ["tea"]).map(\.id) == ["mine-001"])
        #expect(library.problems.map(\.line) == [3])
    }

    @Test func adding_and_removing_touch_only_the_persons_file() throws {
        let added = try QuoteLibrary(folder: quotes).add(text: "Look up.\nWhat colour is the sky?", tags: ["Nature", "Sky|Light"],
                                                        source: "a | notebook")
        #expect(added.id == "mine-001")
        let library = QuoteLibrary(folder: quotes)
        let quote = try #require(library.bank["mine-001"])
        #expect(quote.text == "Look up. What colour is the sky?")
        #expect(quote.tags == ["Nature", "Sky/Light"])
        #expect(quote.source == "a / notebook")
        #expect(try QuoteLibrary(folder: quotes).add(text: "Again.", tags: ["Rest"], source: nil).id == "mine-002")
        try QuoteLibrary(folder: quotes).remove("mine-001")
        #expect(QuoteLibrary(folder: quotes).bank["mine-001"] == nil)
        #expect(QuoteLibrary(folder: quotes).bank["mine-002"] != nil)
        #expect(throws: MigaError.self) { try QuoteLibrary(folder: quotes).remove("stoicism-001") }
        #expect(throws: MigaError.self) { try QuoteLibrary(folder: quotes).add(text: " ", tags: ["Rest"], source: nil) }
        #expect(throws: MigaError.self) { try QuoteLibrary(folder: quotes).add(text: "No tag.", tags: [], source: nil) }
    }

    @Test func tags_match_without_regard_to_case_and_keep_the_banks_spelling() throws {
        let added = try QuoteLibrary(folder: quotes).add(text: "Moss on the north side.", tags: ["nature", "MOSS"], source: nil)
        #expect(added.tags == ["Nature", "MOSS"])
        let library = QuoteLibrary(folder: quotes)
        #expect(!library.bank.tagCounts.contains { $0.tag == "nature" })
        #expect(library.bank.spelling(of: "moss") == "MOSS")
        #expect(library.bank.spelling(of: "lichen") == nil)
        // The same text again is the quote already there.
        #expect(try library.add(text: "Moss on the north side.", tags: ["Nature"], source: nil).id == added.id)
        #expect(QuoteLibrary(folder: quotes).bank.quotes.filter { $0.file != nil }.count == 1)
    }

    @Test func a_fortune_file_keeps_every_entry_its_source_and_its_tag() throws {
        try folder.write("""
            A penny saved is a penny
            earned, more or less.
            %
            Whatever you are, be a good one.
            \t\t-- A. Lincoln (apocryphal)
            %

            %
            Short | with a pipe.
            """, to: "wisdom")
        let imported = try QuoteLibrary(folder: quotes).importFortunes(from: folder.path + "/wisdom")
        #expect(imported.map(\.text) == ["A penny saved is a penny earned, more or less.", "Whatever you are, be a good one.",
                                         "Short | with a pipe."])
        #expect(imported[1].source == "A. Lincoln (apocryphal)")
        #expect(imported.allSatisfy { $0.tags == ["Wisdom"] })
        let library = QuoteLibrary(folder: quotes)
        #expect(library.problems.isEmpty)
        #expect(library.bank["wisdom-0003"]?.text == "Short | with a pipe.")
        // Again: replaced, not doubled.
        _ = try QuoteLibrary(folder: quotes).importFortunes(from: folder.path + "/wisdom")
        #expect(QuoteLibrary(folder: quotes).bank.quotes.filter { $0.tags == ["Wisdom"] }.count == 3)
    }

    @Test func malformed_fortune_files_are_refused_with_a_line_number() throws {
        try folder.write("fine\n%\nalso fine\n", to: "ok")
        #expect(FileManager.default.createFile(atPath: folder.path + "/latin1", contents: Data("one\n%\ncaf".utf8) + Data([0xE9, 0x0A])))
        #expect(FileManager.default.createFile(atPath: folder.path + "/binary", contents: Data("one\n%\n".utf8) + Data([0x7F, 0x45, 0x4C, 0x46, 0x00])))
        try folder.write("\n%\n\n%\n", to: "empty")
        let library = QuoteLibrary(folder: quotes)
        #expect(throws: MigaError(dataError: "\(folder.path)/latin1:3: not UTF-8 text")) { try library.importFortunes(from: folder.path + "/latin1") }
        #expect(throws: MigaError(dataError: "\(folder.path)/binary:3: binary data, not a fortune file")) { try library.importFortunes(from: folder.path + "/binary") }
        #expect(throws: MigaError.self) { try library.importFortunes(from: folder.path + "/empty") }
        #expect(try library.importFortunes(from: folder.path + "/ok").count == 2)
    }

    @Test func a_very_long_quote_is_cut_rather_than_pushing_the_countdown_away() {
        let long = Quote(id: "long", text: String(repeating: "and on and on ", count: 80), tags: ["Rest"])
        let frame = PauseScreen.frame(PauseSession(programName: "Firefox", length: 90, quote: long, at: 0),
                                      size: TerminalSize(columns: 80, rows: 24), look: PauseLook(motion: false))
        #expect(frame.text.contains("1:30"))
        #expect(frame.text.contains("…"))
        #expect(frame.text.contains("Exit to Focus"))
    }
}
