import MIGACore

/// The terminal's input across reads: keys for the screen, and the answers
/// to the questions MIGA asks (OSC 11 for the background, then DA1), however
/// the reads cut them and however late they come.
///
/// An answer's bytes are never keys, yet Exit to Focus is never held back
/// for long, whatever the terminal sends:
/// - Ctrl-C, Ctrl-D and Esc with a key after it abandon an open answer and
///   count at once (`KeyDecoder`);
/// - an answer still open after `answerPatience` is given up: the first
///   exit key (e, q) typed into it counts then, with nothing more typed,
///   and from then on exit keys count as they come while the rest of it is
///   dropped; an Esc that waits at its end is the Escape key;
/// - a lone Esc is the Escape key after `escapeWait`, or `lateEscapeWait`
///   while answers are awaited (it may be the first byte of one).
/// So an exit key waits at most about a second, and only an exit key ever
/// comes out of an answer: a terminal that misbehaves can end a pause
/// (the safe side), never deepen it or proceed.
struct TerminalInput {
    private let decoder = KeyDecoder()
    /// The start of a sequence the last read cut off, and when it came.
    private var rest: [UInt8] = []
    private var restSince = 0.0
    /// The last read ended inside an answer past the cap, still being dropped.
    private var dropping: KeyDecoder.Overlong?
    /// When the answer now open (held in `rest`, or being dropped) began,
    /// and an exit key typed into it while it was dropped.
    private var answerSince: Double?
    private var withheldExit: Key?
    /// The open answer outlasted `answerPatience`: dropped to its end, exit keys in it count.
    private var outlasted = false
    /// A question was asked and the DA1 answer, which every terminal sends
    /// last, has not come (or came too late to be read as one).
    private var answersDue = false

    /// How long a lone Esc waits for the rest of a sequence before it is the Escape key.
    static let escapeWait = 0.05
    /// How long a lone Esc waits while answers are awaited: a slow terminal's
    /// answer may come cut right after its Esc.
    static let lateEscapeWait = 0.5
    /// How long an answer may stay open: a terminal sends one at once (a
    /// remote one, in pieces, within a few tenths of a second).
    static let answerPatience = 1.0
    /// The bytes that are exit keys (e, q): the only ones that ever come out of an answer.
    static let exitBytes = Set((UInt8(0x21)...0x7E).filter {
        PauseAction(key: .character(Character(Unicode.Scalar($0)))) == .exitToFocus
    })

    /// What a read brought.
    struct Taken: Equatable {
        var keys: [Key] = []
        /// The background, when an OSC 11 answer came whole.
        var background: TerminalBackground?
        /// The DA1 answer came: nothing more is due.
        var attributesAnswered = false
    }

    /// When the question was sent.
    private var askedAt = -Double.infinity

    /// A question was sent at `now`: answers are due until the DA1 answer.
    mutating func asked(at now: Double) {
        answersDue = true
        askedAt = now
    }

    /// Until when an answer is still worth waiting for: nil when none is
    /// due, or when the terminal let its patience pass (it never answers).
    var answerDeadline: Double? {
        let since = answerSince ?? askedAt
        guard answersDue || isAnswerOpen, !outlasted else { return nil }
        return since + Self.answerPatience
    }

    /// Takes in `bytes` read at `now`.
    mutating func take(_ bytes: [UInt8], at now: Double) -> Taken {
        // Bytes may come just as an answer's time is up (or keep coming):
        // give it up first, so no stream of them keeps Exit waiting.
        let overdue = giveUpAnswer(at: now)
        let before = (rest: rest, dropping: dropping, open: isAnswerOpen)
        let decoded = decoder.decode(rest + bytes, final: false, dropping: dropping,
                                     exitBytes: Self.exitBytes, exitGetsThrough: outlasted)
        var taken = Taken(keys: overdue + decoded.keys)
        for answer in decoded.answers {
            if let background = TerminalBackground.from(osc11: answer) { taken.background = background }
            // DA1: `CSI ? … c`, its CSI in 7 or 8 bits.
            if answer.last == UInt8(ascii: "c"), answer.prefix(3).contains(UInt8(ascii: "?")) {
                taken.attributesAnswered = true
                answersDue = false
            }
        }
        // A rest that goes on from the last one keeps its first byte's time.
        if !decoded.rest.isEmpty && !(!before.rest.isEmpty && decoded.rest.starts(with: before.rest)) { restSince = now }
        rest = decoded.rest
        dropping = decoded.dropping
        guard isAnswerOpen else {
            (answerSince, withheldExit, outlasted) = (nil, nil, false)
            return taken
        }
        // The same answer goes on (held still, or grown past the cap), or a new one opened.
        let goesOn = before.open && (dropping != nil || (before.dropping == nil && rest.starts(with: before.rest)))
        if !goesOn { (answerSince, withheldExit, outlasted) = (now, nil, false) }
        withheldExit = withheldExit ?? decoded.withheldExit
        return taken
    }

    private var isAnswerOpen: Bool { dropping != nil || KeyDecoder.openAnswer(rest) != nil }

    /// When what waits must be taken as it is: an answer still open at the
    /// end of its patience, a lone Esc (the Escape key), a character cut in
    /// two. Nil when nothing waits.
    var deadline: Double? {
        if let answerSince, !outlasted { return answerSince + Self.answerPatience }
        guard !rest.isEmpty else { return nil }
        if rest == [0x1B], dropping == nil, answersDue { return restSince + Self.lateEscapeWait }
        return restSince + Self.escapeWait
    }

    /// At `now`, the keys of what waits, if its time is up.
    mutating func expire(at now: Double) -> [Key] {
        guard let deadline, now >= deadline else { return [] }
        if answerSince != nil && !outlasted { return giveUpAnswer(at: now) }
        defer { rest = [] }
        if dropping != nil {
            // An Esc after an outlasted answer, with nothing after it: the Escape key.
            closeAnswer()
            return [.escape]
        }
        return decoder.decode(rest, final: true).keys
    }

    /// An answer open past its patience is given up: what is held of it is
    /// dropped, and the first exit key typed into it counts; an Esc at its
    /// end is the Escape key. The rest of it is dropped as it comes, exit
    /// keys in it counting.
    private mutating func giveUpAnswer(at now: Double) -> [Key] {
        guard let answerSince, !outlasted, now >= answerSince + Self.answerPatience else { return [] }
        defer { rest = [] }
        if rest.last == 0x1B {
            closeAnswer()
            return [.escape]
        }
        let exit = withheldExit ?? rest.first(where: Self.exitBytes.contains).map { Key.character(Character(Unicode.Scalar($0))) }
        dropping = dropping ?? KeyDecoder.openAnswer(rest)
        (outlasted, withheldExit) = (true, nil)
        return exit.map { [$0] } ?? []
    }

    private mutating func closeAnswer() {
        (dropping, answerSince, withheldExit, outlasted) = (nil, nil, nil, false)
    }
}
