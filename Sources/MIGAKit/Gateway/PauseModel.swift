/// The pause as a screen model: what each key, each change of focus and the
/// passing of time do to the session, and what the world must do about it
/// (draw the next quote, ask whether another launch began an allowance).
/// Pure: `PauseLoop` runs it on a terminal.
struct PauseModel: ScreenModel {
    enum Work: Equatable {
        /// Deepen now: the next quote must come from the shuffle bag.
        case deepen(at: Double)
        /// Time to ask whether another launch of the program proceeded.
        case checkYield
    }

    var session: PauseSession
    let look: PauseLook
    /// Hold the countdown while the window is not focused (`hold_when_unfocused`).
    let holdsWhenUnfocused: Bool
    /// Ask about once a second whether to give way to an allowance.
    let checksYield: Bool
    private var lastYieldCheck = -Double.infinity
    /// Inside a bracketed paste: nothing in it is a key pressed. A paste
    /// whose end marker never comes ends after a quiet second.
    private var pasting = false
    private var lastPasted = -Double.infinity
    static let pasteQuiet = 1.0
    /// The characters typed in quick succession, and where the line stood before them.
    private var burst = (count: 0, typedBefore: 0, last: -Double.infinity)

    /// Characters closer together than this come from a paste (or a
    /// program), not a hand: a fast typist's keys are 30 ms or more apart.
    static let burstGap = 0.008
    /// This many such characters in a row make a burst (two keys pressed
    /// together arrive closer than any gap).
    static let burstLength = 3

    /// How often a pause asks whether to give way to an allowance, in seconds.
    static let yieldCheckInterval = 1.0

    init(session: PauseSession, look: PauseLook, holdsWhenUnfocused: Bool = false, checksYield: Bool = false) {
        self.session = session
        self.look = look
        self.holdsWhenUnfocused = holdsWhenUnfocused
        self.checksYield = checksYield
    }

    mutating func update(_ input: ScreenInput?, at now: Double) -> [ScreenCommand<PauseEnding, Work>] {
        guard input != .resumed else {
            // Back from a stop: the time away does not count.
            session.skip(to: now)
            return [.redraw]
        }
        session.advance(to: now)
        if pasting && input == nil && now - lastPasted > Self.pasteQuiet { pasting = false }
        switch input {
        case .key(let key): return respond(to: key, at: now)
        case .resized: return [.redraw]
        case .resumed, nil: break
        }
        if checksYield && now - lastYieldCheck >= Self.yieldCheckInterval {
            lastYieldCheck = now
            return [.perform(.checkYield)]
        }
        return []
    }

    private mutating func respond(to key: Key, at now: Double) -> [ScreenCommand<PauseEnding, Work>] {
        switch key {
        case .focusOut where holdsWhenUnfocused:
            session.hold(at: now)
            return []
        case .focusIn where holdsWhenUnfocused:
            session.release(at: now)
            return []
        case .control("z"):
            return [.suspend]
        case .control("l"):
            return [.redraw]
        case .pasteStart:
            pasting = true
            lastPasted = now
            if session.isTyping { session.refusePaste(keeping: session.typed.count) }
            return []
        case .pasteEnd:
            pasting = false
            return []
        default:
            break
        }
        // Pasted text is not keys pressed: a "p" in it proceeds nowhere.
        if pasting {
            lastPasted = now
            return []
        }
        if session.isTyping { return typeBack(key, at: now) }
        if session.isAskingIntention { return answer(key, at: now) }
        switch PauseAction(key: key) {
        case .exitToFocus:
            return [.finish(.exitToFocus)]
        case .chooseAlternative:
            return session.alternative == nil ? [] : [.finish(.alternative)]
        case .wholeQuote:
            session.showsWholeQuote.toggle()
            return [.redraw]
        case .deepen:
            return [.perform(.deepen(at: now))]
        case .proceed:
            guard session.canProceed else {
                session.nudge(at: now)
                return []
            }
            return proceedOrAsk(at: now)
        case nil:
            break
        }
        return []
    }

    /// After the countdown: the line to type first, then the question, then the program.
    private mutating func proceedOrAsk(at now: Double) -> [ScreenCommand<PauseEnding, Work>] {
        if session.needsTyping {
            session.beginTyping(at: now)
            return []
        }
        guard session.asksIntention else { return [.finish(.proceed)] }
        session.beginIntention(at: now)
        return []
    }

    /// Keys while the typing field is open: the line's characters, Backspace,
    /// Enter once it is typed, Esc (back) and Ctrl-C (exit). A burst of
    /// characters no hand types is taken back.
    private mutating func typeBack(_ key: Key, at now: Double) -> [ScreenCommand<PauseEnding, Work>] {
        let character: Character? = switch key {
        case .character(let character): character
        case .space: " "
        default: nil
        }
        if let character {
            burst = now - burst.last < Self.burstGap
                ? (burst.count + 1, burst.typedBefore, now)
                : (1, session.typed.count, now)
            session.type(character, at: now)
            if burst.count >= Self.burstLength { session.refusePaste(keeping: burst.typedBefore) }
            return []
        }
        switch key {
        case .backspace: session.eraseTyped()
        case .enter:
            if !session.needsTyping {
                session.stopTyping(at: now)
                return proceedOrAsk(at: now)
            }
            session.nudge(at: now)
        case .escape: session.stopTyping(at: now)
        case .control("c"), .control("d"): return [.finish(.exitToFocus)]
        default: break
        }
        return []
    }

    /// Keys while the intention question is open: they type the answer, except
    /// Enter (proceed, once there are words), Esc (back; Exit to Focus when the
    /// question is the pause's own), Tab (deepen, then) and Ctrl-C (exit).
    private mutating func answer(_ key: Key, at now: Double) -> [ScreenCommand<PauseEnding, Work>] {
        switch key {
        case .escape where session.asksWhileCounting: return [.finish(.exitToFocus)]
        case .tab where session.asksWhileCounting: return [.perform(.deepen(at: now))]
        case .character(let character): session.typeIntention(character)
        case .space: session.typeIntention(" ")
        case .backspace: session.eraseIntention()
        case .control("w"): session.eraseIntention(word: true)
        case .control("u"): session.clearIntention()
        case .enter:
            // An intention pause asks from the start: the answer waits for zero.
            if session.answeredIntention != nil && session.canProceed { return [.finish(.proceed)] }
            session.nudge(at: now)
        case .escape: session.cancelIntention(at: now)
        case .control("c"), .control("d"): return [.finish(.exitToFocus)]
        default: break
        }
        return []
    }

    func frame(size: TerminalSize) -> Frame {
        PauseScreen.frame(session, size: size, look: look)
    }

    /// Motion wants about ten frames a second; a still screen changes only
    /// when the seconds do (or when a reminder fades).
    func wait(at now: Double) -> Double {
        if look.motion { return 0.1 }
        if session.isNudging { return 0.25 }
        if session.canProceed { return 1 }
        let untilNextSecond = (Double(session.length) - session.countdownElapsed)
            .truncatingRemainder(dividingBy: 1)
        return max(0.02, untilNextSecond + 0.005)
    }
}
