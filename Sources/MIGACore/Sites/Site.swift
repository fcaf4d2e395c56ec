/// A protected website: a host with all its subdomains, on any port,
/// optionally only under a path (`reddit.com/r/all`). Its history is kept
/// beside the programs' (`Protected`).
public struct Site: Hashable, Sendable {
    /// The host in the ASCII a browser's address carries, lower case.
    public let host: String
    /// A path prefix starting with `/`, spelled as a browser sends it (see
    /// `path(_:refuse:)`); empty for the whole site.
    public let path: String

    /// How MIGA names it: `youtube.com`, `reddit.com/r/all`.
    public var name: String { host + path }

    static let longestPath = 256

    /// The site a person typed: a host or an address (`https://www.youtube.com/`),
    /// a leading `www.` or `*.` and any port left out, the path read as a
    /// server reads it (`SitePath`) and spelled as a browser sends it. Throws
    /// a usage error that says why when it is none.
    public init(_ typed: String) throws(MigaError) {
        self = try Self.read(typed).site
    }

    /// What a person typed, read as a site: the site, and a note when a
    /// query or a fragment was left out (a pasted
    /// `https://www.youtube.com/watch?v=x` protects youtube.com/watch, and the
    /// person is told that the query was not kept: a site is a host and a path).
    public static func read(_ typed: String) throws(MigaError) -> (site: Site, note: String?) {
        func refuse(_ why: String) -> MigaError {
            MigaError(usage: "\"\(printable(String(typed.prefix(80))))\" is not a website to protect: \(why)")
        }
        var rest = Substring(typed.trimmingWhitespace())
        // A scheme is before any slash: a "://" in a query is the query's.
        if let scheme = rest.firstRange(of: "://"), !rest[..<scheme.lowerBound].contains("/") {
            guard ["http", "https"].contains(rest[..<scheme.lowerBound].lowercased()) else {
                throw refuse("only http and https addresses can be paused")
            }
            rest = rest[scheme.upperBound...]
        }
        var droppedQuery = false
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            droppedQuery = rest.index(after: query) < rest.endIndex
            rest = rest[..<query]
        }
        // A browser reads a backslash in an http address as a slash.
        let slash = rest.firstIndex { $0 == "/" || $0 == "\\" } ?? rest.endIndex
        var authority = rest[..<slash]
        guard !authority.contains("@") else {
            throw refuse("give a host and, if you like, a path (no user name)")
        }
        if let colon = authority.lastIndex(of: ":") {
            guard let port = Int(authority[authority.index(after: colon)...]), (1...65_535).contains(port) else {
                throw refuse("the port is not a number from 1 to 65535")
            }
            authority = authority[..<colon]
        }
        guard let host = Self.host(String(authority)) else {
            throw refuse("a host is names of letters, digits and hyphens joined by dots (youtube.com)")
        }
        let path = try Self.path(rest[slash...], refuse: refuse)
        let site = Site(host: host, path: path)
        return (site, droppedQuery ? "\(site.name): a site is a host and a path, so what followed it (?…, #…) was left out." : nil)
    }

    private init(host: String, path: String) {
        self.host = host
        self.path = path
    }

    /// Whether the address `url` is on this site: an http or https address
    /// whose host is this one or under it, and whose path, read as a server
    /// reads it (`SitePath`), is under this site's path, segment by segment.
    public func covers(_ url: String) -> Bool {
        guard let address = Address(url) else { return false }
        guard address.host == host || address.host.hasSuffix("." + host) else { return false }
        guard !path.isEmpty else { return true }
        // A `..` a browser did not resolve (behind an encoded slash) is one a
        // server may: where it leads is not known, so it is taken as here.
        return SitePath.goesUp(address.path.utf8) || SitePath.isUnder(SitePath.segments(address.path.utf8), segments)
    }

    /// The path's segments, as `SitePath` reads them.
    var segments: [SitePath.Segment] { SitePath.segments(path.utf8) }

    /// The site `url` pauses as: of those that cover it, the most particular
    /// (the longest host, then the longest path).
    public static func covering(_ url: String, among sites: [Site]) -> Site? {
        sites.filter { $0.covers(url) }.max { SitePattern.particularity($0) < SitePattern.particularity($1) }
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

    /// A path prefix, read as a server reads it (`SitePath`) and spelled
    /// as a browser sends it: each segment's letters lower case, what an
    /// address may hold as it is, any other byte percent-encoded
    /// (`{` is `%7b`, `é` is `%c3%a9`); empty for the whole site.
    static func path(_ typed: Substring, refuse: (String) -> MigaError) throws(MigaError) -> String {
        let bytes = typed.utf8.map { $0 == UInt8(ascii: "\\") ? SitePath.slash : $0 }
        guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { throw refuse("the path holds a control character") }
        let segments = SitePath.segments(bytes)
        guard !segments.contains(SitePath.upward) else {
            throw refuse("the path goes up a folder (..): give the path it arrives at")
        }
        // A decoded `%` could be read as the start of an escape by one
        // server and not by another: there is no one way to match it.
        guard !segments.contains(where: { $0.contains(SitePath.percent) }) else {
            throw refuse("the path holds a percent sign that is no escape (%25)")
        }
        let path = segments.map { "/" + $0.map(spelled).joined() }.joined()
        guard path.utf8.count <= longestPath else {
            throw refuse("the path is longer than \(longestPath) characters as a browser sends it")
        }
        return path
    }

    /// A byte of a path as a browser sends it: itself where an address may
    /// hold it so (`SitePattern.mayBeWritten`), else percent-encoded in lower case.
    private static func spelled(_ byte: UInt8) -> String {
        if SitePattern.mayBeWritten(byte) {
            return String(UnicodeScalar(byte))
        }
        return SitePath.percentEncoded(byte)
    }
}

/// The parts of a web address that decide its site: its host, and its
/// path as it is written (up to any query or fragment).
struct Address {
    let host: String
    let path: Substring

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
        path = afterHost[..<(afterHost.firstIndex { "?#".contains($0) } ?? afterHost.endIndex)]
    }
}
