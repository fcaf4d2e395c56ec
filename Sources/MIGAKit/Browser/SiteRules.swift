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
        config.sites.keys.sorted().compactMap { name in
            guard let site = try? Site(name), let settings = config.sites[name] else { return nil }
            return SiteRule(site: site.name, program: site.program, host: site.host, pattern: site.pattern, domains: [site.host],
                            filters: SitePattern.browserFilters(site), redirectPriority: SitePattern.redirectPriority(site), allowPriority: SitePattern.allowPriority(site),
                            pause: config.pause(for: settings))
        }
    }

    private static func generation(of sites: [SiteRule]) -> String {
        let hash = FNV1a.hash(sites.flatMap { [$0.site, $0.pattern, String($0.redirectPriority), String($0.allowPriority), String($0.pause)] })
        return String(hash, radix: 16)
    }
}
