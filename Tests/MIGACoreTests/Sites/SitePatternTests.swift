import Foundation
import Testing
@testable import MIGACore

/// The site as the browser is told it: the table of addresses the browsers'
/// test reads too (Tests/Fixtures/site-addresses.tsv), met by `Site.covers`
/// and by the pattern alike, and random spellings on which the two agree.
@Suite struct SitePatternTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let site: String
        let address: String
        let covered: Bool
        var testDescription: String { "\(site) \(covered ? "covers" : "leaves open") \(address)" }
    }

    /// The rows of the shared table.
    static let table: [Case] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/site-addresses.tsv")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3 else { return nil }
            return Case(site: fields[0], address: fields[1], covered: fields[2] == "covered")
        }
    }()

    static func matches(_ pattern: String, _ address: String) throws -> Bool {
        try Regex(pattern).ignoresCase().wholeMatch(in: address) != nil
    }

    @Test func the_table_is_there_and_says_both() {
        #expect(Self.table.count >= 50)
        #expect(Self.table.contains { $0.covered } && Self.table.contains { !$0.covered })
    }

    @Test(arguments: table)
    func a_site_covers_what_the_table_says(_ row: Case) throws {
        let site = try Site(row.site)
        #expect(site.covers(row.address) == row.covered)
        #expect(try Self.matches(site.pattern, row.address) == row.covered, "\(site.pattern)")
        // What the browser's rules catch (the host aside, which is theirs to match) holds every covered address.
        if row.covered {
            #expect(try SitePattern.browserFilters(site).contains { try Self.matches($0, row.address) })
        }
    }

    @Test func a_site_typed_with_what_a_browser_encodes_is_kept_as_the_browser_sends_it() throws {
        #expect(try Site("news.example/a{b}").name == "news.example/a%7bb%7d")
        #expect(try Site("news.example/a b\"<>`").name == "news.example/a%20b%22%3c%3e%60")
        #expect(try Site("reddit.com/r/%61ll").name == "reddit.com/r/all")
        #expect(try Site("reddit.com//r//all;x/").name == "reddit.com/r/all")
        #expect(try Site("reddit.com\\r\\all").name == "reddit.com/r/all")
        #expect(try Site("reddit.com/r%2Fall").name == "reddit.com/r/all")
    }

    @Test(arguments: ["reddit.com/r/../all", "reddit.com/r/%2e%2e/all", "example.com/100%25", "example.com/a%b"])
    func a_path_that_cannot_be_matched_one_way_is_refused(typed: String) {
        #expect(throws: MigaError.self) { try Site(typed) }
    }

    @Test func a_pasted_address_loses_its_query_and_says_so() throws {
        let read = try Site.read("https://www.youtube.com/watch?v=x")
        #expect(read.site.name == "youtube.com/watch")
        #expect(read.note == "youtube.com/watch: a site is a host and a path, so what followed it (?…, #…) was left out.")
        #expect(try Site.read("youtube.com/feed#top").note != nil)
        #expect(try Site.read("youtube.com").note == nil)
        #expect(try Site.read("youtube.com/?").note == nil)
    }

    /// A path longer than the browser's rules spell out is caught by its
    /// first bytes, and the rules stay small whatever the site.
    @Test func a_long_path_is_caught_by_its_first_bytes_and_the_rules_stay_small() throws {
        let long = try Site("example.com/" + String(repeating: "abcdefg/", count: 31) + "end")
        let filters = SitePattern.browserFilters(long)
        #expect(try filters.contains { try Self.matches($0, "https://example.com/" + String(repeating: "abcdefg/", count: 31) + "end/x") })
        #expect(filters.allSatisfy { $0.utf8.count < 300 }, "\(filters.map(\.utf8.count))")
        #expect(SitePattern.browserFilters(try Site("youtube.com")) == ["^https?://[^/?#]*(?:[/?#].*)?$"])
    }

    /// A more particular site's redirect outranks a broader one's allow rule,
    /// and each site's allow rule its own redirect.
    @Test func priorities_follow_how_particular_a_site_is() throws {
        let broad = try Site("reddit.com"), narrow = try Site("reddit.com/r/all"), sub = try Site("old.reddit.com")
        #expect(SitePattern.allowPriority(broad) > SitePattern.redirectPriority(broad))
        #expect(SitePattern.redirectPriority(narrow) > SitePattern.allowPriority(broad))
        #expect(SitePattern.redirectPriority(sub) > SitePattern.allowPriority(narrow))
        let longest = try Site("a.example/" + String(repeating: "p", count: Site.longestPath - 1))
        #expect(SitePattern.redirectPriority(try Site("ab.example")) > SitePattern.allowPriority(longest))
    }

    /// Random addresses spelled with every trick the reading knows (escapes
    /// of either case, encoded slashes, parameters, dots, runs of slashes),
    /// on random sites: the pattern and `covers` agree on each.
    @Test func the_pattern_and_covers_agree_on_random_spellings() throws {
        var generator = SeededGenerator(seed: 20_261_127)
        let pieces = ["a", "b", "A", "%61", "%41", "%62", "/", "//", "%2f", "%2F", ";", ";x", "%3b", "%3B", ".", "%2e",
                      "%", "%6", "%zz", "-", "%2d", "~", "é", "%c3%a9", "{", "%7b", "?", "#"]
        let sites = try ["x.example/a", "x.example/ab/b", "x.example/a-b", "x.example/caf%c3%a9", "x.example/a%7bb", "x.example"]
            .map(Site.init)
        let patterns = try sites.map { try Regex($0.pattern).ignoresCase() }
        let filters = try sites.map { try SitePattern.browserFilters($0).map { try Regex($0).ignoresCase() } }
        var covered = 0
        for _ in 0..<4000 {
            let length = Int.random(in: 1...9, using: &generator)
            let path = (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let address = "http://www.x.example/" + path
            for ((site, pattern), caught) in zip(zip(sites, patterns), filters) {
                let expected = site.covers(address)
                covered += expected && !site.path.isEmpty ? 1 : 0
                #expect(try (pattern.wholeMatch(in: address) != nil) == expected, "\(site.name) \(address)")
                if expected { #expect(try caught.contains { try $0.wholeMatch(in: address) != nil }, "\(site.name) \(address)") }
            }
        }
        #expect(covered > 100, "too few covered spellings to say anything: \(covered)")
    }
}
