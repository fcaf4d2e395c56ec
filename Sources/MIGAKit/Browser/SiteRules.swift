import FoundationEssentials
import MIGACore
import MIGAConfig
import MIGADesktop

/// What the extension is told of the protected sites: for each, the rules
/// it installs as they are (its redirects' domains and filters, and the
/// priorities of its redirects and of its allow rules after a Proceed), and
/// the pattern of exactly the addresses it covers, which the extension
/// checks what a redirect caught against and matches what no rule sees
/// with; all made here from `Site` (`SitePattern`), so that the extension
/// derives nothing;
/// and quotes for a pause held without the host. A site whose rules are
/// kept after `miga uninstall` has none. `generation` names the
/// sites' rules: the extension reports it once they are in place, and
/// `miga protect --site` waits for the browsers connected to report it.
struct SiteRules: Encodable {
    struct SiteRule: Encodable, Equatable {
        let site: String
        let program: String
        /// The site's host, with its subdomains (whose service workers the extension takes away).
        let host: String
        /// Exactly the addresses the site covers (matched without regard to case).
        let pattern: String
        /// The redirect rules' `requestDomains` and `regexFilter`s (Chromium's:
        /// Firefox's extension decides each visit itself, by `pattern`): what
        /// they catch holds what `pattern` matches.
        let domains: [String]
        let filters: [String]
        /// The allow rules' filter after a Proceed: the site's path as written
        /// alone, never the filter of unusual spellings, which would let a
        /// broader or a sibling site's spellings through too (those are let
        /// through one at a time, once the pause page has checked them).
        let allowFilter: String
        let redirectPriority: Int
        let allowPriority: Int
        /// The pause's length in seconds, for a pause held without the host.
        let pause: Int
    }
    struct KeptQuote: Encodable {
        let id: String
        let verses: [String]
        let source: String?
    }
    var type = "rules"
    let sites: [SiteRule]
    let quotes: [KeptQuote]
    let generation: String

    /// The quotes handed to the extension for a pause without the host.
    static let quotesToKeep = 40

    /// The rules of the config in `paths`, with quotes drawn by `generator`;
    /// nil when the config cannot be read (not TOML, or not a file MIGA can
    /// read), which is no word on what is protected.
    static func load(paths: XDGPaths, generator: inout SeededGenerator) -> SiteRules? {
        let loaded = ConfigLoader.load(from: paths.configFile)
        guard loaded.syntaxError == nil && loaded.unreadable == nil else { return nil }
        let pool = QuotePool(folder: paths.userQuotesDirectory, interests: loaded.config.interests,
                             cache: paths.dataDirectory + "/quote-pool")
        let kept = pool.pool.shuffled(using: &generator).prefix(quotesToKeep).compactMap { pool[$0] }
        return SiteRules(sites: sites(of: KeptRules(paths: paths).protectedOnly(loaded.config)),
                         quotes: kept.map { KeptQuote(id: $0.id, verses: $0.verses, source: $0.source) })
    }

    /// The generation of the rules the config in `paths` gives now; nil when it cannot be read.
    static func generation(paths: XDGPaths) -> String? {
        let loaded = ConfigLoader.load(from: paths.configFile)
        guard loaded.syntaxError == nil && loaded.unreadable == nil else { return nil }
        return generation(of: sites(of: KeptRules(paths: paths).protectedOnly(loaded.config)))
    }

    init(sites: [SiteRule], quotes: [KeptQuote]) {
        self.sites = sites
        self.quotes = quotes
        generation = Self.generation(of: sites)
    }

    private static func sites(of config: Config) -> [SiteRule] {
        config.protectedSites.compactMap { site in config.sites[site.name].map { rule(for: site, pause: config.pause(for: $0)) } }
    }

    /// The rules of one site, with a pause of `pause` seconds.
    static func rule(for site: Site, pause: Int) -> SiteRule {
        let filters = SitePattern.browserFilters(site)
        return SiteRule(site: site.name, program: site.historyName, host: site.host, pattern: site.pattern, domains: [site.host],
                        filters: filters, allowFilter: filters[0], redirectPriority: SitePattern.redirectPriority(site),
                        allowPriority: SitePattern.allowPriority(site), pause: pause)
    }

    /// Every field of every rule, as sent.
    private static func generation(of sites: [SiteRule]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(FNV1a.hash([String(decoding: (try? encoder.encode(sites)) ?? Data(), as: UTF8.self)]), radix: 16)
    }
}
