import Testing
@testable import MIGACore
@testable import MIGATestSupport

/// What is protected is a type (`Protected`): its one string, the history
/// name, is written and read in one place, and nothing else tells a site
/// from a program by how a name begins.
@Suite struct ProtectedTests {
    @Test(arguments: ["firefox", "site:youtube.com", "site:reddit.com/r/all", "site:xn--bcher-kva.de"])
    func a_history_name_reads_back_as_it_was_written(name: String) throws {
        let protected = try #require(Protected(historyName: name))
        #expect(protected.historyName == name)
        #expect(Protected(historyName: protected.historyName) == protected)
    }

    @Test func a_site_name_reads_as_the_site_and_anything_else_as_a_program() throws {
        #expect(Protected(historyName: "site:reddit.com/r/all") == .site(try Site("reddit.com/r/all")))
        #expect(Protected(historyName: "site:www.YouTube.com") == .site(try Site("youtube.com")))
        #expect(Protected(historyName: "firefox") == .program("firefox"))
        #expect(Protected(historyName: "site:no site") == nil, "`site:` and what names no site is neither")
    }

    @Test func the_stored_spelling_is_the_one_the_history_has_always_kept() throws {
        #expect(try Site("reddit.com/r/all").historyName == "site:reddit.com/r/all")
        #expect(Protected.historyName(of: "site:www.YouTube.com") == "site:youtube.com")
        #expect(Protected.historyName(of: "site:no site") == "site:no site")
        #expect(Protected.shownName(of: "site:youtube.com") == "youtube.com (site)")
        #expect(Protected.shownName(of: "firefox") == "firefox")
    }

    /// The guard of the invariant: no other source file writes or compares
    /// the spelling (`site:` before a name, or ending a string), so no
    /// string prefix decides anything elsewhere. Prose may say "a site: …".
    @Test func the_site_spelling_is_in_one_source_file_only() {
        #expect(ProductSources.code["MIGACore/Sites/Protected.swift"] != nil, "no sources under \(ProductSources.folder.path)")
        let files = ProductSources.code.filter { _, code in
            ProductSources.stringLiterals(in: code).contains(where: Self.spellsTheSitePrefix)
        }.keys.sorted()
        #expect(files == ["MIGACore/Sites/Protected.swift"])
    }

    @Test func the_guard_tells_the_prefix_from_prose() {
        #expect(Self.spellsTheSitePrefix("site:"))
        #expect(Self.spellsTheSitePrefix("--program site:youtube.com"))
        #expect(!Self.spellsTheSitePrefix("Only this program (a site: "))
        #expect(!Self.spellsTheSitePrefix("a website"))
    }

    /// Whether `text` holds `site:` followed by a name or by its end.
    static func spellsTheSitePrefix(_ text: Substring) -> Bool {
        var rest = text
        while let found = rest.firstRange(of: "site:") {
            rest = rest[found.upperBound...]
            guard let next = rest.first else { return true }
            if !next.isWhitespace { return true }
        }
        return false
    }
}
