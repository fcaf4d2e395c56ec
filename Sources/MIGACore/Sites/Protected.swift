/// What MIGA protects: a program, by the command that starts it, or a
/// website. Beyond the process it is one string, its `historyName` (the
/// store's rows, `--program`, the kept rules, the browser's rules and the
/// pauses it sends back): a program by its command, a site as `site:NAME`.
/// That spelling is written and read here alone, so that nothing else
/// tells a site from a program by how its name begins.
public enum Protected: Hashable, Sendable {
    case program(String)
    case site(Site)

    /// What a site's history name begins with.
    private static let sitePrefix = "site:"

    /// Its name in the history, in `--program`, in the kept rules and in the browser's rules.
    public var historyName: String {
        switch self {
        case .program(let command): command
        case .site(let site): Self.sitePrefix + site.name
        }
    }

    /// What a history name stands for: a site for `site:` and a name that
    /// reads as one (`site:www.YouTube.com` is youtube.com), else a program;
    /// nil for `site:` and a name that is no site.
    public init?(historyName name: String) {
        guard name.hasPrefix(Self.sitePrefix) else {
            self = .program(name)
            return
        }
        guard let site = try? Site(String(name.dropFirst(Self.sitePrefix.count))) else { return nil }
        self = .site(site)
    }

    /// A site's history name as help writes it, around a name that is an
    /// example (`NAME`, `youtube.com`) and so is not read.
    public static func siteSpelling(_ name: String) -> String { sitePrefix + name }

    /// The site, when it is one.
    public var site: Site? {
        if case .site(let site) = self { site } else { nil }
    }

    /// How a history name is shown beside the programs: a site by its name,
    /// marked as one (`youtube.com (site)`); anything else as it is.
    public static func shownName(of historyName: String) -> String {
        Protected(historyName: historyName)?.site.map { $0.name + " (site)" } ?? historyName
    }

    /// The history name of one typed as `site:` and an address
    /// (`site:www.YouTube.com` is `site:youtube.com`); any other as it is.
    public static func historyName(of typed: String) -> String {
        Protected(historyName: typed)?.historyName ?? typed
    }
}

extension Site {
    /// Its name in the history and in `--program`.
    public var historyName: String { Protected.site(self).historyName }
}
