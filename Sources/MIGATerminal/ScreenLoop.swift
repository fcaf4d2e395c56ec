import MIGACore

/// What a screen hears from the terminal, besides the passing of time.
public enum ScreenInput: Equatable, Sendable {
    case key(Key)
    /// The window changed size.
    case resized
    /// Back from a stop (Ctrl-Z and `fg`, or a stop from outside): the time
    /// away does not count, and the screen must be drawn whole again.
    case resumed
}

/// What a screen asks of the loop that runs it.
public enum ScreenCommand<Result, Work> {
    /// End with this result. The terminal stays entered: the caller leaves.
    case finish(Result)
    /// Draw the whole screen again on the next frame.
    case redraw
    /// Stop as Ctrl-Z does in a shell; `fg` brings the screen back.
    case suspend
    /// Something only the world can do (draw a quote from the store, ask the
    /// store): the loop hands it to the runner's `perform`.
    case perform(Work)
}

/// A screen as a model, in the shape bubbletea and Elm use: an input (or
/// the passing of time) goes into `update`, which changes the model and
/// answers with commands; `frame` draws it. Models know no terminal, clock
/// or store, so every rule is tested with plain values. One loop, `run`,
/// drives the pause, setup and the hub.
public protocol ScreenModel {
    associatedtype Result
    associatedtype Work = Never
    /// What `input` does at `now` (seconds on the monotonic clock); a nil
    /// input means only that time has passed.
    mutating func update(_ input: ScreenInput?, at now: Double) -> [ScreenCommand<Result, Work>]
    func frame(size: TerminalSize) -> Frame
    /// How long the loop may wait for input before the screen changes by itself.
    func wait(at now: Double) -> Double
    /// Told the size before each drawing, for models whose keys depend on it.
    mutating func resize(_ size: TerminalSize)
}

extension ScreenModel {
    public mutating func resize(_ size: TerminalSize) {}
}

/// The longest the first frame waits for the terminal to say its background:
/// a terminal answers in well under a millisecond, and one far away over
/// ssh gets the light look rather than a late first frame.
package let backgroundWait = 0.1

/// How a run of a screen ended.
public enum ScreenEnding<Result> {
    case finished(Result)
    /// SIGINT, SIGTERM, SIGHUP or SIGQUIT arrived.
    case signal(Int32)
    /// The terminal went away.
    case hangup
}

/// Runs `model` on `terminal` until it finishes, a signal arrives or the
/// terminal goes: turns terminal events into inputs, carries out the
/// model's commands, and draws each new state (only what changed). The
/// terminal stays entered: the caller celebrates or leaves.
/// `discardingTypeAhead`: keys that came before the first frame are no
/// choices (see `TerminalDevice.discardKeysTypedAhead`).
// whole: the one loop of every screen; its nested steps share the model, the renderer and the terminal.
public func run<Model: ScreenModel>(_ model: inout Model, on terminal: TerminalDevice, time: TimeSource,
                                    renderer: inout FrameRenderer,
                                    discardingTypeAhead: Bool = false,
                                    onFrame: (Frame) -> Void = { _ in },
                                    perform: ((Model.Work, inout Model) -> Model.Result?)? = nil) -> ScreenEnding<Model.Result> {
    func draw() {
        model.resize(terminal.size)
        let frame = model.frame(size: terminal.size)
        terminal.write(renderer.render(frame))
        onFrame(frame)
    }
    /// Carries out `commands`; the result when one of them ends the run.
    func carry(_ commands: [ScreenCommand<Model.Result, Model.Work>]) -> Model.Result? {
        for command in commands {
            switch command {
            case .finish(let result):
                return result
            case .redraw:
                renderer.invalidate()
            case .suspend:
                terminal.suspend()
                if let result = carry(model.update(.resumed, at: time.monotonic())) { return result }
            case .perform(let work):
                if let result = perform?(work, &model) { return result }
            }
        }
        return nil
    }

    terminal.enter()
    // A look that depends on the background, when the environment did not
    // say it: the terminal is asked once, before the first frame.
    if renderer.palette.wantsBackground {
        renderer = FrameRenderer(palette: renderer.palette.with(background: terminal.background(within: backgroundWait)))
    }
    draw()
    if discardingTypeAhead { terminal.discardKeysTypedAhead() }
    while true {
        for event in terminal.nextEvents(timeout: model.wait(at: time.monotonic())) {
            let now = time.monotonic()
            let commands: [ScreenCommand<Model.Result, Model.Work>]
            switch event {
            case .key(let key): commands = model.update(.key(key), at: now)
            case .resized: commands = model.update(.resized, at: now)
            case .resumed: commands = model.update(.resumed, at: now)
            case .suspendRequested: commands = [.suspend]
            case .signal(let number): return .signal(number)
            case .hangup: return .hangup
            case .background(let background):
                // A late answer sets the look once, if it was still unknown; an
                // unknown background already has the light look.
                guard renderer.palette.wantsBackground, background == .dark else { continue }
                renderer = FrameRenderer(palette: renderer.palette.with(background: background))
                continue
            }
            if let result = carry(commands) { return .finished(result) }
        }
        // The rest of a burst or a paste, already there, is taken before the
        // next frame: each key at its own moment, as close together as they came.
        if terminal.hasPendingInput { continue }
        if let result = carry(model.update(nil, at: time.monotonic())) { return .finished(result) }
        draw()
    }
}

/// A screen driven by keys alone (setup, the hub): it answers each key and
/// draws itself for a size.
public protocol InteractiveScreen: ScreenModel where Work == Never {
    /// What a key does: nothing to end with yet, or the screen's result.
    mutating func handle(_ key: Key) -> Result?
}

extension InteractiveScreen {
    public mutating func update(_ input: ScreenInput?, at now: Double) -> [ScreenCommand<Result, Never>] {
        switch input {
        case .key(.control("z")): return [.suspend]
        case .key(.control("l")), .resized, .resumed: return [.redraw]
        case .key(let key): return handle(key).map { [.finish($0)] } ?? []
        case nil: return []
        }
    }

    /// Nothing changes by itself: the loop wakes for keys, and once a minute.
    public func wait(at now: Double) -> Double { 60 }
}

/// Shows `screen` on `terminal` until it has a result. Nil when a signal or
/// a closed window ends it first. The terminal stays entered: the caller leaves.
public func run<Screen: InteractiveScreen>(_ screen: inout Screen, on terminal: TerminalDevice,
                                           palette: Palette) -> Screen.Result? {
    var renderer = FrameRenderer(palette: palette)
    let ending = run(&screen, on: terminal, time: SystemTime(), renderer: &renderer)
    if case .finished(let result) = ending { return result }
    return nil
}

extension ScreenCommand: Equatable where Result: Equatable, Work: Equatable {}
