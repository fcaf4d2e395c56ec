import MIGACore
import MIGATerminal

/// The line pause's front end at work: each line read as a choice for the
/// pause's model (`PauseFlow`), and what the model did told in words. What
/// a line means depends only on where the pause stands: a letter among the
/// choices, the line to type back, or the answer to the question.
struct LineConversation {
    /// What a line read now is.
    enum Listening: Equatable {
        /// A letter: one of the choices on the line below.
        case choices
        /// The line to type, typed back.
        case typedLine
        /// The answer to the question.
        case answer
    }

    var flow: PauseFlow
    var reader: LineReader
    let time: TimeSource
    /// Seconds between the lines that say how long is left.
    let tick: Double
    /// Receives every piece of text, wrapped to the terminal's width.
    let write: (String) -> Void
    /// Carries out the pause's work.
    let world: PauseWorld
    /// The next countdown line, in seconds counted down.
    private var nextTick: Double
    private var announcedComplete = false
    /// Proceed at zero put the question that was open while it counted: a
    /// line is its answer now, whatever its letters.
    private var questionPut = false

    init(flow: PauseFlow, reader: LineReader, time: TimeSource, tick: Double, write: @escaping (String) -> Void,
         world: PauseWorld) {
        self.flow = flow
        self.reader = reader
        self.time = time
        self.tick = tick
        self.write = write
        self.world = world
        nextTick = tick
    }

    private var session: PauseSession { flow.session }

    var listening: Listening {
        if session.isTyping { return .typedLine }
        if session.isAskingIntention && (questionPut || !session.asksWhileCounting) { return .answer }
        return .choices
    }

    /// Tells the pause until the person chooses, input ends, a signal
    /// arrives or another launch proceeded.
    mutating func run() -> PauseEnding {
        flow.advance(to: time.monotonic())
        write("\n" + printable(session.header) + "\n\n" + LinePause.quoteBlock(session.quote) + LinePause.countdownStart(session))
        while true {
            if let ending = carry(flow.tick(at: time.monotonic())) { return ending }
            if announce() { continue }
            switch reader.next(timeout: wait()) {
            case .nothing:
                continue
            case .ended:
                return .hangup
            case .signal(let number):
                return .signal(number)
            case .resumed:
                // Back from a stop: the time away does not count.
                flow.resume(at: time.monotonic())
                guard listening == .choices else { continue }
                write(announcedComplete ? "\n" + LinePause.prompt(session) : "Pause: \(session.clock) — still here.\n")
            case .suspendRequested:
                flow.advance(to: time.monotonic())
                LineReader.suspend()
                flow.resume(at: time.monotonic())
            case .line(let line):
                if let ending = hear(line) { return ending }
            }
        }
    }

    /// The next line about the countdown, if one is due: every `tick`
    /// seconds, and once at zero with the choice.
    private mutating func announce() -> Bool {
        guard !announcedComplete else { return false }
        if session.canProceed {
            announcedComplete = true
            write("The pause is complete — the choice is yours.\n" + LinePause.prompt(session))
            return true
        }
        guard Double(session.length) - nextTick > 1e-6 && session.countdownElapsed >= nextTick - 1e-6 else { return false }
        // A clock that jumped (a stop, a slow machine) gets one line, not a burst.
        while nextTick <= session.countdownElapsed + 1e-6 { nextTick += tick }
        write("\(session.clock) …\n")
        return true
    }

    /// Until the next countdown line or the next question of giving way; nil: for a line, however long.
    private func wait() -> Double? {
        let countdown: Double? = announcedComplete ? nil
            : min(nextTick, Double(session.length)) - session.countdownElapsed
        guard let untilCheck = flow.untilYieldCheck(at: time.monotonic()) else { return countdown }
        return min(countdown ?? untilCheck, untilCheck)
    }

    /// Carries out the model's effects; the ending when one ends the pause.
    private mutating func carry(_ effects: [PauseEffect]) -> PauseEnding? {
        for effect in effects {
            switch effect {
            case .finish(let ending):
                return ending
            case .perform(let work):
                if let ending = world.perform(work, on: &flow) {
                    return ending
                }
            }
        }
        return nil
    }

    private mutating func choose(_ choice: PauseChoice, at now: Double) -> PauseEnding? {
        carry(flow.choose(choice, at: now))
    }

    // MARK: Lines heard

    private mutating func hear(_ line: String) -> PauseEnding? {
        let now = time.monotonic()
        flow.advance(to: now)
        switch listening {
        case .choices:
            return chooseByLetter(line.trimmingWhitespace(), at: now)
        case .typedLine:
            let typed = line.hasSuffix("\r") ? String(line.dropLast()) : line
            if typed != session.typingTarget && LinePause.isExit(typed) { return choose(.exitToFocus, at: now) }
            if let ending = choose(.typedLine(typed), at: now) { return ending }
            return proceed(at: now)
        case .answer:
            if LinePause.isExit(line) { return choose(.exitToFocus, at: now) }
            if let ending = choose(.intention(line), at: now) { return ending }
            return proceed(at: now)
        }
    }

    /// A line among the choices: a letter; while the question is open as it
    /// counts, more than a letter is the answer.
    private mutating func chooseByLetter(_ choice: String, at now: Double) -> PauseEnding? {
        let again = announcedComplete ? LinePause.prompt(session) : LinePause.keysLine(session) + "\n"
        switch choice.count == 1 ? PauseAction(key: .character(choice.first!)) : nil {
        case .exitToFocus:
            return choose(.exitToFocus, at: now)
        case .chooseAlternative where flow.choices.contains(.alternative):
            return choose(.alternative, at: now)
        case .deepen:
            if let ending = choose(.deepen, at: now) { return ending }
            nextTick = tick
            announcedComplete = false
            write("\n" + LinePause.quoteBlock(session.quote) + LinePause.countdownStart(session))
        case .proceed:
            return proceed(at: now)
        case .wholeQuote:
            // Every quote is printed whole here; w shows it again, in case it scrolled away.
            write("\n" + LinePause.quoteBlock(session.quote))
        case nil where flow.choices.contains(.intention) && !choice.isEmpty:
            if let ending = choose(.intention(choice), at: now) { return ending }
            write("Noted: \(printable(session.answeredIntention ?? "")).\n" + again)
        case .chooseAlternative, nil:
            write((choice.isEmpty ? "" : "A letter from the line below, then Enter.\n") + again)
        }
        return nil
    }

    /// Proceed, and where it led, in words: the line to type, the question,
    /// "not quite", "a few words first", or "not yet".
    private mutating func proceed(at now: Double) -> PauseEnding? {
        let before = listening
        if let ending = choose(.proceed, at: now) { return ending }
        if session.isAskingIntention && session.canProceed { questionPut = true }
        let question = PauseState.question(for: printable(session.programName)) + " "
        switch (before, listening) {
        case (.typedLine, .typedLine):
            write("Not quite — try again, or e to exit.\n› ")
        case (_, .typedLine):
            write("Type this line to open \(printable(session.programName)):\n"
                  + LinePause.indent + printable(session.typingTarget ?? "") + "\n› ")
        case (.answer, .answer):
            write("A few words first — or e to exit.\n" + question)
        case (_, .answer):
            write(question)
        case (_, .choices):
            write("Proceed opens at zero — there is no hurry.\n")
        }
        return nil
    }
}
