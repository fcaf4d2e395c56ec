/// FNV-1a, 64 bits: a quick, stable hash for telling whether something
/// changed (a quote pool, a file MIGA wrote). Not for security: anyone can
/// make two inputs collide.
package struct FNV1a {
    package private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    package init() {}

    /// Mixes in `text`, then a 0xFF byte (never part of UTF-8), so that
    /// ["ab", "c"] and ["a", "bc"] hash differently. Of a String, not of any
    /// StringProtocol: a generic one, made in this module for every caller,
    /// looked its types up by name the first time (each pause hashes the
    /// quote files' names).
    package mutating func mix(_ text: String) {
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
        value = (value ^ 0xFF) &* 0x100_0000_01B3
    }

    /// Mixes in `bytes` as they are (no end mark).
    package mutating func mix(bytes: some Sequence<UInt8>) {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
    }

    /// The hash of `parts`, in order.
    package static func hash(_ parts: some Sequence<String>) -> UInt64 {
        var hasher = FNV1a()
        for part in parts { hasher.mix(part) }
        return hasher.value
    }
}
