#if canImport(Glibc)
import Glibc
#endif

/// The pause for a terminal that obeys no control sequences (`TERM=dumb`:
/// Emacs's shell, an IDE's output pane, a CI log): the same session and the
/// same endings as the full-screen pause, told in plain lines.
///
/// The terminal stays in its normal line mode, so a choice is a letter and
/// Enter. Nothing written is anything but printable text and "\n": no
/// escape, no carriage return redrawing a line, no colour. Every word from a
/// file or a config (quote, alternative, program name, typed line) passes
/// through `printable(_:)`.
public enum LinePause {
    /// Widest line of the quote, its indent included.
    static let measure = 72
    static let indent = "  "
    /// Longest alternative shown in the prompt, in cells: a reminder, not a paragraph.
    static let alternativeWidth = 48
    /// How often to ask whether to give way to an allowance, in seconds.
    static let yieldCheckInterval = 1.0

    /// Shows the pause as lines until the person chooses, input ends, a
    /// signal arrives or another launch proceeded.
    ///
    /// - Parameters:
    ///   - input: read a line at a time (canonical mode); end of input is `.hangup`.
    ///   - signals: the read end of a self-pipe carrying signal numbers as
    ///     bytes (`SignalRouting.install()`), or -1 to leave signals alone.
    ///   - output: receives every piece of text, in order.
    ///   - nextQuote: the quote Deepen brings (from the shuffle bag).
    ///   - onDeepen: called after each deepen, to keep the store's row current.
    ///   - shouldYield: asked about once a second; true ends the pause as `.yielded`.
    ///   - width: the terminal's width: every line is wrapped to it, between words.
    ///   - tick: seconds between the lines that say how long is left.
    public static func run(_ session: inout PauseSession, input: Int32, signals: Int32 = -1,
                           output write: (String) -> Void, time: TimeSource, width: Int = 80,
                           nextQuote: (PauseSession) -> Quote,
                           onDeepen: (PauseSession) -> Void = { _ in },
                           shouldYield: (() -> Bool)? = nil,
                           tick: Double = 10) -> PauseEnding {
        func output(_ text: String) { write(wrapped(text, width: max(10, width))) }
        let tick = tick.isFinite && tick > 0 ? tick : 10
        var reader = LineReader(input: input, signals: signals)
        session.advance(to: time.monotonic())
        output("\n" + printable(session.header) + "\n\n" + quoteBlock(session.quote) + countdownStart(session))
        // The next countdown line, in seconds counted down.
        var nextTick = tick
        var announcedComplete = false
        var lastYieldCheck = -Double.infinity

        while true {
            let now = time.monotonic()
            session.advance(to: now)
            if let shouldYield, now - lastYieldCheck >= yieldCheckInterval {
                lastYieldCheck = now
                if shouldYield() { return .yielded }
            }
            if !announcedComplete {
                if session.canProceed {
                    announcedComplete = true
                    output("The pause is complete — the choice is yours.\n" + prompt(session))
                    continue
                }
                if Double(session.length) - nextTick > 1e-6 && session.countdownElapsed >= nextTick - 1e-6 {
                    // A clock that jumped (a stop, a slow machine) gets one line, not a burst.
                    while nextTick <= session.countdownElapsed + 1e-6 { nextTick += tick }
                    output("\(session.clock) …\n")
                    continue
                }
            }
            var wait: Double? = announcedComplete ? nil
                : min(nextTick, Double(session.length)) - session.countdownElapsed
            if shouldYield != nil {
                let untilCheck = max(0, lastYieldCheck + yieldCheckInterval - time.monotonic())
                wait = min(wait ?? untilCheck, untilCheck)
            }

            switch reader.next(timeout: wait) {
            case .nothing:
                continue
            case .ended:
                return .hangup
            case .signal(let number):
                return .signal(number)
            case .resumed:
                // Back from a stop: the time away does not count.
                session.skip(to: time.monotonic())
                output(announcedComplete ? "\n" + prompt(session) : "Pause: \(session.clock) — still here.\n")
            case .suspendRequested:
                session.advance(to: time.monotonic())
                suspend()
                session.skip(to: time.monotonic())
            case .line(let line):
                session.advance(to: time.monotonic())
                let choice = line.trimmingWhitespace()
                let action = choice.count == 1 ? PauseAction(key: .character(choice.first!)) : nil
                switch action {
                case .exitToFocus:
                    return .exitToFocus
                case .chooseAlternative where session.alternative != nil:
                    return .alternative
                case .deepen:
                    session.deepen(with: nextQuote(session), at: time.monotonic())
                    onDeepen(session)
                    nextTick = tick
                    announcedComplete = false
                    output("\n" + quoteBlock(session.quote) + countdownStart(session))
                case .proceed where session.canProceed:
                    return proceed(&session, reader: &reader, output: output, time: time)
                case .proceed:
                    session.nudge(at: time.monotonic())
                    output("Proceed opens at zero — there is no hurry.\n")
                case .wholeQuote:
                    // Every quote is printed whole here; w shows it again, in case it scrolled away.
                    output("\n" + quoteBlock(session.quote))
                case nil where session.isAskingIntention && !choice.isEmpty:
                    // The question asked while it counts: more than a letter is the answer.
                    session.clearIntention()
                    for character in choice { session.typeIntention(character) }
                    output("Noted: \(printable(session.answeredIntention ?? "")).\n"
                           + (announcedComplete ? prompt(session) : keysLine(session) + "\n"))
                case .chooseAlternative, nil:
                    let again = announcedComplete ? prompt(session) : keysLine(session) + "\n"
                    output((choice.isEmpty ? "" : "A letter from the line below, then Enter.\n") + again)
                }
            }
        }
    }

    // MARK: After the countdown

    /// Proceed at zero: the line to type first, then the question, then the program.
    private static func proceed(_ session: inout PauseSession, reader: inout LineReader,
                                output: (String) -> Void, time: TimeSource) -> PauseEnding {
        let program = printable(session.programName)
        if session.needsTyping, let target = session.typingTarget {
            session.beginTyping(at: time.monotonic())
            output("Type this line to open \(program):\n" + indent + printable(target) + "\n› ")
            while session.needsTyping {
                let line: String
                switch reader.next(timeout: nil) {
                case .line(let text): line = text.hasSuffix("\r") ? String(text.dropLast()) : text
                case .ended: return .hangup
                case .signal(let number): return .signal(number)
                case .suspendRequested: suspend(); continue
                case .nothing, .resumed: continue
                }
                session.advance(to: time.monotonic())
                if line == target {
                    typeInFull(line, into: &session, at: time.monotonic())
                } else if isExit(line) {
                    return .exitToFocus
                }
                if session.needsTyping { output("Not quite — try again, or e to exit.\n› ") }
            }
            session.stopTyping(at: time.monotonic())
        }
        // Answered while it counted (the kind `intention`): nothing more to ask.
        guard session.asksIntention, session.answeredIntention == nil else { return .proceed }

        session.beginIntention(at: time.monotonic())
        let question = "What are you opening \(program) for? "
        output(question)
        while true {
            switch reader.next(timeout: nil) {
            case .line(let line):
                session.advance(to: time.monotonic())
                if isExit(line) { return .exitToFocus }
                session.clearIntention()
                for character in line { session.typeIntention(character) }
                if session.answeredIntention != nil { return .proceed }
                session.nudge(at: time.monotonic())
                output("A few words first — or e to exit.\n" + question)
            case .ended: return .hangup
            case .signal(let number): return .signal(number)
            case .suspendRequested: suspend()
            case .nothing, .resumed: continue
            }
        }
    }

    /// The session learns the line as if typed a key at a time: its own
    /// rules decide `typedInFull`, and it starts from an empty field.
    private static func typeInFull(_ line: String, into session: inout PauseSession, at time: Double) {
        while !session.typed.isEmpty { session.eraseTyped() }
        for character in line { session.type(character, at: time) }
    }

    /// A lone `e` or `q` (the keys of Exit to Focus), any case, spaces aside.
    private static func isExit(_ line: String) -> Bool {
        let choice = line.trimmingWhitespace()
        return choice.count == 1 && PauseAction(key: .character(choice.first!)) == .exitToFocus
    }

    /// Ctrl-Z with the signal routed to us: stop for real, as the shell expects.
    private static func suspend() {
        SignalRouting.setDefault(SIGTSTP)
        raise(SIGTSTP) // the process stops here until `fg`
        SignalRouting.forward(SIGTSTP)
    }

    // MARK: Words

    /// The quote in “…” as the screen shows it, verse by verse, then its source and tags.
    static func quoteBlock(_ quote: Quote) -> String {
        // Room for the indent and the quotation marks, so no line passes `measure`.
        let width = measure - indent.count - 1
        var lines = quote.verses.flatMap { TextWrap.lines(printable($0), width: width) }
        if !lines.isEmpty {
            lines[0] = "“" + lines[0]
            lines[lines.count - 1] += "”"
        }
        let tags = quote.tags.map(printable).joined(separator: " · ")
        let attribution = quote.source.map { "— \(printable($0)) · \(tags)" } ?? tags
        if !attribution.isEmpty { lines += TextWrap.lines(attribution, width: width) }
        return lines.map { indent + $0 + "\n" }.joined() + "\n"
    }

    /// The full time, what Proceed waits for, and the keys that work now.
    static func countdownStart(_ session: PauseSession) -> String {
        let program = printable(session.programName)
        let status = session.kind == .intention ? "while it counts: what are you opening \(program) for?"
            : session.needsTyping ? "Proceed opens at zero, after a short line typed back."
            : "Proceed opens at zero."
        return "Pause: \(session.clock) — \(status)\n" + keysLine(session) + "\n"
    }

    /// The keys before zero: Exit to Focus always first.
    static func keysLine(_ session: PauseSession) -> String {
        glued(exitChoices(session) + ["d Deepen the Pause"]) + " " + glued(["(then Enter)"])
    }

    /// The choice at zero, waiting on the same line for the answer.
    static func prompt(_ session: PauseSession) -> String {
        let proceed = "p " + printable(session.proceedLabel)
        return glued(exitChoices(session) + ["d Deepen the Pause", proceed]) + " " + glued(["(then Enter):"]) + " "
    }

    private static func exitChoices(_ session: PauseSession) -> [String] {
        guard let alternative = session.alternative else { return ["e Exit to Focus"] }
        return ["e Exit to Focus", "i Instead: " + TextWrap.truncate(printable(alternative), width: alternativeWidth)]
    }

    // MARK: Wrapping

    /// Joins a choice's words so that wrapping keeps it whole on a line
    /// where it fits ("d Deepen the Pause", never "d Deepen the" and "Pause").
    private static let glue: Character = "\u{00A0}"

    /// `items` joined by " · ", each glued whole.
    private static func glued(_ items: [String]) -> String {
        items.map { $0.replacingOccurrences(of: " ", with: String(glue)) }.joined(separator: " · ")
    }

    /// `text` with every line wider than `width` broken between words (its
    /// indent kept), a prompt's last space kept, and the glue made spaces again.
    static func wrapped(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let line = String(line)
            guard CellWidth.of(line) > width else { return line.replacingOccurrences(of: String(glue), with: " ") }
            let indent = String(line.prefix { $0 == " " })
            let trailing = line.hasSuffix(" ") ? " " : ""
            return TextWrap.lines(String(line.dropFirst(indent.count)), width: max(1, width - indent.count - trailing.count))
                .map { (indent + $0).replacingOccurrences(of: String(glue), with: " ") }
                .joined(separator: "\n") + trailing
        }.joined(separator: "\n")
    }
}

/// Lines from a descriptor in canonical mode, waited for with poll(2) beside
/// the signal pipe, so the countdown goes on while nobody types.
private struct LineReader {
    enum Event: Equatable {
        case line(String)
        /// The time ran out, or something arrived that is not a whole line yet.
        case nothing
        case ended
        case signal(Int32)
        case suspendRequested
        case resumed
    }

    let input: Int32
    let signals: Int32
    private var pending: [UInt8] = []
    private var queued: [Event] = []
    private var isEnded = false

    /// A line longer than this without a newline is taken as it is: a pipe
    /// without line breaks must not grow without end.
    static let longestLine = 4096

    init(input: Int32, signals: Int32) {
        self.input = input
        self.signals = signals
    }

    /// The next line or happening, waiting at most `timeout` seconds (nil: as long as it takes).
    mutating func next(timeout: Double?) -> Event {
        if !queued.isEmpty { return queued.removeFirst() }
        if let line = takeLine() { return .line(line) }
        if isEnded { return .ended }
        // poll(2) skips a negative descriptor: without a signal pipe, only the input.
        var fds = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        let milliseconds = timeout.map { Int32(min(Double(Int32.max), max(0, $0 * 1000).rounded(.up))) } ?? -1
        guard poll(&fds, nfds_t(fds.count), milliseconds) > 0 else { return .nothing }
        if fds[0].revents & Int16(POLLIN) != 0 { readSignals() }
        if fds[1].revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 {
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = read(input, &buffer, buffer.count)
            if count > 0 {
                pending += buffer[0..<count]
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                isEnded = true
            }
        }
        if !queued.isEmpty { return queued.removeFirst() }
        if let line = takeLine() { return .line(line) }
        return isEnded ? .ended : .nothing
    }

    private mutating func takeLine() -> String? {
        if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
            defer { pending.removeSubrange(...end) }
            return String(decoding: pending[..<end], as: UTF8.self)
        }
        guard pending.count > Self.longestLine else { return nil }
        defer { pending.removeAll() }
        return String(decoding: pending, as: UTF8.self)
    }

    /// One read: a non-blocking pipe or not, it never waits, and what is
    /// left comes with the next poll.
    private mutating func readSignals() {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(signals, &buffer, buffer.count)
        guard count > 0 else { return }
        for byte in buffer[0..<count] {
            switch Int32(byte) {
            case SIGWINCH: break // lines need no redrawing
            case SIGTSTP: queued.append(.suspendRequested)
            case SIGCONT: queued.append(.resumed)
            case let signal: queued.append(.signal(signal))
            }
        }
    }
}
