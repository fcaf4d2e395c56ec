import FoundationEssentials
import MIGACore
import MIGATerminal
import MIGAStore
import MIGAConfig
import MIGADesktop

/// `miga gate`: decides between the pause and a direct launch, runs the pause,
/// records the choice, and celebrates an exit to focus.
public final class Gateway {
    var context: GatewayContext
    let paths: XDGPaths
    let loaded: LoadedConfig

    static let maximumHops = 4
    /// How long an exit waits for the notification server, at most.
    static let notificationDeadline = 0.4

    public init(context: GatewayContext) {
        self.context = context
        paths = XDGPaths(environment: context.environment)
        loaded = ConfigLoader.load(from: paths.configFile)
    }

    public func run(_ request: GateRequest) -> GateDecision {
        var request = request
        if let late = checkIn(request) { return late }
        // The `flatpak` shim: only `flatpak run` of a protected app is a launch
        // to pause; anything else (`flatpak update`) is flatpak's own business,
        // started at once and recorded nowhere.
        if request.identity == nil && baseName(of: request.command) == "flatpak" {
            guard let program = flatpakProgram(request.arguments) else { return directLaunch(request) }
            request.identity = program.command
        }
        let settings = loaded.config.settings(for: request.identity ?? request.command)
        let hops = context.environment[GateMarks.launch] == String(context.processID)
            ? Int(context.environment[GateMarks.hops] ?? "") ?? 1 : 0
        guard hops < Self.maximumHops else {
            context.messages("miga: \(request.command) keeps leading from one gateway to another (is a second miga shim folder on PATH?); stopping here. `miga doctor` shows what PATH reaches.")
            return .finish(ExitStatus.cannotExecute)
        }
        guard let path = resolver.resolve(request.command) else {
            if let (path, reason) = resolver.unrunnable(request.command) {
                context.messages("miga: \(printable(path)) cannot be executed: \(reason).")
                return .finish(ExitStatus.cannotExecute)
            }
            let name = loaded.config.programs[settings.command] != nil ? settings.displayName : request.command
            context.messages("Please install \(printable(name)) first.")
            return .finish(ExitStatus.notInstalled)
        }
        let launch = Launch(path: path, arguments: [Array(request.command.utf8)] + request.arguments,
                            environment: [GateMarks.launch: String(context.processID), GateMarks.hops: String(hops + 1),
                                          GateMarks.program: settings.command],
                            detached: request.detach)

        var facts = facts(settings, front: context.terminal == nil ? .elsewhere(window: .untried) : .here, hops: hops,
                          wantsWindow: request.window, loginStart: request.loginStart)
        var verdict = GateVerdict(facts)
        // Without a terminal the store is asked here; with one, as the pause begins (`start`).
        if verdict == .askStore && context.terminal == nil { verdict = askStore(&facts, program: settings.command) }
        return carryOut(verdict, launch: launch, request: request, settings: settings, facts: facts)
    }

    /// Does what `verdict` says.
    private func carryOut(_ verdict: GateVerdict, launch: Launch, request: GateRequest, settings: ProgramSettings,
                  facts: GateFacts) -> GateDecision {
        switch verdict {
        case .launch, .allowed:
            return .launch(launch)
        case .passThrough(let reason):
            return passThrough(launch, settings: settings, reason: reason)
        case .skipAtLogin:
            context.messages("miga: \(settings.displayName) starts itself at login; not started (at_login = \"skip\").")
            notify(DesktopNotification(summary: "\(settings.displayName) did not start at login",
                                       body: "Open it from the menu when you mean to."))
            return .finish(ExitStatus.success)
        case .pauseInWindow:
            return pauseInWindow(launch, request: request, settings: settings, facts: facts)
        case .deny:
            context.messages("miga: \(settings.displayName) pauses first, and there is no terminal here to pause in; not starting it (non_interactive = \"deny\").")
            return .finish(ExitStatus.denied)
        case .pause, .askStore:
            // With an allowance, the store decides between it and the pause as the pause begins.
            guard let terminal = context.terminal else { return .finish(ExitStatus.failure) }
            return pause(before: launch, request: request, facts: facts, settings: settings,
                         length: request.pause ?? loaded.config.pause(for: settings), on: terminal)
        }
    }

    /// The protected program a `flatpak run` starts, if any.
    private func flatpakProgram(_ arguments: [[UInt8]]) -> ProgramSettings? {
        FlatpakRun.appID(in: arguments.map { String(decoding: $0, as: UTF8.self) }).flatMap(loaded.config.program(flatpak:))
    }

    /// The real programs on PATH, past the shims and this gateway itself.
    private var resolver: ProgramResolver {
        ProgramResolver(searchPath: context.environment["PATH"], skippingFiles: [context.gatewayIdentity],
                        skippingDirectories: [paths.shimDirectory])
    }

    /// The facts of a launch (or a visit) of `settings`' program (or site)
    /// now, all but the store's answer.
    func facts(_ settings: ProgramSettings, front: GateFacts.Front, hops: Int = 0, wantsWindow: Bool = false,
               loginStart: Bool = false) -> GateFacts {
        GateFacts(settings, now: context.time.now(), zone: timeZone, front: front, hops: hops, wantsWindow: wantsWindow,
                  loginStart: loginStart)
    }

    /// The zone of focus hours: the system's unless a test says otherwise.
    private var timeZone: LocalZone { context.timeZone ?? .system }

    // MARK: Without a pause

    /// The verdict once the store has answered, for a launch without a
    /// terminal: the store reads its answer into `facts`, decides and
    /// records an allowed opening in one transaction. Without a store, no
    /// Proceed is known.
    private func askStore(_ facts: inout GateFacts, program: String) -> GateVerdict {
        if let store = try? SessionStore(path: paths.storeFile, role: .gateway),
           let verdict = try? store.decide(&facts, id: newUUID(), program: program) {
            return verdict
        }
        facts = facts.answered(lastProceedEndedAt: nil)
        return GateVerdict(facts)
    }

    func passThrough(_ launch: Launch, settings: ProgramSettings, reason: PassReason? = nil) -> GateDecision {
        recordPassThrough(settings, reason: reason)
        return .launch(launch)
    }

    /// A program (or a site) opened without a pause, kept in the inbox: no
    /// wait for the store on the way to opening it.
    func recordPassThrough(_ settings: ProgramSettings, reason: PassReason?) {
        do {
            try Inbox(besideStoreAt: paths.storeFile)
                .dropPassThrough(id: newUUID(), program: settings.command, at: context.time.now(), reason: reason)
        } catch {
            context.messages("miga: this launch could not be recorded (\(error))")
        }
    }

    /// A notification, waited for a moment at most (a server can hang).
    func notify(_ notification: DesktopNotification) {
        _ = (context.notifier ?? LibnotifyNotifier()).post(notification).wait(seconds: Self.notificationDeadline)
    }

    /// The program at once, without a pause or a record: a launch that is no
    /// protected program's (`flatpak update` through the `flatpak` shim).
    private func directLaunch(_ request: GateRequest) -> GateDecision {
        guard let path = resolver.resolve(request.command) else {
            context.messages("Please install \(printable(request.command)) first.")
            return .finish(ExitStatus.notInstalled)
        }
        return .launch(Launch(path: path, arguments: [Array(request.command.utf8)] + request.arguments, detached: request.detach))
    }

    /// The gateway again, in a new terminal window of `choice`, titled for
    /// the program, with room for the pause. The program is detached on
    /// Proceed, to outlive the window, unless it runs in a terminal itself
    /// (a menu entry with Terminal=true): then the window becomes its own.
    /// Where the window's font may lack the ring's dots, the pause there is
    /// drawn in ASCII. The gateway in the window checks in at `readyFile`.
    /// Nil when the gateway cannot say where it is.
    func pauseInTerminalWindow(_ request: GateRequest, in choice: TerminalChoice, gateway: String, programName: String,
                               readyFile: String) -> Launch {
        let emulator = choice.emulator
        let gate = [gateway] + GateInvocation(command: request.command, pause: request.pause,
                                              detach: request.window ? request.detach : true,
                                              identity: request.identity, readyFile: readyFile).words
        let words = [emulator.name] + emulator.arguments(running: gate, in: PauseWindow(programName: programName))
        return Launch(path: choice.path, arguments: words.map { Array($0.utf8) } + request.arguments,
                      environment: emulator.showsBraille ? [:] : [TerminalCapabilities.glyphsVariable: "ascii"], detached: true)
    }

    // MARK: The pause

    /// What one pause reads and writes: the store, opened as a pause opens
    /// it, and the quotes it draws through that store.
    func pauseSources() -> (StoreSession, QuoteSource) {
        let storeSession = StoreSession(paths: paths, loaded: loaded, now: context.time.now())
        return (storeSession, QuoteSource(paths: paths, loaded: loaded, session: storeSession))
    }

    /// The pipeline of a pause: the plan, the pause on screen until the
    /// person chooses, the outcome, and everything after it.
    private func pause(before launch: Launch, request: GateRequest, facts: GateFacts, settings: ProgramSettings,
                       length: Int, on terminal: TerminalDevice) -> GateDecision {
        let (storeSession, quotes) = pauseSources()
        let plan: PausePlan
        switch self.plan(launch, facts: facts, settings: settings, length: length, storeSession: storeSession, quotes: quotes) {
        case .pause(let planned): plan = planned
        case .decided(let verdict):
            // An allowance runs (the store has recorded the opening).
            context.say(storeSession.messages, palette: nil)
            return carryOut(verdict, launch: launch, request: request, settings: settings, facts: facts)
        }
        let (ending, session, loop) = show(plan, decidedOn: facts, storeSession: storeSession, quotes: quotes, on: terminal)
        let outcome = PauseOutcome(ending, session: session, startedAt: plan.startedAt,
                                   elapsed: context.time.monotonic() - plan.startedOnClock, wallEnd: context.time.now())
        return Aftercare(context: context, paths: paths, config: loaded.config)
            .settle(outcome, of: plan, storeSession: storeSession, loop: plan.capabilities.dumb ? nil : loop, on: terminal)
    }

    /// The planned pause on screen until it ends, its work carried out by
    /// its world: Deepen's quote from the shuffle bag, the store's row kept
    /// current, and the question of giving way.
    private func show(_ plan: PausePlan, decidedOn facts: GateFacts, storeSession: StoreSession, quotes: QuoteSource,
                      on terminal: TerminalDevice)
        -> (PauseEnding, PauseSession, PauseLoop) {
        var session = plan.session
        // Another launch of the program that proceeds meanwhile begins an
        // allowance; this pause then gives way instead of asking twice.
        let world = StorePauseWorld(gateway: self, storeSession: storeSession, quotes: quotes, sessionID: plan.sessionID,
                                    yieldsTo: (plan.settings.command, facts))
        let loop = PauseLoop(
            session: session, terminal: terminal, time: context.time, look: plan.look, palette: plan.palette,
            world: world)
        let ending = show(loop, &session, dumb: plan.capabilities.dumb, palette: plan.palette, storeSession: storeSession, on: terminal,
                          world: world)
        return (ending, session, loop)
    }

    // MARK: Before switching protection off

    /// The same pause before a change that lowers protection (`miga unprotect`,
    /// `miga uninstall`): a quote, the countdown, Proceed at zero. Nothing is
    /// recorded here; the caller records the change once it is made.
    public func pauseBeforeChange(header: String, proceedLabel: String, on terminal: TerminalDevice) -> PauseEnding {
        let (storeSession, quotes) = pauseSources()
        let first = quotes.next(generator: &context.generator)
        var session = PauseSession(programName: "MIGA", length: loaded.config.pause, quote: first,
                                   at: context.time.monotonic())
        session.header = header
        session.proceedLabel = proceedLabel
        let capabilities = TerminalCapabilities.detect(environment: context.environment)
        let palette = Palette(capabilities)
        let world = StorePauseWorld(gateway: self, storeSession: storeSession, quotes: quotes)
        let loop = PauseLoop(
            session: session, terminal: terminal, time: context.time,
            look: PauseLook(motion: !loaded.config.reducedMotion, colors: capabilities.colors, notices: storeSession.screenNotices),
            palette: palette, world: world)
        let ending = show(loop, &session, dumb: capabilities.dumb, palette: palette, storeSession: storeSession, on: terminal, world: world)
        terminal.leave()
        context.say(storeSession.messages, palette: palette)
        return ending
    }

    /// The pause on screen until it ends: the full screen, or for a terminal
    /// that takes no control sequence (TERM=dumb) the same pause as lines of
    /// text and a prompt, in the locale's character set, with the same
    /// endings. `session` and the loop's session end up the same.
    private func show(_ loop: PauseLoop, _ session: inout PauseSession, dumb: Bool, palette: Palette,
                      storeSession: StoreSession, on terminal: TerminalDevice, world: PauseWorld) -> PauseEnding {
        guard dumb else {
            defer { session = loop.session }
            return loop.run()
        }
        let write: (String) -> Void = { terminal.write(palette.glyphs($0)) }
        let width = terminal.size.columns
        for notice in storeSession.screenNotices { write(LinePause.wrapped("⚠ \(printable(notice))", width: width) + "\n") }
        storeSession.clearNotices()
        let ending = LinePause.run(&session, input: 0, signals: terminal.signalDescriptor, output: write, time: context.time,
                                   width: width, world: world)
        loop.replaceSession(session)
        return ending
    }
}
