/// A key press, decoded from the bytes a terminal in raw mode sends.
public enum Key: Hashable, Sendable {
    case character(Character)
    case enter
    case space
    case escape
    case backspace
    case tab
    case up, down, left, right
    case pageUp, pageDown, home, end
    /// Ctrl and a letter, e.g. `.control("c")` for Ctrl-C (raw mode delivers it as a byte).
    case control(Character)
    /// Terminal focus reports (`CSI I` / `CSI O`), when focus reporting is on.
    case focusIn, focusOut
    /// The start and end of pasted text (`CSI 200 ~` / `CSI 201 ~`, bracketed
    /// paste): what comes between was not typed.
    case pasteStart, pasteEnd
    /// A sequence MIGA has no use for.
    case unknown
}

/// Decodes raw terminal input into keys.
///
/// An Escape byte at the end of a read is the Escape key: terminals send an
/// escape sequence in one write, so a lone ESC is the person pressing Esc.
public struct KeyDecoder: Sendable {
    public init() {}

    public func decode(_ bytes: [UInt8]) -> [Key] {
        decode(bytes, keepingIncomplete: false).keys
    }

    /// The keys, and (with `keepingIncomplete`) the bytes of a CSI sequence
    /// cut off by the end of this read, to go in front of the next: a paste's
    /// end marker split across two reads must still end the paste.
    public func decode(_ bytes: [UInt8], keepingIncomplete: Bool) -> (keys: [Key], rest: [UInt8]) {
        var keys: [Key] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            switch byte {
            case 0x1B:
                guard i < bytes.count else {
                    keys.append(.escape)
                    continue
                }
                if bytes[i] == UInt8(ascii: "[") || bytes[i] == UInt8(ascii: "O") {
                    // CSI or SS3: parameter bytes, then one final byte.
                    i += 1
                    let parameters = i
                    while i < bytes.count, !(0x40...0x7E).contains(bytes[i]) { i += 1 }
                    guard i < bytes.count else {
                        if keepingIncomplete { return (keys, Array(bytes[(parameters - 2)...])) }
                        keys.append(.unknown)
                        continue
                    }
                    let final = bytes[i]
                    keys.append(Self.sequence(final: final, parameters: Array(bytes[parameters..<i])))
                    i += 1
                } else if bytes[i] == UInt8(ascii: "]"), i + 1 < bytes.count, (0x30...0x39).contains(bytes[i + 1]) {
                    // An OSC answer ("ESC ] 11 ; rgb:…"), up to BEL or ST: one that came
                    // late (the background colour asked before the first frame) is
                    // never a string of keys ("rgb:dede/…" holds an e and a d). Alt+]
                    // followed by a key is not a digit, so it stays Escape and a key.
                    let start = i - 1
                    i += 1
                    while i < bytes.count, bytes[i] != 0x07, !(bytes[i] == 0x1B && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\\")) {
                        i += 1
                    }
                    guard i < bytes.count else {
                        if keepingIncomplete { return (keys, Array(bytes[start...])) }
                        keys.append(.unknown)
                        continue
                    }
                    i += bytes[i] == 0x07 ? 1 : 2
                    keys.append(.unknown)
                } else {
                    keys.append(.escape)
                }
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x09: keys.append(.tab)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x20: keys.append(.space)
            case 0x01...0x1A: keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
            case 0x00, 0x1C...0x1F: keys.append(.unknown)
            case 0x21...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            default:
                // A UTF-8 sequence: decode one character.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                let end = min(bytes.count, i - 1 + length)
                let text = String(decoding: bytes[(i - 1)..<end], as: UTF8.self)
                i = end
                keys.append(text.first.map(Key.character) ?? .unknown)
            }
        }
        return (keys, [])
    }

    private static func sequence(final: UInt8, parameters: [UInt8]) -> Key {
        switch final {
        case UInt8(ascii: "~") where parameters == Array("200".utf8): .pasteStart
        case UInt8(ascii: "~") where parameters == Array("201".utf8): .pasteEnd
        case UInt8(ascii: "~") where parameters == Array("5".utf8): .pageUp
        case UInt8(ascii: "~") where parameters == Array("6".utf8): .pageDown
        // Home and End differ between terminals: CSI H/F, SS3 H/F, CSI 1~/4~ (xterm's
        // VT220 mode, tmux) and CSI 7~/8~ (rxvt).
        case UInt8(ascii: "~") where parameters == Array("1".utf8) || parameters == Array("7".utf8): .home
        case UInt8(ascii: "~") where parameters == Array("4".utf8) || parameters == Array("8".utf8): .end
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "I"): .focusIn
        case UInt8(ascii: "O"): .focusOut
        default: .unknown
        }
    }
}
