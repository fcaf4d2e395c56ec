import MIGACore

/// The pause as a front end needs it, as plain values: what to show and
/// which choices there are now. A front end that is no terminal receives it
/// as JSON (keys as named here, absent when nil) and answers with `PauseChoice`.
///
/// Words come as they were read from files and the config: every front end
/// makes them safe for its own medium (`printable(_:)` on a terminal).
public struct PauseState: Codable, Equatable, Sendable {
    public struct QuoteShown: Codable, Equatable, Sendable {
        public var id: String
        /// The lines the author meant (" / " in a quote file).
        public var verses: [String]
        public var source: String?
        public var tags: [String]
    }

    /// A typed pause's line and how far it is typed back.
    public struct TypedLine: Codable, Equatable, Sendable {
        public var line: String
        /// The right characters so far.
        public var typed: String
        /// The field is open (after Proceed at zero).
        public var open: Bool
        /// The whole line was typed: Proceed goes on.
        public var complete: Bool
    }

    /// The question before Proceed.
    public struct Intention: Codable, Equatable, Sendable {
        public var question: String
        /// The answer so far; nil while the question is not open.
        public var answer: String?
        /// The question is the pause's own, open while it counts (the kind `intention`).
        public var whileCounting: Bool
    }

    public var program: String
    /// The faint line at the top: what this pause stands before.
    public var header: String
    public var kind: PauseKind
    public var quote: QuoteShown
    /// Seconds of a full countdown, and what is left of it.
    public var length: Int
    public var secondsLeft: Int
    /// The countdown stands still while the pause is looked away from.
    public var held: Bool
    public var deepenCount: Int
    /// The choices that do something now, in the order they are offered (Exit to Focus first).
    public var choices: [PauseChoice.Name]
    public var proceedLabel: String
    /// Proceed goes on now (rather than saying "not yet").
    public var proceedOpen: Bool
    /// A pause of the kind `instead`: the alternative on offer.
    public var alternative: String?
    public var typing: TypedLine?
    public var intention: Intention?
    /// What the pause has to say about the last choice, if anything.
    public var notice: PauseNotice?
    /// Quiet facts under the header ("3rd time today", why the kind changed),
    /// why this pause is longer than usual, and what went wrong that the
    /// person should know (a broken config): the plan's, set by a front end
    /// that shows them from the state (the browser tab); absent otherwise.
    public var facts: [String]?
    public var longerBecause: String?
    public var problems: [String]?
}

/// A word about the last choice, for each front end to put in its own words.
public enum PauseNotice: String, Codable, Sendable {
    /// Proceed before zero: it opens at zero, there is no hurry.
    case notYet
    /// Proceed before the whole line is typed.
    case wholeLineFirst
    /// A typed character, or a typed line, that was not the line's.
    case notQuite
    /// Pasted text does not count as typed.
    case pasteRefused
    /// Proceed at the question before any words.
    case fewWordsFirst
}

extension PauseState {
    /// The question, in the words every front end asks it.
    static func question(for programName: String) -> String { "What are you opening \(programName) for?" }

    public init(_ session: PauseSession, choices: [PauseChoice.Name], proceedOpen: Bool) {
        let quote = session.quote
        self.init(program: session.programName, header: session.header, kind: session.kind,
                  quote: QuoteShown(id: quote.id, verses: quote.verses, source: quote.source, tags: quote.tags),
                  length: session.length, secondsLeft: session.secondsLeft, held: session.isHeld,
                  deepenCount: session.deepenCount, choices: choices, proceedLabel: session.proceedLabel,
                  proceedOpen: proceedOpen, alternative: session.alternative,
                  typing: session.typingTarget.map {
                      TypedLine(line: $0, typed: session.typed, open: session.isTyping, complete: !session.needsTyping)
                  },
                  intention: session.asksIntention || session.isAskingIntention
                      ? Intention(question: Self.question(for: session.programName), answer: session.intention,
                                  whileCounting: session.asksWhileCounting)
                      : nil,
                  notice: Self.notice(session), facts: nil, longerBecause: nil, problems: nil)
    }

    /// The same order of precedence as the full screen's status line.
    private static func notice(_ session: PauseSession) -> PauseNotice? {
        if session.isTyping {
            return session.pasteRefused ? .pasteRefused : session.typingMistake ? .notQuite
                : session.isNudging ? .wholeLineFirst : nil
        }
        guard session.isNudging else { return nil }
        if session.isAskingIntention && (session.answeredIntention == nil || session.canProceed) { return .fewWordsFirst }
        return .notYet
    }
}
