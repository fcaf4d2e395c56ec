/// How the pause ended.
public enum PauseEnding: Equatable, Sendable {
    case exitToFocus
    case proceed
    /// SIGINT, SIGTERM, SIGHUP or SIGQUIT arrived.
    case signal(Int32)
    /// The terminal went away.
    case hangup
    /// Another launch of the program proceeded meanwhile and began an
    /// allowance: this pause gives way to it instead of asking twice.
    case yielded
    /// Measuring start-up: the first frame is on screen and nothing more is wanted.
    case firstFrameDrawn
}

/// Runs a pause on a terminal: turns key presses, signals and the passing of
/// time into session events, and draws each new state.
public final class PauseLoop {
    public private(set) var session: PauseSession
    /// The frame on screen now.
    public private(set) var lastFrame: Frame?
    private let terminal: TerminalDevice
    private let time: TimeSource
    private let look: PauseLook
    private var renderer: FrameRenderer
    private let nextQuote: (PauseSession) -> Quote
    private let onDeepen: (PauseSession) -> Void
    private let exitAfterFirstFrame: Bool
    private let holdsWhenUnfocused: Bool
    private let shouldYield: (() -> Bool)?
    private var lastYieldCheck = -Double.infinity

    /// How often a pause asks whether to give way to an allowance, in seconds.
    static let yieldCheckInterval = 1.0

    /// - Parameters:
    ///   - holdsWhenUnfocused: hold the countdown while the window is not
    ///     focused (`hold_when_unfocused`), through the terminal's focus reports.
    ///   - nextQuote: the quote Deepen brings (from the shuffle bag).
    ///   - onDeepen: called after each deepen, to keep the store's row current.
    ///   - shouldYield: asked about once a second; true ends the pause as `.yielded`.
    public init(session: PauseSession, terminal: TerminalDevice, time: TimeSource, look: PauseLook,
                palette: Palette, exitAfterFirstFrame: Bool = false, holdsWhenUnfocused: Bool = false,
                nextQuote: @escaping (PauseSession) -> Quote,
                onDeepen: @escaping (PauseSession) -> Void = { _ in },
                shouldYield: (() -> Bool)? = nil) {
        self.session = session
        self.terminal = terminal
        self.time = time
        self.look = look
        self.renderer = FrameRenderer(palette: palette)
        self.exitAfterFirstFrame = exitAfterFirstFrame
        self.holdsWhenUnfocused = holdsWhenUnfocused
        self.nextQuote = nextQuote
        self.onDeepen = onDeepen
        self.shouldYield = shouldYield
    }

    /// Shows the pause until the person chooses, a signal arrives or the terminal goes.
    /// The terminal stays entered: the caller celebrates or leaves.
    public func run() -> PauseEnding {
        if holdsWhenUnfocused { terminal.reportsFocus = true }
        terminal.enter()
        draw()
        if exitAfterFirstFrame { return .firstFrameDrawn }
        while true {
            for event in terminal.nextEvents(timeout: nextFrameDelay()) {
                let now = time.monotonic()
                if event == .resumed {
                    // Back from a stop: the time away does not count, and the
                    // screen must be drawn whole again.
                    session.skip(to: now)
                    renderer.invalidate()
                    continue
                }
                session.advance(to: now)
                switch event {
                case .key(let key):
                    if let ending = respond(to: key, at: now) { return ending }
                case .resized:
                    renderer.invalidate()
                case .suspendRequested:
                    suspend()
                case .signal(let number):
                    return .signal(number)
                case .hangup:
                    return .hangup
                case .resumed:
                    break
                }
            }
            let now = time.monotonic()
            session.advance(to: now)
            if let shouldYield, now - lastYieldCheck >= Self.yieldCheckInterval {
                lastYieldCheck = now
                if shouldYield() { return .yielded }
            }
            draw()
        }
    }

    private func respond(to key: Key, at now: Double) -> PauseEnding? {
        switch key {
        case .focusOut where holdsWhenUnfocused:
            session.hold(at: now)
            return nil
        case .focusIn where holdsWhenUnfocused:
            session.release(at: now)
            return nil
        default:
            break
        }
        if session.isAskingIntention { return answer(key, at: now) }
        switch PauseAction(key: key) {
        case .exitToFocus:
            return .exitToFocus
        case .deepen:
            session.deepen(with: nextQuote(session), at: now)
            onDeepen(session)
        case .proceed:
            guard session.canProceed else {
                session.nudge(at: now)
                break
            }
            guard session.asksIntention else { return .proceed }
            session.beginIntention(at: now)
        case nil:
            if key == .control("z") { suspend() }
            if key == .control("l") { renderer.invalidate() }
        }
        return nil
    }

    /// Keys while the intention question is open: they type the answer, except
    /// Enter (proceed, once there are words), Esc (back) and Ctrl-C (exit).
    private func answer(_ key: Key, at now: Double) -> PauseEnding? {
        switch key {
        case .character(let character): session.typeIntention(character)
        case .space: session.typeIntention(" ")
        case .backspace: session.eraseIntention()
        case .control("w"): session.eraseIntention(word: true)
        case .control("u"): session.clearIntention()
        case .enter:
            if session.answeredIntention != nil { return .proceed }
            session.nudge(at: now)
        case .escape: session.cancelIntention(at: now)
        case .control("c"), .control("d"): return .exitToFocus
        case .control("z"): suspend()
        case .control("l"): renderer.invalidate()
        default: break
        }
        return nil
    }

    /// The short celebration after Exit to Focus. Keys are not needed here;
    /// a signal or a closed window cuts it short.
    public func celebrate(headline: String, detail: String) {
        let start = time.monotonic()
        let total = look.motion ? Celebration.duration + 0.1 : 0.6
        while true {
            let elapsed = time.monotonic() - start
            let progress = min(1, elapsed / Celebration.duration)
            let frame = Celebration.frame(progress: progress, size: terminal.size, headline: headline,
                                          detail: detail, motion: look.motion)
            terminal.write(renderer.render(frame))
            lastFrame = frame
            // A millisecond's tolerance: waiting for a sliver of a second less
            // than a clock can resolve would never end.
            if elapsed >= total - 0.001 { return }
            let wait = min(look.motion ? 0.05 : total, total - elapsed)
            for event in terminal.nextEvents(timeout: wait) {
                switch event {
                case .signal, .hangup: return
                case .resized, .resumed: renderer.invalidate()
                default: break
                }
            }
        }
    }

    private func suspend() {
        terminal.suspend()
        session.skip(to: time.monotonic())
        renderer.invalidate()
    }

    private func draw() {
        let frame = PauseScreen.frame(session, size: terminal.size, look: look)
        terminal.write(renderer.render(frame))
        lastFrame = frame
    }

    /// Motion wants about ten frames a second; a still screen changes only
    /// when the seconds do (or when a reminder fades).
    private func nextFrameDelay() -> Double {
        if look.motion { return 0.1 }
        if session.isNudging { return 0.25 }
        if session.canProceed { return 1 }
        let untilNextSecond = (Double(session.length) - session.countdownElapsed)
            .truncatingRemainder(dividingBy: 1)
        return max(0.02, untilNextSecond + 0.005)
    }
}
