/// A web address's path as a server reads it, so that a site protected
/// under a path cannot be reached by spelling the path another way.
///
/// Browsers send `/r/%61ll`, `//r/all`, `/r/all;x` and `/r%2fall` as they
/// are written, and most servers serve them all as `/r/all`: nginx merges
/// slashes, frameworks decode percent-escapes (an encoded slash included),
/// and servlet containers drop `;parameters` from a segment. Reading a
/// path here does all of that, in this order:
///
/// 1. the path is cut into raw segments at each `/`;
/// 2. each raw segment loses its parameters, from its first `;` (or `%3B`)
///    to its end;
/// 3. what is left is percent-decoded (`%` and two hex digits is that byte;
///    any other `%` stays itself), and a decoded `/` cuts it further;
/// 4. letters are lower-cased (ASCII), and empty and `.` segments dropped.
///
/// `..` is not resolved: browsers resolve it (written or as `%2E%2E`)
/// before a request is sent; a path that still goes up once decoded
/// (`goesUp`: behind an encoded slash) is taken as on every path of its
/// host (`Site.covers`), since a server may resolve it anywhere.
/// `SitePattern` is the same reading as a
/// regular expression; the two are held together by the table of
/// addresses in Tests/Fixtures/site-addresses.tsv.
enum SitePath {
    typealias Segment = [UInt8]

    /// The segments of `raw`, a path as it is written in an address
    /// (from its first `/` up to any `?` or `#`).
    static func segments(_ raw: some Sequence<UInt8>) -> [Segment] {
        var segments: [Segment] = []
        for rawSegment in Array(raw).split(separator: slash, omittingEmptySubsequences: false) {
            for segment in decoded(withoutParameters(rawSegment)).split(separator: slash, omittingEmptySubsequences: false) {
                let folded = segment.map(lowercased)
                if !folded.isEmpty && folded != [dot] { segments.append(folded) }
            }
        }
        return segments
    }

    /// Whether `raw`, percent-decoded, holds a `..` segment: `/..` followed
    /// by `/`, `;` or its end.
    static func goesUp(_ raw: some Sequence<UInt8>) -> Bool {
        let path = decoded(Array(raw))
        var index = path.startIndex
        while let start = path[index...].firstIndex(of: slash), start + 2 < path.endIndex {
            if path[start + 1] == dot, path[start + 2] == dot,
               start + 3 == path.endIndex || path[start + 3] == slash || path[start + 3] == semicolon { return true }
            index = start + 1
        }
        return false
    }

    /// Whether `segments` begin with `prefix`, segment by segment.
    static func isUnder(_ segments: [Segment], _ prefix: [Segment]) -> Bool {
        segments.starts(with: prefix)
    }

    /// A `..` segment.
    static let upward: Segment = [dot, dot]

    /// `byte` as `%` and two lower-case hex digits.
    static func percentEncoded(_ byte: UInt8) -> String {
        "%" + String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
    }

    static let slash = UInt8(ascii: "/")
    static let dot = UInt8(ascii: ".")
    static let semicolon = UInt8(ascii: ";")
    static let percent = UInt8(ascii: "%")

    /// The segment up to its parameters: its first `;`, written or as `%3B`.
    private static func withoutParameters(_ segment: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var index = segment.startIndex
        while index < segment.endIndex {
            if segment[index] == semicolon { return segment[..<index] }
            if segment[index] == percent, index + 2 < segment.endIndex,
               segment[index + 1] == UInt8(ascii: "3"), lowercased(segment[index + 2]) == UInt8(ascii: "b") {
                return segment[..<index]
            }
            index += 1
        }
        return segment
    }

    /// Percent-escapes decoded; a `%` without two hex digits after it is itself.
    static func decoded(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let bytes = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == percent, index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
