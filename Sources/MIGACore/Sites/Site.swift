/// A protected website: a host with all its subdomains, on any port,
/// optionally only under a path (`reddit.com/r/all`). Its history is kept
/// as the program `site:NAME`, beside the programs.
public struct Site: Hashable, Sendable {
    /// The host in the ASCII a browser's address carries, lower case.
    public let host: String
    /// A path prefix, lower case, starting with `/`; empty for the whole site.
    public let path: String

    /// How MIGA names it: `youtube.com`, `reddit.com/r/all`.
    public var name: String { host + path }
    /// Its name in the history and in `--program`.
    public var program: String { Self.programPrefix + name }

    /// What a site's program name begins with.
    public static let programPrefix = "site:"
    static let longestPath = 256

    /// The site a person typed: a host or an address (`https://www.youtube.com/`),
    /// a leading `www.` or `*.` and any port left out. Throws a usage error
    /// that says why when it is none.
    public init(_ typed: String) throws(MigaError) {
        func refuse(_ why: String) -> MigaError {
            MigaError(usage: "\"\(printable(String(typed.prefix(80))))\" is not a website to protect: \(why)")
        }
        var rest = Substring(typed.trimmingWhitespace())
        if let scheme = rest.firstRange(of: "://") {
            guard ["http", "https"].contains(rest[..<scheme.lowerBound].lowercased()) else {
                throw refuse("only http and https addresses can be paused")
            }
            rest = rest[scheme.upperBound...]
        }
        guard !rest.contains(where: { "?#@ \\".contains($0) }) else {
            throw refuse("give a host and, if you like, a path (no query, fragment or user)")
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        if let colon = authority.lastIndex(of: ":") {
            guard let port = Int(authority[authority.index(after: colon)...]), (1...65_535).contains(port) else {
                throw refuse("the port is not a number from 1 to 65535")
            }
            authority = authority[..<colon]
        }
        guard let host = Self.host(String(authority)) else {
            throw refuse("a host is names of letters, digits and hyphens joined by dots (youtube.com)")
        }
        guard let path = Self.path(rest[slash...]) else {
            throw refuse("the path is too long or holds what an address cannot")
        }
        self.host = host
        self.path = path
    }

    /// The site a history's program name stands for; nil for a program.
    public init?(program: String) {
        guard program.hasPrefix(Self.programPrefix),
              let site = try? Site(String(program.dropFirst(Self.programPrefix.count))) else { return nil }
        self = site
    }

    /// How a history's program name is shown beside the programs: a site
    /// by its name, marked as one (`youtube.com (site)`); a program as it is.
    public static func shownName(of program: String) -> String {
        Site(program: program).map { $0.name + " (site)" } ?? program
    }

    /// The program name a site's history is kept under, for one typed as
    /// `site:` and an address (`site:www.YouTube.com`); any other as it is.
    public static func historyName(of program: String) -> String {
        Site(program: program)?.program ?? program
    }

    /// Whether the address `url` is on this site (an http or https address
    /// whose host is this one or under it, and whose path is under its prefix).
    public func covers(_ url: String) -> Bool {
        guard let address = Address(url) else { return false }
        guard address.host == host || address.host.hasSuffix("." + host) else { return false }
        guard !path.isEmpty else { return true }
        return address.path == path || address.path.hasPrefix(path + "/")
    }

    /// The site `url` pauses as: of those that cover it, the most particular
    /// (the longest host, then the longest path).
    public static func covering(_ url: String, among sites: [Site]) -> Site? {
        sites.filter { $0.covers(url) }.max { ($0.host.count, $0.path.count) < ($1.host.count, $1.path.count) }
    }

    /// A host as an address carries it: lower case, Punycode for labels in
    /// other scripts, no `www.`/`*.`, no final dot; nil when it is no host.
    static func host(_ typed: String) -> String? {
        var labels = typed.lowercased().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if labels.last == "" { labels.removeLast() }
        if labels.count > 2, ["www", "*"].contains(labels.first) { labels.removeFirst() }
        let ascii = labels.map { label in
            label.unicodeScalars.allSatisfy(\.isASCII) ? label : Punycode.encode(label).map { "xn--" + $0 }
        }
        guard labels.count >= 2, ascii.allSatisfy({ $0.map(isLabel) == true }) else { return nil }
        let host = ascii.compactMap { $0 }.joined(separator: ".")
        return host.count <= 253 ? host : nil
    }

    private static func isLabel(_ label: String) -> Bool {
        (1...63).contains(label.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
            && label.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// A path prefix: lower case, no trailing `/`, only what an address's
    /// path holds (anything else percent-encoded as a browser would).
    static func path(_ typed: Substring) -> String? {
        var path = ""
        for byte in typed.lowercased().utf8 {
            switch byte {
            case 0x21...0x7E where byte != 0x25: path.append(Character(Unicode.Scalar(byte)))
            case 0x80...: path += "%" + String(byte, radix: 16)
            default: return nil
            }
        }
        while path.hasSuffix("/") { path.removeLast() }
        return path.count <= longestPath ? path : nil
    }
}

/// The parts of a web address that decide its site: host and path.
struct Address {
    let host: String
    let path: String

    init?(_ url: String) {
        guard let scheme = url.firstRange(of: "://"), ["http", "https"].contains(url[..<scheme.lowerBound].lowercased()) else {
            return nil
        }
        let rest = url[scheme.upperBound...]
        let end = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        var authority = rest[..<end]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if let colon = authority.lastIndex(of: ":"), !authority.hasPrefix("[") { authority = authority[..<colon] }
        var host = authority.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty else { return nil }
        self.host = host
        let afterHost = rest[end...]
        let pathEnd = afterHost.firstIndex { "?#".contains($0) } ?? afterHost.endIndex
        var path = afterHost[..<pathEnd].lowercased()
        while path.hasSuffix("/") { path.removeLast() }
        self.path = path
    }
}
