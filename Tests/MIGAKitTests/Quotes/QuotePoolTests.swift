import Foundation
import Testing
@testable import MIGAKit
@testable import MIGATestSupport

/// The pause's light reading of the quote files agrees with the library's
/// full one: the same ids to draw from, the same words, the same problems.
@Suite struct QuotePoolTests {
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
        #expect(FileManager.default.createFile(atPath: folder.path + "/quotes/c.txt",
                                       contents: Data("bytes-1 | Odd | | caf\u{E9} ".utf8 + [0xFF] + Array(" end\n".utf8))))
    }

    @Test(arguments: [[], ["tea"], ["ZEN", "rest"], ["nothing-matches"]])
    func the_pool_and_every_quote_match_the_library(interests: [String]) {
        let library = QuoteLibrary(folder: folder.path + "/quotes")
        let light = QuotePool(folder: folder.path + "/quotes", interests: interests)
        #expect(light.pool == library.bank.pool(for: interests).map(\.id))
        for id in light.pool { #expect(light[id] == library.bank[id], "\(id)") }
        #expect(light.problems == library.problems)
        #expect(light["no-such-id"] == nil)
    }

    @Test func a_drawn_quote_of_the_persons_is_read_from_its_line() throws {
        let light = QuotePool(folder: folder.path + "/quotes", interests: [])
        let quote = try #require(light["tea-2"])
        #expect(quote.verses == ["Steam", "and then", "quiet"])
        #expect(quote.file == folder.path + "/quotes/a.txt")
        #expect(light["bytes-1"]?.text == "caf\u{E9} \u{FFFD} end")
    }

    @Test(arguments: [false, true])
    func a_drawn_quote_is_read_from_its_own_bytes_not_the_whole_file(cached: Bool) throws {
        // A pool's places are byte offsets into the file as it is on disk; the
        // pause reads only the shown quote's line. Bytes that are not UTF-8
        // before it (a repair makes each three bytes) move nothing.
        _ = QuotePool(folder: folder.path + "/quotes", interests: [], cache: cached ? cache : nil)
        let light = QuotePool(folder: folder.path + "/quotes", interests: [], cache: cached ? cache : nil)
        let file = try #require(FileHandle(forWritingAtPath: folder.path + "/quotes/a.txt"))
        file.write(Data("# ".utf8 + [0xFF, 0xFF, 0xFF, 0xFF]))  // over "# mine", as long
        try file.close()
        #expect(light["tea-2"]?.verses == ["Steam", "and then", "quiet"])
        #expect(light["zen-x"]?.text == "A frog.")
    }

    // MARK: The cache

    var cache: String { folder.path + "/data/quote-pool" }

    func same(_ a: QuotePool, _ b: QuotePool) {
        #expect(a.pool == b.pool)
        #expect(a.problems == b.problems)
        for id in a.pool { #expect(a[id] == b[id], "\(id)") }
    }

    @Test(arguments: [[], ["tea"]])
    func a_cached_reading_gives_what_a_fresh_one_does(interests: [String]) throws {
        let fresh = QuotePool(folder: folder.path + "/quotes", interests: interests)
        let first = QuotePool(folder: folder.path + "/quotes", interests: interests, cache: cache)
        let written = try String(contentsOfFile: cache, encoding: .utf8)
        let second = QuotePool(folder: folder.path + "/quotes", interests: interests, cache: cache)
        same(fresh, first)
        same(fresh, second)
        // The second came from the cache: it was not rewritten.
        #expect(try String(contentsOfFile: cache, encoding: .utf8) == written)
        var info = stat()
        stat(cache, &info)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test func a_changed_file_or_interest_is_read_afresh() throws {
        _ = QuotePool(folder: folder.path + "/quotes", interests: [], cache: cache)
        try folder.write("tea-2 | Tea | | a second file's copy is skipped\nzen-x | Zen | Bashō | A frog.\nnew-1 | New | | Just added.\n",
                         to: "quotes/b.txt")
        let changed = QuotePool(folder: folder.path + "/quotes", interests: [], cache: cache)
        #expect(changed.pool.contains("new-1"))
        #expect(changed["new-1"]?.text == "Just added.")
        let narrowed = QuotePool(folder: folder.path + "/quotes", interests: ["new"], cache: cache)
        #expect(narrowed.pool == ["new-1"])
        try FileManager.default.removeItem(atPath: folder.path + "/quotes/b.txt")
        let removed = QuotePool(folder: folder.path + "/quotes", interests: [], cache: cache)
        #expect(!removed.pool.contains("new-1") && !removed.pool.contains("zen-x"))
        same(removed, QuotePool(folder: folder.path + "/quotes", interests: []))
    }

    @Test(arguments: ["", "miga-quote-pool 2\nkey 0\n", "garbage\n\n\t\t", "miga-quote-pool 2\nkey KEY\nfiles 99\n"])
    func a_broken_cache_is_read_past_and_replaced(content: String) throws {
        let key = QuotePool.key(files: QuoteLibrary.files(in: folder.path + "/quotes"), interests: [])
        try folder.write(content.replacingOccurrences(of: "KEY", with: key), to: "data/quote-pool")
        same(QuotePool(folder: folder.path + "/quotes", interests: [], cache: cache),
             QuotePool(folder: folder.path + "/quotes", interests: []))
        #expect(try String(contentsOfFile: cache, encoding: .utf8).hasPrefix("\(QuotePool.cacheFormat)\nkey \(key)\n"))
    }
}
