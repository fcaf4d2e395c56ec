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
/// (DA1, `ESC [ ? … c`), and, asked or not, other control strings (DCS
/// `ESC P`, APC `ESC _`, PM `ESC ^`, SOS `ESC X`), in 7-bit or 8-bit
/// controls (0x90 DCS, 0x9B CSI, 0x9D OSC, 0x9E PM, 0x9F APC, 0x98 SOS,
/// ended by BEL, `ESC \` or 0x9C). An answer is never keys, however it is
/// cut by the reads or however late it comes ("rgb:dede/…" holds a d and
/// an e): it is taken whole, up to its end, and handed over as an answer.
public struct KeyDecoder: Sendable {
    /// Longer than any answer a terminal gives (about 40 bytes): what runs on
    /// past it is dropped up to its end, without being kept, and what
    /// follows is keys again.
    static let longestAnswer = 128

    /// After Esc, what opens a control string: OSC `]`, DCS `P`, APC `_`, PM `^`, SOS `X`.
    static let stringIntroducers: Set<UInt8> = [0x5D, 0x50, 0x5F, 0x5E, 0x58]
    /// The same as 8-bit controls: OSC, DCS, APC, PM, SOS.
    static let eightBitStringIntroducers: Set<UInt8> = [0x9D, 0x90, 0x9F, 0x9E, 0x98]
    static let eightBitCSI: UInt8 = 0x9B
    static let eightBitStringTerminator: UInt8 = 0x9C

    public init() {}

    /// An answer: a control string (OSC, DCS, APC, PM, SOS), ended by BEL or
    /// ST, or a CSI sequence, ended by its final byte. Past `longestAnswer`
    /// it is dropped up to that end.
    public enum Overlong: Equatable, Sendable {
        case string, csi
    }

    /// What a read held.
    public struct Decoded: Equatable, Sendable {
        public var keys: [Key] = []
        /// Whole answers (control strings and `CSI ?` sequences), each as sent.
        public var answers: [[UInt8]] = []
        /// The start of a sequence cut off by the end of the read, to go in
        /// front of the next.
        public var rest: [UInt8] = []
        /// The read ended inside a sequence past the cap: the next goes on dropping it.
        public var dropping: Overlong?
        /// The first of the exit keys met in an answer being dropped, not
        /// let through (yet): it counts if the answer outlasts its patience.
        public var withheldExit: Key?
    }

    /// The kind of answer opened at `i`, and where its body starts: Esc and
    /// an introducer, an 8-bit introducer, or one coded as UTF-8 (0xC2 first).
    static func answerOpening(in bytes: [UInt8], at i: Int) -> (kind: Overlong, body: Int)? {
        func eightBit(_ byte: UInt8) -> Overlong? {
            byte == eightBitCSI ? .csi : eightBitStringIntroducers.contains(byte) ? .string : nil
        }
        let next: UInt8? = i + 1 < bytes.count ? bytes[i + 1] : nil
        switch bytes[i] {
        case 0x1B:
            guard let next else { return nil }
            if next == UInt8(ascii: "[") { return (.csi, i + 2) }
            return stringIntroducers.contains(next) ? (.string, i + 2) : nil
        case 0xC2:
            return next.flatMap(eightBit).map { ($0, i + 2) }
        case let byte:
            return eightBit(byte).map { ($0, i + 1) }
        }
    }

    /// The kind of answer `rest`, cut off by the end of a read, has opened;
    /// nil when it is not one (the Escape key alone, Esc and "O", a
    /// character cut in two), which is waited for only briefly.
    static func openAnswer(_ rest: [UInt8]) -> Overlong? {
        rest.isEmpty ? nil : answerOpening(in: rest, at: 0)?.kind
    }

    /// Whether the 0x9C at `i` ends a control string whose body starts at
    /// `body`. After another byte from 0x80 up (but 0xC2, which codes it as
    /// UTF-8) it may be the middle of a UTF-8 character, and the string goes
    /// on: swallowing longer is the safe side, and the string's patience and
    /// cap still end it.
    static func endsString(_ bytes: [UInt8], at i: Int, body: Int) -> Bool {
        bytes[i] == eightBitStringTerminator && (i == body || bytes[i - 1] < 0x80 || bytes[i - 1] == 0xC2)
    }

    /// Everything as keys: no more bytes are coming.
    public func decode(_ bytes: [UInt8]) -> [Key] {
        decode(bytes, final: true).keys
    }

    // whole: a decoder's state machine over one read; its nested steps share the read's state.
    /// The keys and answers in `bytes`. Unless `final`, a sequence cut off by
    /// the end of the read is kept as `rest` (a paste's end marker split
    /// across two reads must still end the paste). When `final` (the rest
    /// never came), a cut key sequence is what it is, and a cut answer is
    /// dropped. `dropping`: the last read ended inside a sequence past the
    /// cap, whose end comes first here. `exitBytes` met while dropping are
    /// keys when `exitGetsThrough` (the answer outlasted its patience), and
    /// else the first of them is withheld.
    public func decode(_ bytes: [UInt8], final: Bool, dropping: Overlong? = nil,
                       exitBytes: Set<UInt8> = [], exitGetsThrough: Bool = false) -> Decoded {
        var decoded = Decoded(dropping: dropping)
        var i = 0
        /// The bytes from `start` cut off here: kept (true: the read is
        /// over), or taken as they are.
        func cut(at start: Int, answer: Bool, orElse keys: [Key]) -> Bool {
            if !final {
                decoded.rest = Array(bytes[start...])
                return true
            }
            if !answer { decoded.keys += keys }
            return false
        }
        /// A CSI or SS3 sequence from `start`, its parameters from `i`: then
        /// one final byte. `CSI ?` is an answer (DA1); so is a CSI cut right
        /// after its opening.
        func controlSequence(from start: Int, isCSI: Bool) -> Bool {
            let parameters = i
            let answer = isCSI && (i == bytes.count || bytes[i] == UInt8(ascii: "?"))
            while i < bytes.count, (0x20...0x3F).contains(bytes[i]), i - start <= Self.longestAnswer { i += 1 }
            if i - start > Self.longestAnswer {
                decoded.dropping = .csi
                return false
            }
            guard i < bytes.count else { return cut(at: start, answer: answer, orElse: [.unknown]) }
            guard (0x40...0x7E).contains(bytes[i]) else {
                // A control byte inside: the sequence is abandoned, the byte is a key.
                if !answer { decoded.keys.append(.unknown) }
                return false
            }
            if answer {
                decoded.answers.append(Array(bytes[start...i]))
            } else {
                decoded.keys.append(Self.sequence(final: bytes[i], parameters: Array(bytes[parameters..<i])))
            }
            i += 1
            return false
        }
        /// A control string from `start`, its body from `i`, up to BEL or ST
        /// (`ESC \`, 0x9C). Any other control byte (Esc, Enter, Ctrl-C
        /// pressed meanwhile) abandons it and counts as the key it is: those
        /// always get through.
        func controlString(from start: Int) -> Bool {
            let body = i
            while i < bytes.count, i - start <= Self.longestAnswer {
                let next = bytes[i]
                if next == 0x07 || Self.endsString(bytes, at: i, body: body) {
                    i += 1
                    decoded.answers.append(Array(bytes[start..<i]))
                    return false
                }
                if next == 0x1B {
                    guard i + 1 < bytes.count else { break }
                    if bytes[i + 1] == UInt8(ascii: "\\") {
                        i += 2
                        decoded.answers.append(Array(bytes[start..<i]))
                    }
                    return false
                }
                if next < 0x20 { return false }
                i += 1
            }
            if i - start > Self.longestAnswer {
                decoded.dropping = .string
                return false
            }
            // Cut by the end of the read (perhaps right after the Esc of its ST).
            if cut(at: start, answer: true, orElse: []) { return true }
            i = bytes.count
            return false
        }
        while i < bytes.count {
            if let overlong = decoded.dropping {
                // Dropped up to its end. Any other control byte (Esc, Enter,
                // Ctrl-C pressed meanwhile) abandons it and counts as the key
                // it is, as inside an answer within the cap.
                let byte = bytes[i]
                if exitBytes.contains(byte), exitGetsThrough || overlong == .string {
                    let key = Key.character(Character(Unicode.Scalar(byte)))
                    if exitGetsThrough {
                        decoded.keys.append(key)
                        // A letter is a CSI's final byte: it ends there.
                        if overlong == .csi { decoded.dropping = nil }
                    } else if decoded.withheldExit == nil {
                        decoded.withheldExit = key
                    }
                    i += 1
                    continue
                }
                switch overlong {
                case .string where byte == 0x07 || Self.endsString(bytes, at: i, body: 0),
                     .csi where (0x40...0x7E).contains(byte):
                    decoded.dropping = nil
                    i += 1
                    continue
                case .string where byte == 0x1B:
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
                case .string where byte >= 0x20, .csi where (0x20...0x3F).contains(byte):
                    i += 1
                    continue
                default:
                    decoded.dropping = nil
                }
            }
            let start = i
            if let (kind, body) = Self.answerOpening(in: bytes, at: i) {
                i = body
                let over = kind == .csi ? controlSequence(from: start, isCSI: true) : controlString(from: start)
                if over { return decoded }
                continue
            }
            let byte = bytes[i]
            i += 1
            switch byte {
            case 0x1B:
                guard i < bytes.count else {
                    if cut(at: start, answer: false, orElse: [.escape]) { return decoded }
                    continue
                }
                if bytes[i] == UInt8(ascii: "O") {
                    i += 1
                    if controlSequence(from: start, isCSI: false) { return decoded }
                } else {
                    // Esc and a key (Alt and a key, in terminals that send Esc for Alt).
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
                if start + length > bytes.count {
                    // Cut off: it waits for the rest, or is nothing (it may
                    // have been the 0xC2 of an answer's UTF-8 coded opening).
                    if cut(at: start, answer: false, orElse: []) { return decoded }
                    i = bytes.count
                    continue
                }
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
