import MIGACore

/// Something only the world can do for a pause (draw a quote from the store,
/// ask the store), whoever shows it: carried out by a `PauseWorld`.
public enum PauseWork: Equatable, Sendable {
    /// Deepen now: the next quote must come from the shuffle bag.
    case deepen(at: Double)
    /// Time to ask whether another launch of the program proceeded.
    case checkYield
}

/// What a choice or the passing of time asks of whoever runs the pause.
public enum PauseEffect: Equatable, Sendable {
    case finish(PauseEnding)
    case perform(PauseWork)
}

/// The pause's one model: which choices there are, when Proceed opens, what
/// Deepen, the typed line, the question and the alternative do, when to ask
/// about giving way. Choices (`PauseChoice`) and time go in; effects and
/// `state` come out. Every front end (the full screen's keys, a dumb
/// terminal's lines, a message protocol) is a reader of its input and a
/// renderer of this model, and decides nothing of the flow itself.
public struct PauseFlow: Equatable, Sendable {
    public var session: PauseSession
    /// Ask about once a second whether to give way to an allowance.
    public let checksYield: Bool
    private var lastYieldCheck = -Double.infinity

    /// How often a pause asks whether to give way to an allowance, in seconds.
    static let yieldCheckInterval = 1.0

    public init(session: PauseSession, checksYield: Bool = false) {
        self.session = session
        self.checksYield = checksYield
    }

    /// The countdown goes on to `now`.
    public mutating func advance(to now: Double) { session.advance(to: now) }

    /// Back from a stop (Ctrl-Z and `fg`): the time away does not count.
    public mutating func resume(at now: Double) { session.skip(to: now) }

    /// The passing of time: the countdown, and the question of giving way when it is due.
    public mutating func tick(at now: Double) -> [PauseEffect] {
        session.advance(to: now)
        guard checksYield, now - lastYieldCheck >= Self.yieldCheckInterval else { return [] }
        lastYieldCheck = now
        return [.perform(.checkYield)]
    }

    /// Seconds until the question of giving way is due; nil when it is never asked.
    public func untilYieldCheck(at now: Double) -> Double? {
        checksYield ? max(0, lastYieldCheck + Self.yieldCheckInterval - now) : nil
    }

    /// The world's answer to `.deepen`: a fresh quote, the countdown back to full.
    public mutating func deepen(with quote: Quote, at now: Double) {
        session.deepen(with: quote, at: now)
    }

    // MARK: Choices

    /// The choices that do something now, Exit to Focus first: in the typing
    /// field and at the question asked after zero only those that belong
    /// there; otherwise the pause's own.
    public var choices: [PauseChoice.Name] {
        if session.isTyping { return [.exitToFocus, .typedLine, .proceed, .back] }
        if session.isAskingIntention && !session.asksWhileCounting { return [.exitToFocus, .intention, .proceed, .back] }
        return [.exitToFocus] + (session.alternative == nil ? [] : [.alternative])
            + (session.isAskingIntention ? [.intention] : []) + [.deepen, .proceed]
    }

    /// Proceed goes on now: the countdown is over, in the field the line is
    /// typed, and at the question there are words.
    public var proceedOpens: Bool {
        session.canProceed && !(session.isTyping && session.needsTyping)
            && !(session.isAskingIntention && session.answeredIntention == nil)
    }

    public var state: PauseState { PauseState(session, choices: choices, proceedOpen: proceedOpens) }

    /// What `choice` does at `now`. A choice not among `choices` does nothing
    /// (focus aside: it can change at any moment).
    public mutating func choose(_ choice: PauseChoice, at now: Double) -> [PauseEffect] {
        session.advance(to: now)
        if case .focus(let focused) = choice {
            guard session.holdsWhenUnfocused else { return [] }
            if focused { session.release(at: now) } else { session.hold(at: now) }
            return []
        }
        guard choices.contains(choice.name) else { return [] }
        switch choice {
        case .exitToFocus: return [.finish(.exitToFocus)]
        case .alternative: return [.finish(.alternative)]
        case .deepen: return [.perform(.deepen(at: now))]
        case .proceed: return proceed(at: now)
        case .typedLine(let text): session.typeLine(text, at: now)
        case .intention(let text): session.answerIntention(text)
        case .back:
            if session.isTyping { session.stopTyping(at: now) } else { session.cancelIntention(at: now) }
        case .focus: break
        }
        return []
    }

    /// Proceed: before zero, a gentle "not yet"; after it, the line to type
    /// first, then the question, then the program.
    private mutating func proceed(at now: Double) -> [PauseEffect] {
        guard session.canProceed else {
            session.nudge(at: now)
            return []
        }
        if session.needsTyping {
            if session.isTyping { session.nudge(at: now) } else { session.beginTyping(at: now) }
            return []
        }
        if session.isTyping { session.stopTyping(at: now) }
        if session.isAskingIntention {
            guard session.answeredIntention != nil else {
                session.nudge(at: now)
                return []
            }
            return [.finish(.proceed)]
        }
        guard session.asksIntention else { return [.finish(.proceed)] }
        session.beginIntention(at: now)
        return []
    }
}
