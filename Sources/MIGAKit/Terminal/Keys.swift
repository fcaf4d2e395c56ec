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
/// Besides keys, a terminal sends answers to what it was asked: the
/// background colour (OSC 11, `ESC ] 11 ; rgb:… BEL`) and its attributes
/// (DA1, `ESC [ ? … c`). An answer is never keys, however it is cut by the
/// reads or however late it comes ("rgb:dede/…" holds a d and an e): it is
/// taken whole, up to its end, and handed over as an answer.
public struct KeyDecoder: Sendable {
    /// Longer than any answer a terminal gives (about 40 bytes): what runs on
    /// past it is dropped up to its end, without being kept, and what
    /// follows is keys again.
    static let longestAnswer = 128

    public init() {}

    /// A sequence past `longestAnswer`, being dropped up to its end: an OSC
    /// ends at BEL or ST (`ESC \`), a CSI at its final byte.
    public enum Overlong: Equatable, Sendable {
        case osc, csi
    }

    /// What a read held.
    public struct Decoded: Equatable, Sendable {
        public var keys: [Key] = []
        /// Whole answers (OSC and `CSI ?` sequences), each as sent.
        public var answers: [[UInt8]] = []
        /// The start of a sequence cut off by the end of the read, to go in
        /// front of the next.
        public var rest: [UInt8] = []
        /// The read ended inside a sequence past the cap: the next goes on dropping it.
        public var dropping: Overlong?
    }

    /// Whether `rest`, cut off by the end of a read, may be the Escape key
    /// alone (or Alt and a key, or a character cut in two), which is waited
    /// for only briefly; any other rest is a sequence that waits for its end.
    static func mayBeEscape(_ rest: [UInt8]) -> Bool {
        rest == [0x1B] || rest == [0x1B, UInt8(ascii: "O")] || !rest.contains(0x1B)
    }

    /// Everything as keys: no more bytes are coming.
    public func decode(_ bytes: [UInt8]) -> [Key] {
        decode(bytes, final: true).keys
    }

    /// The keys and answers in `bytes`. Unless `final`, a sequence cut off by
    /// the end of the read is kept as `rest` (a paste's end marker split
    /// across two reads must still end the paste). When `final` (the rest
    /// never came), a cut key sequence is what it is, and a cut answer is
    /// dropped. `dropping`: the last read ended inside a sequence past the
    /// cap, whose end comes first here.
    public func decode(_ bytes: [UInt8], final: Bool, dropping: Overlong? = nil) -> Decoded {
        var decoded = Decoded(dropping: dropping)
        var i = 0
        /// The bytes from `start` cut off here: kept, or taken as they are.
        func cut(at start: Int, answer: Bool, orElse keys: [Key]) -> Bool {
            if !final {
                decoded.rest = Array(bytes[start...])
                return true
            }
            if !answer { decoded.keys += keys }
            return false
        }
        while i < bytes.count {
            if let overlong = decoded.dropping {
                // Dropped up to its end. Any other control byte (Esc, Enter,
                // Ctrl-C pressed meanwhile) abandons it and counts as the key
                // it is, as inside an answer within the cap.
                let byte = bytes[i]
                switch overlong {
                case .osc where byte == 0x07, .csi where (0x40...0x7E).contains(byte):
                    decoded.dropping = nil
                    i += 1
                    continue
                case .osc where byte == 0x1B:
                    guard i + 1 < bytes.count else {
                        // ESC, its "\\" perhaps in the next read.
                        if !final { decoded.rest = [0x1B] }
                        return decoded
                    }
                    decoded.dropping = nil
                    if bytes[i + 1] == UInt8(ascii: "\\") {
                        i += 2
                        continue
                    }
                case .osc where byte >= 0x20, .csi where (0x20...0x3F).contains(byte):
                    i += 1
                    continue
                default:
                    decoded.dropping = nil
                }
            }
            let byte = bytes[i]
            let start = i
            i += 1
            switch byte {
            case 0x1B:
                guard i < bytes.count else {
                    if cut(at: start, answer: false, orElse: [.escape]) { return decoded }
                    continue
                }
                if bytes[i] == UInt8(ascii: "[") || bytes[i] == UInt8(ascii: "O") {
                    // CSI or SS3: parameter bytes, then one final byte. `CSI ?` is an
                    // answer (DA1); so is a CSI cut right after its "[".
                    let isCSI = bytes[i] == UInt8(ascii: "[")
                    i += 1
                    let parameters = i
                    let answer = isCSI && (i == bytes.count || bytes[i] == UInt8(ascii: "?"))
                    while i < bytes.count, (0x20...0x3F).contains(bytes[i]), i - start <= Self.longestAnswer { i += 1 }
                    if i - start > Self.longestAnswer {
                        decoded.dropping = .csi
                        continue
                    }
                    guard i < bytes.count else {
                        if cut(at: start, answer: answer, orElse: [.unknown]) { return decoded }
                        continue
                    }
                    guard (0x40...0x7E).contains(bytes[i]) else {
                        // A control byte inside: the sequence is abandoned, the byte is a key.
                        if !answer { decoded.keys.append(.unknown) }
                        continue
                    }
                    if answer {
                        decoded.answers.append(Array(bytes[start...i]))
                    } else {
                        decoded.keys.append(Self.sequence(final: bytes[i], parameters: Array(bytes[parameters..<i])))
                    }
                    i += 1
                } else if bytes[i] == UInt8(ascii: "]"), i + 1 == bytes.count || (0x30...0x39).contains(bytes[i + 1]) {
                    // An OSC answer, up to BEL or ST (ESC \). Alt+] and a key is not
                    // a digit, so it stays Escape and a key. Any other control byte
                    // (Esc, Enter, Ctrl-C pressed meanwhile) abandons it and counts
                    // as the key it is: those always get through.
                    i += 1
                    var ended = false
                    while i < bytes.count, i - start <= Self.longestAnswer {
                        let next = bytes[i]
                        if next == 0x07 { i += 1; ended = true; break }
                        if next == 0x1B {
                            guard i + 1 < bytes.count else { break }
                            if bytes[i + 1] == UInt8(ascii: "\\") { i += 2; ended = true }
                            break
                        }
                        if next < 0x20 { break }
                        i += 1
                    }
                    if ended {
                        decoded.answers.append(Array(bytes[start..<i]))
                    } else if i - start > Self.longestAnswer {
                        decoded.dropping = .osc
                    } else if i == bytes.count || (bytes[i] == 0x1B && i + 1 == bytes.count) {
                        if cut(at: start, answer: true, orElse: []) { return decoded }
                        i = bytes.count
                    }
                } else {
                    decoded.keys.append(.escape)
                }
            case 0x0D, 0x0A: decoded.keys.append(.enter)
            case 0x09: decoded.keys.append(.tab)
            case 0x7F, 0x08: decoded.keys.append(.backspace)
            case 0x20: decoded.keys.append(.space)
            case 0x01...0x1A: decoded.keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
            case 0x00, 0x1C...0x1F: decoded.keys.append(.unknown)
            case 0x21...0x7E: decoded.keys.append(.character(Character(Unicode.Scalar(byte))))
            default:
                // A UTF-8 sequence: decode one character, or wait for the rest of it.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                if start + length > bytes.count, cut(at: start, answer: false, orElse: []) { return decoded }
                let end = min(bytes.count, start + length)
                let text = String(decoding: bytes[start..<end], as: UTF8.self)
                i = end
                decoded.keys.append(text.first.map(Key.character) ?? .unknown)
            }
        }
        return decoded
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
