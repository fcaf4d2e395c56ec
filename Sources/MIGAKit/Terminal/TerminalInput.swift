/// The terminal's input across reads: keys for the screen, and the answers
/// to the questions MIGA asks (OSC 11 for the background, then DA1), however
/// the reads cut them and however late they come.
///
/// A sequence cut off by the end of a read waits for its end, with one
/// exception: a lone Esc byte (or Esc and "O") may be the Escape key itself,
/// so it is taken as the key after a short wait — longer while answers are
/// still on their way, since it may be the first byte of one.
struct TerminalInput {
    private let decoder = KeyDecoder()
    /// The start of a sequence the last read cut off, and when it came.
    private var rest: [UInt8] = []
    private var restSince = 0.0
    /// The last read ended inside an answer past the cap, still being dropped.
    private var dropping: KeyDecoder.Overlong?
    /// Until when the answers to a question may still be coming: set on
    /// asking, cleared by the DA1 answer, which every terminal sends last.
    private var answersDue = -Double.infinity

    /// How long a lone Esc waits for the rest of a sequence before it is the Escape key.
    static let escapeWait = 0.05
    /// How long after asking the answers may still come: a lone Esc byte
    /// meanwhile may be the first of one, cut off from the rest.
    static let answerWindow = 1.0

    /// What a read brought.
    struct Taken: Equatable {
        var keys: [Key] = []
        /// The background, when an OSC 11 answer came whole.
        var background: TerminalBackground?
        /// The DA1 answer came: nothing more is due.
        var attributesAnswered = false
    }

    /// A question was sent at `now`: answers are due for a while.
    mutating func asked(at now: Double) {
        answersDue = now + Self.answerWindow
    }

    /// Takes in `bytes` read at `now`.
    mutating func take(_ bytes: [UInt8], at now: Double) -> Taken {
        let hadRest = !rest.isEmpty
        let decoded = decoder.decode(rest + bytes, final: false, dropping: dropping)
        var taken = Taken(keys: decoded.keys)
        for answer in decoded.answers {
            if let background = TerminalBackground.from(osc11: answer) { taken.background = background }
            if answer.last == UInt8(ascii: "c"), answer.starts(with: [0x1B, UInt8(ascii: "["), UInt8(ascii: "?")]) {
                taken.attributesAnswered = true
                answersDue = -.infinity
            }
        }
        // A rest that goes on from the last one keeps its first byte's time.
        if !decoded.rest.isEmpty && !(hadRest && decoded.rest.starts(with: rest)) { restSince = now }
        rest = decoded.rest
        dropping = decoded.dropping
        return taken
    }

    /// When what waits must be taken as it is (the Escape key); nil when
    /// nothing waits, or what waits is an answer or a sequence that waits
    /// for its end (an Esc inside an answer being dropped may be its ST).
    var deadline: Double? {
        guard !rest.isEmpty, dropping == nil, KeyDecoder.mayBeEscape(rest) else { return nil }
        return max(restSince + Self.escapeWait, answersDue)
    }

    /// At `now`, the keys of a rest whose time is up.
    mutating func expire(at now: Double) -> [Key] {
        guard let deadline, now >= deadline else { return [] }
        defer { rest = [] }
        return decoder.decode(rest, final: true).keys
    }
}
