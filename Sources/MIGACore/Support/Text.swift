@_spi(_Unicode) import Swift

extension StringProtocol {
    /// The text without spaces, tabs and carriage returns at either end.
    package func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }),
              let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}

extension String {
    /// The lines of the text, split at each newline: "\r\n" is one Character,
    /// so splitting Characters at "\n" would leave a file with Windows line
    /// ends one long line. A line keeps its "\r", for the reader to trim.
    package func lines(omittingEmpty: Bool = true) -> [Substring] {
        unicodeScalars.split(separator: "\n", omittingEmptySubsequences: omittingEmpty).map(Substring.init)
    }

}

extension StringProtocol {
    /// The text with spaces after it up to `length` Characters.
    package func padded(toLength length: Int) -> String {
        String(self) + String(repeating: " ", count: Swift.max(0, length - count))
    }

    /// The text without any of `characters` at either end.
    package func trimming(_ characters: String) -> String {
        var result = Substring(self)
        while let first = result.first, characters.contains(first) { result.removeFirst() }
        while let last = result.last, characters.contains(last) { result.removeLast() }
        return String(result)
    }
}

extension String {
    /// The text with every `target` replaced by `replacement`, matched code
    /// point by code point: a match by Characters would not find "\n" inside
    /// the one Character "\r\n", nor a control character an accent follows.
    package func replacingOccurrences(of target: String, with replacement: String) -> String {
        let wanted = Array(target.unicodeScalars)
        guard let first = wanted.first, unicodeScalars.contains(first) else { return self }
        let scalars = Array(unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == first, scalars[index...].starts(with: wanted) {
                result.append(contentsOf: replacement.unicodeScalars)
                index += wanted.count
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    /// The text's code points, canonically decomposed (NFD): "é" as "e" and
    /// U+0301, a Hangul syllable as its jamo. The standard library's own
    /// decomposition, which its String comparison uses (Foundation's
    /// `decomposedStringWithCanonicalMapping` would bring ICU into the binary).
    package var canonicalDecomposition: [Unicode.Scalar] { Array(_nfd) }
}

/// The last part of a path (`firefox` for `/usr/bin/firefox`); a name
/// without a slash is itself.
public func baseName(of path: String) -> String {
    var last: Substring?
    forEachName(in: path) { last = $0 }
    return last.map(String.init) ?? path
}

/// The folder holding `path`, as a path: "/a/b" → "/a", "/a" → "/", "a" → "",
/// "//a//b/" → "/a" (what Foundation's `deletingLastPathComponent` gives).
public func folderName(of path: String) -> String {
    var folder = path.hasPrefix("/") ? "/" : ""
    var previous: Substring?
    forEachName(in: path) { name in
        if let previous {
            if !folder.isEmpty, folder != "/" { folder += "/" }
            // Substring's own overload: `+=` takes any sequence of
            // Characters, and its first use (at every launch) looked the
            // types up by name, which cost more than the whole path.
            folder.append(contentsOf: previous)
        }
        previous = name
    }
    return folder
}

/// Calls `body` with each name in `path`, split where the kernel splits it:
/// at each "/" byte. (A combining mark after a slash makes one Character of
/// the two, which a split by Characters would not see as a slash.) A loop
/// rather than `split` and `joined`: the shell hook and every launch come
/// here, and the first use of those generic algorithms costs more than the path.
private func forEachName(in path: String, _ body: (Substring) -> Void) {
    let bytes = path.utf8
    var start = bytes.startIndex
    var index = start
    while index != bytes.endIndex {
        if bytes[index] == UInt8(ascii: "/") {
            if start != index { body(Substring(bytes[start..<index])) }
            start = bytes.index(after: index)
        }
        index = bytes.index(after: index)
    }
    if start != bytes.endIndex { body(Substring(bytes[start...])) }
}

/// `text` with nothing the terminal would obey: control characters (C0,
/// DEL, C1) become U+FFFD, a tab a space. Every word on screen passes here,
/// and every name from outside that a command prints, so an imported quote,
/// a program name from another machine's history or a typed intention can
/// never move the cursor, retitle the window or hide the rest of the screen.
public func printable(_ text: String) -> String {
    // Almost always nothing to do: a byte scan, no copy. (C1 controls begin
    // 0xC2 in UTF-8; the bidi marks 0xD8 and 0xE2.)
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }) else { return text }
    var clean = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x09: clean.append(" ")
        case 0x00..<0x20, 0x7F...0x9F: clean.append("\u{FFFD}")
        default: clean.append(isBidiControl(scalar) ? "\u{FFFD}" : scalar)
        }
    }
    return String(clean)
}

/// The marks that turn text around (U+202E RIGHT-TO-LEFT OVERRIDE and its
/// kin): in a name from outside they hide what a line really says.
package func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
}

/// JSON text with DEL, every C1 control and every bidi mark written as an
/// escape (`\u009b`), as it already is for C0: JSONEncoder and
/// JSONSerialization leave them raw, and a reader that prints a string as it
/// is would hand a terminal a CSI. Outside strings JSON is ASCII, so every
/// such scalar is inside one, and the escape means the same character.
public func escapingControls(inJSON text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }) else { return text }
    var escaped = ""
    for scalar in text.unicodeScalars {
        if (0x7F...0x9F).contains(scalar.value) || isBidiControl(scalar) {
            escaped += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
        } else {
            escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped
}

/// Seconds as a clock shows them: `1:30`, `0:05`, `60:00`. Every countdown,
/// pause length and escalation on screen is written with it.
public func clock(_ seconds: Int) -> String {
    let seconds = max(0, seconds)
    return "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)"
}

/// How long ago something was, in words: "moments ago", "a minute ago",
/// "12 minutes ago", "an hour ago", "5 hours ago", "a day ago", "3 days ago".
public func timeAgo(_ seconds: Double) -> String {
    let minutes = wholeNumber((max(0, seconds) / 60).rounded(.down))
    switch minutes {
    case ..<1: return "moments ago"
    case 1: return "a minute ago"
    case ..<60: return "\(minutes) minutes ago"
    case ..<120: return "an hour ago"
    case ..<(24 * 60): return "\(minutes / 60) hours ago"
    case ..<(48 * 60): return "a day ago"
    default: return "\(minutes / (24 * 60)) days ago"
    }
}

/// `value` rounded to a whole number, never trapping: NaN is 0, and a
/// figure beyond what an Int holds (a `1e308` from a hostile file) is the
/// largest one there is. Every figure from a store or a file that becomes a
/// whole number on screen passes here.
public func wholeNumber(_ value: Double) -> Int {
    guard !value.isNaN else { return 0 }
    let rounded = value.rounded()
    if rounded >= Double(Int.max) { return .max }
    if rounded <= Double(Int.min) { return .min }
    return Int(rounded)
}

/// `printable`, line by line: the line breaks stay, everything else the
/// terminal would obey becomes U+FFFD. For messages and lists of several
/// lines that hold names from files, arguments or other machines.
public func printableLines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { printable(String($0)) }.joined(separator: "\n")
}

/// `value` with `places` decimals, as printf's `%.1f` writes it ("1.5" for
/// 1.46 to one place); `trimmingZeros`: without the zeros that end the
/// decimals, and without the point when nothing is left after it. A figure
/// too large for its decimals is written whole (see `wholeNumber`).
public func decimal(_ value: Double, places: Int, trimmingZeros: Bool = false) -> String {
    let scale = (0..<max(0, places)).reduce(1) { product, _ in product * 10 }
    guard value.isFinite, abs(value) * Double(scale) < 1e17 else { return String(wholeNumber(value)) }
    let scaled = wholeNumber(abs(value) * Double(scale))
    var fraction = String(zeroPadded(scaled % scale, width: places).suffix(places))
    if trimmingZeros { while fraction.hasSuffix("0") { fraction.removeLast() } }
    let sign = value < 0 && scaled != 0 ? "-" : ""
    return sign + String(scaled / scale) + (fraction.isEmpty ? "" : "." + fraction)
}

/// `number` written at least `width` characters wide, zeros after its sign
/// ("007", "-05"), as printf's `%03d` writes it.
public func zeroPadded(_ number: Int, width: Int) -> String {
    let digits = String(number.magnitude), sign = number < 0 ? "-" : ""
    return sign + String(repeating: "0", count: max(0, width - sign.count - digits.count)) + digits
}

/// Items as a sentence names them: "a", "a and b", "a, b and c".
public func spokenList(_ items: [String]) -> String {
    guard let last = items.last else { return "" }
    return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
}
