import MIGACore
import MIGATerminal

/// How the pause ended.
public enum PauseEnding: Equatable, Sendable {
    case exitToFocus
    /// The alternative on offer was chosen: an exit to focus, with it.
    case alternative
    case proceed
    /// SIGINT, SIGTERM, SIGHUP or SIGQUIT arrived.
    case signal(Int32)
    /// The terminal went away.
    case hangup
    /// Another launch of the program proceeded meanwhile and began an
    /// allowance: this pause gives way to it instead of asking twice.
    case yielded
}

/// Runs a pause on a terminal: the pause's full-screen front end (`PauseModel`) in the one
/// screen loop, its work carried out by the pause's world (`PauseWorld`).
public final class PauseLoop {
    public private(set) var session: PauseSession
    /// The frame on screen now.
    public private(set) var lastFrame: Frame?
    private let terminal: TerminalDevice
    private let time: TimeSource
    private let look: PauseLook
    private var renderer: FrameRenderer
    private let world: PauseWorld

    /// - Parameter world: carries out the pause's work (Deepen's quote, giving way).
    public init(session: PauseSession, terminal: TerminalDevice, time: TimeSource, look: PauseLook,
                palette: Palette, world: PauseWorld) {
        self.session = session
        self.terminal = terminal
        self.time = time
        self.look = look
        self.renderer = FrameRenderer(palette: palette)
        self.world = world
    }

    /// Shows the pause until the person chooses, a signal arrives or the terminal goes.
    /// The terminal stays entered: the caller celebrates or leaves.
    public func run() -> PauseEnding {
        // A countdown held while the window is looked away from needs the terminal's focus reports.
        if session.holdsWhenUnfocused { terminal.reportsFocus = true }
        var model = PauseModel(session: session, look: look, checksYield: world.checksYield)
        defer { session = model.session }
        let world = self.world
        let ending = MIGATerminal.run(&model, on: terminal, time: time, renderer: &renderer,
                                      discardingTypeAhead: true, onFrame: { lastFrame = $0 }) { work, model in
            world.perform(work, on: &model.flow)
        }
        switch ending {
        case .finished(let ending): return ending
        case .signal(let number): return .signal(number)
        case .hangup: return .hangup
        }
    }

    /// The session as a pause outside this loop left it (the line pause of a dumb terminal).
    func replaceSession(_ session: PauseSession) { self.session = session }

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
}
