import Foundation
import Testing
@testable import MIGACore

/// MIGA's own text helpers where FoundationEssentials has none, each against
/// what Foundation gives.
@Suite struct TextWithoutFoundationTests {
    @Test(arguments: [("a-b-c", "-", "+"), ("line\r\nnext\n", "\n", "\\n"), ("nothing here", "x", "y"),
                      ("aaa", "aa", "b"), ("", "a", "b"), ("a&b<c>", "&", "&amp;")])
    func replacing_is_what_foundation_does(text: String, target: String, replacement: String) {
        #expect(text.replacingOccurrences(of: target, with: replacement)
                == (text as NSString).replacingOccurrences(of: target, with: replacement))
    }

    /// Where Foundation matches whole characters, MIGA matches code points: an
    /// escape an accent follows is still an escape (Foundation leaves it).
    @Test func replacing_finds_a_code_point_an_accent_follows() {
        #expect("\u{1B}\u{301}[2J".replacingOccurrences(of: "\u{1B}", with: "^[") == "^[\u{301}[2J")
        #expect("e\u{301}x".replacingOccurrences(of: "e", with: "E") == "E\u{301}x")
    }

    @Test(arguments: [0.0, 1.46, 1.45, 2.5, -3.25, 0.04, -0.06, 123.456, 1e14, 7])
    func one_decimal_is_what_printf_writes(value: Double) {
        let printed = String(format: "%.1f", value)
        // printf rounds an exact half to even; MIGA's figures round it away from zero.
        let halfway = abs((value * 10).truncatingRemainder(dividingBy: 1)) == 0.5
        #expect(decimal(value, places: 1) == printed || halfway, "\(value)")
    }

    @Test func trimmed_decimals_drop_their_zeros_and_point() {
        #expect(decimal(1.5, places: 2, trimmingZeros: true) == "1.5")
        #expect(decimal(2, places: 2, trimmingZeros: true) == "2")
        #expect(decimal(0.25, places: 2, trimmingZeros: true) == "0.25")
        #expect(decimal(.infinity, places: 1) == String(Int.max))
        #expect(decimal(.nan, places: 1) == "0")
        #expect(decimal(-0.04, places: 1) == "0.0", "never a negative zero")
    }

    @Test func numbers_are_zero_padded_as_printf_pads_them() {
        for (number, width) in [(7, 3), (42, 3), (1234, 3), (0, 2), (-5, 3)] {
            #expect(zeroPadded(number, width: width) == String(format: "%0\(width)d", number))
        }
    }

    @Test func lists_are_spoken_with_and() {
        #expect(spokenList([]) == "")
        #expect(spokenList(["Firefox"]) == "Firefox")
        #expect(spokenList(["Firefox", "Chromium"]) == "Firefox and Chromium")
        #expect(spokenList(["a", "b", "c"]) == "a, b and c")
    }

    @Test(arguments: ["é", "Å", "한", "मैं", "ﬁ", "e"])
    func the_decomposition_is_foundations(text: String) {
        #expect(text.canonicalDecomposition == Array(text.decomposedStringWithCanonicalMapping.unicodeScalars))
    }
}
