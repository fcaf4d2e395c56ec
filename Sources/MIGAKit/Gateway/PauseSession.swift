import FoundationEssentials
import MIGACore

/// The pause as a pure state machine: time and choices go in, what to show
/// comes out. It knows nothing of terminals, so every rule is tested with
/// plain numbers for time.
public struct PauseSession: Equatable, Sendable {
    public let programName: String
    /// The faint line at the top: what this pause stands before.
    public var header: String
    /// The third action, once the countdown is over.
    public var proceedLabel: String
    /// Before Proceed, ask what the program is opened for (the program's
    /// setting, or the kind `intention`). Set by the plan (`PausePlan`).
    public var asksIntention = false
    /// Hold the countdown while the pause is looked away from (the program's
    /// setting). Set by the plan (`PausePlan`).
    public var holdsWhenUnfocused = false
    /// The kind of pause on screen.
    public var kind: PauseKind = .breathe
    /// A typed pause: the line Proceed needs typed back (see `TypedLine.isWhole`).
    public var typingTarget: String?
    /// A typed pause: where its line comes from, asked again on Deepen.
    public var typedLines: TypedLineSource?
    /// How much of the line has been typed. Only right characters go in: a
    /// mistake stays out, and the cursor waits where it happened.
    public private(set) var typed = ""
    /// The typing field is open (in place of the actions).
    public private(set) var isTyping = false
    /// The last key in the field was not the next character of the line.
    public private(set) var typingMistake = false
    /// Pasted text was refused (bracketed, or a burst no hand types).
    public private(set) var pasteRefused = false
    /// The whole line was typed at some point of this pause.
    public private(set) var typedInFull = false
    /// A pause of the kind `instead`: the person's alternative on offer.
    public var alternative: String?
    /// The whole quote is on screen in place of the ring (`w`); the countdown goes on.
    public var showsWholeQuote = false
    /// The kind the quiet key (`Ctrl-N`, "not this kind") would take out of
    /// this program's draw: the kind shown, when it is one of several; nil otherwise.
    public var declinableKind: PauseKind?
    /// The person said "not this kind": the kind leaves the program's kinds when the pause ends.
    public var declinesKind = false
    /// The answer being typed, while the question is on screen; nil otherwise.
    public private(set) var intention: String?
    /// The countdown stands still (the window is not focused).
    public private(set) var isHeld = false
    /// Seconds of a full countdown.
    public let length: Int
    public private(set) var quote: Quote
    /// Ids of every quote shown, in order.
    public private(set) var quotesShown: [String]
    public private(set) var deepenCount = 0
    /// Seconds counted down since the countdown last started.
    public private(set) var countdownElapsed: Double = 0
    /// Seconds the pause has been on screen in all: what "hours reclaimed" adds up.
    public private(set) var pausedSeconds: Double = 0
    /// The time of the last event, on the caller's monotonic clock.
    public private(set) var now: Double
    private var nudgeUntil: Double = -.infinity

    /// How long the gentle "not yet" stays after Proceed is pressed too early.
    static let nudgeSeconds = 2.5

    /// Longest answer to the intention question, in characters: a line, not a diary.
    static let intentionLimit = 120

    public init(programName: String, length: Int, quote: Quote, at time: Double) {
        self.programName = programName
        header = "a pause before \(programName)"
        proceedLabel = "Proceed to \(programName)"
        self.length = max(1, length)
        self.quote = quote
        quotesShown = [quote.id]
        now = time
    }

    /// Counts the time since the last event (only as time on screen while held).
    public mutating func advance(to time: Double) {
        guard time > now else { return }
        if !isHeld { countdownElapsed += time - now }
        pausedSeconds += time - now
        now = time
    }

    /// The window lost focus: the countdown waits for the person to come back.
    public mutating func hold(at time: Double) {
        advance(to: time)
        isHeld = true
    }

    /// Focus is back: the countdown goes on from where it stood.
    public mutating func release(at time: Double) {
        advance(to: time)
        isHeld = false
    }

    /// Lets time pass without counting it: the process was stopped (Ctrl-Z),
    /// or the countdown is held.
    public mutating func skip(to time: Double) {
        now = max(now, time)
    }

    public var secondsLeft: Int {
        max(0, Int((Double(length) - countdownElapsed - 1e-9).rounded(.up)))
    }

    /// 1 when the countdown starts, 0 when it is over.
    public var remainingFraction: Double {
        max(0, min(1, 1 - countdownElapsed / Double(length)))
    }

    /// Proceed is inert until the countdown reaches zero.
    public var canProceed: Bool { countdownElapsed >= Double(length) }

    /// Proceed was pressed early and the screen is saying so, kindly.
    public var isNudging: Bool { now < nudgeUntil }

    /// A fresh quote and the countdown back to full, any number of times.
    /// In a typed pause the line to type is chosen again, so it still
    /// belongs to the quote on screen (what was typed of the old one goes);
    /// should the new quote give none, the old line stays.
    public mutating func deepen(with quote: Quote, at time: Double) {
        advance(to: time)
        self.quote = quote
        quotesShown.append(quote.id)
        deepenCount += 1
        showsWholeQuote = false
        countdownElapsed = 0
        nudgeUntil = -.infinity
        if typingTarget != nil { chooseTypingLine() }
    }

    /// Proceed pressed before zero: nothing happens but a gentle reminder.
    public mutating func nudge(at time: Double) {
        advance(to: time)
        nudgeUntil = time + Self.nudgeSeconds
    }

    // MARK: The intention question

    /// Proceed pressed after the countdown, with `asksIntention`: the question opens.
    public mutating func beginIntention(at time: Double) {
        advance(to: time)
        intention = ""
        nudgeUntil = -.infinity
    }

    public var isAskingIntention: Bool { intention != nil }

    /// The question is the pause's own screen, open from the first frame
    /// (the kind `intention`), rather than a step Proceed led to
    /// (`asksIntention`): there is nothing to step back to, so Esc is Exit
    /// to Focus and Tab deepens, one key each, while letters type the answer.
    public var asksWhileCounting: Bool { kind == .intention }

    /// The answer given: the typed line, trimmed; nil while it is blank.
    public var answeredIntention: String? {
        guard let text = intention?.trimmingWhitespace(), !text.isEmpty else { return nil }
        return text
    }

    public mutating func typeIntention(_ character: Character) {
        guard var text = intention, text.count < Self.intentionLimit,
              !character.isNewline, character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }) else { return }
        text.append(character)
        intention = text
    }

    public mutating func eraseIntention(word: Bool = false) {
        guard var text = intention, !text.isEmpty else { return }
        if word {
            while text.last == " " { text.removeLast() }
            while let last = text.last, last != " " { text.removeLast() }
        } else {
            text.removeLast()
        }
        intention = text
    }

    /// The answer given whole (a line at a time, or a form), in place of
    /// what was typed so far, by the same rules as a key at a time.
    public mutating func answerIntention(_ text: String) {
        guard intention != nil else { return }
        intention = ""
        for character in text { typeIntention(character) }
    }

    /// Ctrl-U: the whole answer gone.
    public mutating func clearIntention() {
        if intention != nil { intention = "" }
    }

    /// Esc: back to the pause, the countdown still over.
    public mutating func cancelIntention(at time: Double) {
        advance(to: time)
        intention = nil
    }

    // MARK: The typed line

    /// Proceed pressed after the countdown, in a typed pause: the field opens
    /// where it was left.
    public mutating func beginTyping(at time: Double) {
        advance(to: time)
        isTyping = true
        typingMistake = false
        nudgeUntil = -.infinity
    }

    /// Sets the line to type from `typedLines` and the quote on screen;
    /// false (and nothing changed) when they give none.
    @discardableResult
    public mutating func chooseTypingLine() -> Bool {
        guard var source = typedLines else { return false }
        let line = source.line(for: quote)
        typedLines = source
        guard let line else { return false }
        if line != typingTarget {
            typingTarget = line
            typed = ""
            typedInFull = false
        }
        typingMistake = false
        pasteRefused = false
        return true
    }

    /// Whether Proceed needs (more) typing first.
    public var needsTyping: Bool { typingTarget != nil && !typedInFull }

    /// A key typed in the field: taken when the line goes on with it,
    /// compared by grapheme clusters (an accent or a vowel sign typed as a
    /// key of its own joins the letter before it; see `TypedLine.isOnTheWay`).
    public mutating func type(_ character: Character, at time: Double) {
        advance(to: time)
        guard isTyping, let target = typingTarget, !TypedLine.isWhole(typed, of: target) else { return }
        pasteRefused = false
        let candidate = typed + String(character)
        if TypedLine.isOnTheWay(candidate, to: target) {
            typed = candidate
            typingMistake = false
            if TypedLine.isWhole(typed, of: target) { typedInFull = true }
        } else {
            typingMistake = true
        }
    }

    /// The line typed back whole (a line at a time, or a form): taken only
    /// when it is the whole line (its joiners may be left out, as a key at a
    /// time); anything else is a mistake and leaves the field as it was.
    public mutating func typeLine(_ text: String, at time: Double) {
        advance(to: time)
        guard isTyping, let target = typingTarget else { return }
        pasteRefused = false
        guard TypedLine.isWhole(text, of: target) else {
            typingMistake = true
            return
        }
        typed = target
        typedInFull = true
        typingMistake = false
    }

    /// Backspace in the field: the last right character goes.
    public mutating func eraseTyped() {
        guard isTyping, !typed.isEmpty else { return }
        typed.removeLast()
        typedInFull = false
        typingMistake = false
    }

    /// Characters that came too fast for a hand, or inside a bracketed
    /// paste: taken back, and the screen says why.
    public mutating func refusePaste(keeping count: Int) {
        typed = String(typed.prefix(count))
        typedInFull = typingTarget.map { TypedLine.isWhole(typed, of: $0) } ?? false
        typingMistake = false
        pasteRefused = true
    }

    /// Esc in the field: back to the pause; what was typed stays for next time.
    public mutating func stopTyping(at time: Double) {
        advance(to: time)
        isTyping = false
        typingMistake = false
        pasteRefused = false
    }

    /// What the store keeps of this pause.
    public var progress: PauseProgress {
        // Milliseconds are plenty, and spare the store float dust like 12.000000000002.
        PauseProgress(pausedSeconds: (pausedSeconds * 1000).rounded() / 1000, deepenCount: deepenCount,
                      quotes: quotesShown, kind: kind, typed: kind == .type && typingTarget != nil ? typedInFull : nil)
    }

    /// The countdown as the screen shows it: `m:ss`.
    public var clock: String { MIGACore.clock(secondsLeft) }
}
