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
        default:
            break
        }
        if session.isAskingIntention { return answer(key, at: now) }
        switch PauseAction(key: key) {
        case .exitToFocus:
            return [.finish(.exitToFocus)]
        case .deepen:
            return [.perform(.deepen(at: now))]
        case .proceed:
            guard session.canProceed else {
                session.nudge(at: now)
                return []
            }
            guard session.asksIntention else { return [.finish(.proceed)] }
            session.beginIntention(at: now)
        case nil:
            break
        }
        return []
    }

    /// Keys while the intention question is open: they type the answer, except
    /// Enter (proceed, once there are words), Esc (back) and Ctrl-C (exit).
    private mutating func answer(_ key: Key, at now: Double) -> [ScreenCommand<PauseEnding, Work>] {
        switch key {
        case .character(let character): session.typeIntention(character)
        case .space: session.typeIntention(" ")
        case .backspace: session.eraseIntention()
        case .control("w"): session.eraseIntention(word: true)
        case .control("u"): session.clearIntention()
        case .enter:
            if session.answeredIntention != nil { return [.finish(.proceed)] }
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
