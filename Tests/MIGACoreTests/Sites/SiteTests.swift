import Testing
@testable import MIGACore

@Suite struct SiteTests {
    // MARK: What a person types

    @Test(arguments: [
        ("youtube.com", "youtube.com"),
        ("YouTube.COM", "youtube.com"),
        ("https://www.youtube.com/", "youtube.com"),
        ("http://www.youtube.com:8080/", "youtube.com"),
        ("*.youtube.com", "youtube.com"),
        ("youtube.com.", "youtube.com"),
        ("reddit.com/r/all", "reddit.com/r/all"),
        ("reddit.com/r/all/", "reddit.com/r/all"),
        ("https://old.reddit.com/r/All", "old.reddit.com/r/all"),
        ("news.ycombinator.com", "news.ycombinator.com"),
        ("bücher.de", "xn--bcher-kva.de"),
        ("wikipedia.org/wiki/Café", "wikipedia.org/wiki/caf%c3%a9"),
        ("xn--bcher-kva.de", "xn--bcher-kva.de"),
        ("例え.テスト", "xn--r8jz45g.xn--zckzah"),
        ("127.0.0.1", "127.0.0.1"),
    ])
    func a_site_is_kept_by_its_host_and_path_prefix(typed: String, name: String) throws {
        let site = try Site(typed)
        #expect(site.name == name)
        #expect(site.historyName == "site:" + name)
    }

    @Test(arguments: [
        "", " ", "youtube", "you tube.com", "youtube..com", "-youtube.com", "youtube-.com",
        "ftp://youtube.com", "file:///etc/passwd",
        "user@youtube.com", "[::1]", "\u{1B}]52;c;aGk=\u{07}.com", "youtube.com/\u{7F}",
        String(repeating: "a", count: 64) + ".com", String(repeating: "ab.", count: 90) + "com",
        "youtube.com/" + String(repeating: "p", count: 300), "youtube.com:99999", "youtube.com:http",
    ])
    func what_is_no_site_is_refused_with_a_reason(typed: String) {
        #expect(throws: MigaError.self) { try Site(typed) }
        do {
            _ = try Site(typed)
        } catch {
            #expect(error.status == ExitStatus.usage)
            #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        }
    }

    // MARK: Which addresses it covers (the table: SitePatternTests)

    @Test func the_most_particular_site_is_the_one_an_address_pauses_as() throws {
        let sites = try ["reddit.com", "reddit.com/r/all", "old.reddit.com", "youtube.com"].map(Site.init)
        #expect(Site.covering("https://www.reddit.com/r/all/new", among: sites)?.name == "reddit.com/r/all")
        #expect(Site.covering("https://old.reddit.com/r/all", among: sites)?.name == "old.reddit.com")
        #expect(Site.covering("https://www.reddit.com/r/linux", among: sites)?.name == "reddit.com")
        #expect(Site.covering("https://example.org/", among: sites) == nil)
    }

    // MARK: Punycode (RFC 3492's own samples)

    @Test(arguments: [
        ("bücher", "bcher-kva"),
        ("münchen", "mnchen-3ya"),
        ("他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),
        ("ليهمابتكلموشعربي؟", "egbpdaj6bu4bxfgehfvwxn"),
        ("почемужеонинеговорятпорусски", "b1abfaaepdrnnbgefbadotcwatmq2g4l"),
    ])
    func a_label_in_any_script_is_spelled_in_punycode(label: String, encoded: String) {
        #expect(Punycode.encode(label) == encoded)
    }
}
