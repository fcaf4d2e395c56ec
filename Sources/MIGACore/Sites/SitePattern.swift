/// A site as the browser is told it: one regular expression that matches
/// exactly the addresses `Site.covers` covers, with the priorities of its
/// rules. The extension installs what it is given (as declarativeNetRequest
/// rules, and as its check of navigations no rule sees) and derives
/// nothing; the pattern is written in the part of the syntax that RE2
/// (Chromium's rules), JavaScript (Firefox's rules, the extension's check)
/// and Swift read alike, and is matched without regard to case.
///
/// The path is `SitePath`'s reading written out: between two segments any
/// run of slashes (`/` or `%2F`), empty or `.` segments and `;parameters`
/// before a written `/`; within a segment each byte written as itself or
/// percent-encoded, a letter in either case.
public enum SitePattern {
    /// The pattern of the addresses `site` covers.
    public static func of(_ site: Site) -> String {
        let host = "^https?://(?:[^/?#@]*@)?(?:[^/?#@]*\\.)?" + site.host.replacingOccurrences(of: ".", with: "\\.")
            + "\\.?(?::[0-9]+)?"
        let segments = site.segments
        guard !segments.isEmpty else { return host + "(?:[/?#].*)?$" }
        let between = separator + droppable
        let under = "/" + droppable + segments.map { $0.map(byte).joined() }.joined(separator: between)
            + "(?:" + parameters + "(?:[/?#].*)?|%2f.*)$"
        // Or a path that goes up once decoded (`SitePath.goesUp`).
        let upward = "[^?#]*(?:/|%2f)(?:\\.|%2e){2}(?:/|%2f|;|%3b|[?#]|$).*$"
        return host + "(?:" + under + "|" + upward + ")"
    }

    /// What a browser's redirect rules for `site` match, each with the site's
    /// host in `requestDomains` (which takes its subdomains and a final dot):
    /// together a superset of the addresses the site covers, each small
    /// enough for Chromium, which refuses a regular expression over 2 KB
    /// compiled (the full `pattern` of a path fits only a few characters).
    /// For a path: the path as written, case aside (its first
    /// `directLength` bytes when longer), and any address whose path is
    /// written in a way the plain path is not (an escape, a parameter, a run
    /// of slashes, a `.` segment, a byte a path does not hold as itself).
    /// What they catch that the site does not cover, the extension lets
    /// through once it has checked the full pattern. The first is the
    /// path as written: the one an allow rule after a Proceed is given.
    public static func browserFilters(_ site: Site) -> [String] {
        let authority = "^https?://[^/?#]*"
        guard !site.path.isEmpty else { return [authority + "(?:[/?#].*)?$"] }
        let written = site.path.utf8.prefix(directLength).map(literal).joined()
        let direct = authority + written + (site.path.utf8.count <= directLength ? "(?:[/?#].*)?$" : ".*$")
        return [direct, "^https?://[^?#]*(?:%|;|//|/\\.(?:/|[?#]|$)|[^-a-z0-9._~!$&'()*+,=:@/?#]).*$"]
    }

    /// How much of a path its direct rule spells out: measured, Chromium
    /// takes about 90 bytes of a path after `^https?://[^/?#]*`.
    static let directLength = 64

    /// A byte of a rule's path as written: letters and digits as they are
    /// (the rule ignores case), anything else by its code.
    private static func literal(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            String(UnicodeScalar(byte))
        default:
            "\\x" + hex(byte)
        }
    }

    /// The priority of the rule that sends the site's addresses to the pause.
    /// A more particular site (a longer host, then a longer path) outranks a
    /// broader one's allow rule: a Proceed on reddit.com is no Proceed on
    /// reddit.com/r/all.
    public static func redirectPriority(_ site: Site) -> Int { 2 * particularity(site) + 1 }

    /// The priority of the rule that lets the site's addresses through after
    /// a Proceed: above its own redirect, below a more particular site's.
    public static func allowPriority(_ site: Site) -> Int { 2 * particularity(site) + 2 }

    /// The order `Site.covering` chooses by, as one number: a path is at
    /// most `Site.longestPath` bytes, so any longer host outranks it.
    static func particularity(_ site: Site) -> Int {
        site.host.utf8.count * (Site.longestPath + 1) + site.path.utf8.count
    }

    /// A segment's `;parameters`, to the next written `/`.
    private static let parameters = "(?:(?:;|%3b)[^/?#]*)?"
    /// One slash between segments: written (after any parameters) or encoded.
    private static let separator = "(?:" + parameters + "/|%2f)"
    /// Any run of segments that read as nothing: empty, or `.`.
    private static let droppable = "(?:(?:\\.|%2e)?" + separator + ")*"

    /// Whether a browser may write `byte` in a path segment as itself:
    /// RFC 3986's unreserved characters, its sub-delimiters but `;` (which
    /// begins a segment's parameters), `:` and `@`.
    static func mayBeWritten(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~!$&'()*+,=:@".utf8.contains(byte)
        }
    }

    /// A byte of a segment, as it may arrive: a letter either way round or
    /// escaped in either case; any other printable byte but the path's
    /// own delimiters written or escaped; anything else escaped.
    private static func byte(_ byte: UInt8) -> String {
        let escaped = SitePath.percentEncoded(byte)
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"):
            let upper = byte - 32
            return "(?:\(Character(UnicodeScalar(byte)))|%[\(hexDigit(upper >> 4))\(hexDigit(byte >> 4))]\(hexDigit(byte & 0xF)))"
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return "(?:\(Character(UnicodeScalar(byte)))|\(escaped))"
        case 0x21...0x7E where !"/?#;%".utf8.contains(byte):
            return "(?:\\x\(hex(byte))|\(escaped))"
        default:
            return escaped
        }
    }

    private static func hex(_ byte: UInt8) -> String { String(SitePath.percentEncoded(byte).dropFirst()) }
    private static func hexDigit(_ value: UInt8) -> String { String(value, radix: 16) }
}

extension Site {
    /// The addresses this site covers, as the browser is told (`SitePattern`).
    public var pattern: String { SitePattern.of(self) }
}
