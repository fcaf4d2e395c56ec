import Foundation

/// What `miga gate` was asked to open.
public struct GateRequest: Equatable, Sendable {
    /// The command as typed: a name found on PATH, or a path.
    public var command: String
    /// Its arguments, byte for byte.
    public var arguments: [[UInt8]]
    /// `--pause SECONDS`, which wins over the config.
    public var pause: Int?
    /// `--detach`: on Proceed, start the program in a session of its own, so it
    /// outlives the terminal window the pause was shown in.
    public var detach: Bool
    /// `--as NAME`: the protected program this launch is, when the command
    /// says otherwise (a desktop entry that runs `flatpak run … spotify`).
    public var identity: String?

    public init(command: String, arguments: [[UInt8]] = [], pause: Int? = nil, detach: Bool = false, identity: String? = nil) {
        self.command = command
        self.arguments = arguments
        self.pause = pause
        self.detach = detach
        self.identity = identity
    }
}

/// What the executable does once the gateway has decided.
public enum GateDecision: Equatable, Sendable {
    /// Become the real program.
    case launch(Launch)
    /// End with this exit status.
    case finish(Int32)
}

/// Everything the gateway takes from the world, so tests can supply their own.
public struct GatewayContext {
    public var environment: [String: String]
    public var time: TimeSource
    /// The zone streak days are counted in; nil means the system's, looked up
    /// only when a streak is needed (the lookup loads ICU's zone data).
    public var timeZone: TimeZone?
    public var generator: SeededGenerator
    /// The terminal to pause in; nil when there is none (a script, a pipe).
    public var terminal: TerminalDevice?
    /// Overrides the notifier the config would choose (tests record instead).
    public var notifier: Notifier?
    /// Where messages for the person go (standard error).
    public var messages: (String) -> Void
    /// The running gateway binary, which the PATH search must never return.
    public var gatewayIdentity: FileIdentity?
    /// This process's id, which survives exec and so marks one launch.
    public var processID: Int32
    /// The path of the `miga` binary, for starting it again in a terminal window.
    public var gatewayPath: String?
    /// Keeps the reminder at the end of an allowance; nil starts `miga remind`
    /// (tests record instead).
    public var remind: ((AllowanceReminder) -> Void)?

    public init(environment: [String: String], time: TimeSource = SystemTime(), timeZone: TimeZone? = nil,
                generator: SeededGenerator = .fresh(), terminal: TerminalDevice?, notifier: Notifier? = nil,
                messages: @escaping (String) -> Void = printError,
                gatewayIdentity: FileIdentity? = FileIdentity.currentExecutable, processID: Int32 = getpid(),
                gatewayPath: String? = ShimDirectory.runningGateway, remind: ((AllowanceReminder) -> Void)? = nil) {
        self.environment = environment
        self.time = time
        self.timeZone = timeZone
        self.generator = generator
        self.terminal = terminal
        self.notifier = notifier
        self.messages = messages
        self.gatewayIdentity = gatewayIdentity
        self.processID = processID
        self.gatewayPath = gatewayPath
        self.remind = remind
    }

    /// The real world: this process's environment and terminal.
    public static func live() -> GatewayContext {
        GatewayContext(environment: processEnvironment(), terminal: TTY.open())
    }
}

/// `miga gate`: decides between the pause and a direct launch, runs the pause,
/// records the choice, and celebrates an exit to focus.
public final class Gateway {
    private var context: GatewayContext
    private let paths: XDGPaths
    private let loaded: LoadedConfig

    /// Set before exec to the gateway's pid, which exec keeps: a gateway that
    /// finds its own pid here was started straight from another gateway, in
    /// the same launch (a second gateway on PATH, or two pointing at each other).
    static let launchVariable = "MIGA_GATE_PID"
    /// How many gateways this launch has passed through.
    static let hopsVariable = "MIGA_GATE_HOPS"
    static let maximumHops = 4
    /// How long an exit waits for the notification server, at most.
    static let notificationDeadline = 0.4

    public init(context: GatewayContext) {
        self.context = context
        paths = XDGPaths(environment: context.environment)
        loaded = ConfigLoader.load(from: paths.configFile)
    }

    public func run(_ request: GateRequest) -> GateDecision {
        let settings = loaded.config.settings(for: request.identity ?? request.command)
        let hops = context.environment[Self.launchVariable] == String(context.processID)
            ? Int(context.environment[Self.hopsVariable] ?? "") ?? 1 : 0
        guard hops < Self.maximumHops else {
            context.messages("miga: \(request.command) keeps leading from one gateway to another (is a second miga shim folder on PATH?); stopping here. `miga doctor` shows what PATH reaches.")
            return .finish(ExitStatus.cannotExecute)
        }
        let resolver = ProgramResolver(searchPath: context.environment["PATH"],
                                       skippingFiles: [context.gatewayIdentity],
                                       skippingDirectories: [paths.shimDirectory])
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
                            environment: [Self.launchVariable: String(context.processID), Self.hopsVariable: String(hops + 1)],
                            detached: request.detach)

        // This launch has had its pause (or its pass-through) already: no second one.
        if hops > 0 { return .launch(launch) }
        if let hours = settings.hours, !hours.contains(context.time.now(), in: timeZone) {
            return passThrough(launch, settings: settings, reason: .outsideHours)
        }
        guard let terminal = context.terminal else {
            return passWithoutPause(launch, request: request, settings: settings)
        }
        return pause(before: launch, settings: settings, length: request.pause ?? settings.pause ?? loaded.config.pause,
                     on: terminal)
    }

    /// The zone of focus hours: the system's unless a test says otherwise.
    private var timeZone: TimeZone { context.timeZone ?? .current }

    // MARK: Without a terminal

    /// Never wait for keys that cannot come: follow the program's policy.
    private func passWithoutPause(_ launch: Launch, request: GateRequest, settings: ProgramSettings) -> GateDecision {
        // Inside an allowance the program opens as it would from a terminal:
        // no window for a pause, no refusal.
        if settings.nonInteractive != .pass, let minutes = settings.allowMinutes,
           let store = try? SessionStore(path: paths.storeFile),
           (try? store.openWithinAllowance(id: newUUID(), program: settings.command, at: context.time.now(),
                                           allowance: minutes * 60)) ?? nil != nil {
            return .launch(launch)
        }
        switch settings.nonInteractive {
        case .pass:
            return passThrough(launch, settings: settings)
        case .terminal:
            if let window = pauseInTerminalWindow(request) { return .launch(window) }
            let tried = TerminalEmulator.known.map(\.name).joined(separator: ", ")
            context.messages("miga: no terminal emulator was found for the pause (tried \(tried)); starting \(settings.displayName) directly. Install one, or set non_interactive = \"pass\".")
            _ = (context.notifier ?? LibnotifyNotifier())
                .post(DesktopNotification(summary: "No window for the pause",
                                          body: "MIGA found no terminal emulator, so \(settings.displayName) opened directly."))
                .wait(seconds: Self.notificationDeadline)
            return passThrough(launch, settings: settings)
        case .deny:
            context.messages("miga: \(settings.displayName) pauses first, and there is no terminal here to pause in; not starting it (non_interactive = \"deny\").")
            return .finish(ExitStatus.denied)
        }
    }

    private func passThrough(_ launch: Launch, settings: ProgramSettings, reason: PassReason? = nil) -> GateDecision {
        do {
            try Inbox(besideStoreAt: paths.storeFile)
                .dropPassThrough(id: newUUID(), program: settings.command, at: context.time.now(), reason: reason)
        } catch {
            context.messages("miga: this launch could not be recorded (\(error))")
        }
        return .launch(launch)
    }

    /// The gateway again, in a new terminal window, detaching the program on
    /// Proceed so it outlives the window. Nil when no emulator is installed.
    private func pauseInTerminalWindow(_ request: GateRequest) -> Launch? {
        guard let gateway = context.gatewayPath,
              let (path, emulator) = TerminalEmulator.find(searchPath: context.environment["PATH"],
                                                            preferred: context.environment["TERMINAL"]) else { return nil }
        let gate = [gateway, "gate", "--detach"] + (request.pause.map { ["--pause", String($0)] } ?? [])
            + (request.identity.map { ["--as", $0] } ?? []) + [request.command, "--"]
        let words = [emulator.name] + emulator.arguments(running: gate)
        return Launch(path: path, arguments: words.map { Array($0.utf8) } + request.arguments, detached: true)
    }

    // MARK: The pause

    private func pause(before launch: Launch, settings: ProgramSettings, length: Int,
                       on terminal: TerminalDevice) -> GateDecision {
        let quotes = QuoteDrawer(paths: paths, loaded: loaded, now: context.time.now())
        let pool = quotes.pool
        let sessionID = newUUID()
        let allowance = settings.allowMinutes.map { $0 * 60 }
        let startedAt = context.time.now()
        // Worked out here: the store call below holds `context` for its generator.
        let dayStart = context.timeZone.map { LocalDay(startedAt, in: $0).start(in: $0) }
            ?? LocalDay.systemMidnight(of: startedAt)
        // One transaction decides: open at once inside an allowance, or pause with this quote.
        let verdict = quotes.attempt({ store, generator in
            try store.beginLaunch(id: sessionID, program: settings.command, at: startedAt, owner: .current(),
                                  pool: pool, allowance: allowance, dayStart: dayStart, using: &generator)
        }, generator: &context.generator)
        var history: LaunchHistory?
        var firstID: String?
        switch verdict {
        case .allowed:
            for notice in quotes.notices { context.messages("miga: \(notice)") }
            return .launch(launch)
        case .pause(let quote, let found):
            (firstID, history) = (quote, found)
        case nil:
            break
        }
        let firstQuote = quotes.quote(id: firstID, generator: &context.generator)

        var length = length
        var facts: [String] = []
        var longerBecause: String?
        if let history {
            facts.append(ImpulseWords.attempts(history, now: startedAt))
            if let escalation = settings.escalation {
                let longer = escalation.pause(base: length, earlierAttempts: history.recentPauses)
                longerBecause = ImpulseWords.escalation(base: length, length: longer, earlierAttempts: history.recentPauses)
                length = longer
            }
        }
        var session = PauseSession(programName: settings.displayName, length: length, quote: firstQuote,
                                   at: context.time.monotonic())
        session.asksIntention = settings.askIntention
        let colors = ColorMode.detect(environment: context.environment)
        let look = PauseLook(motion: !loaded.config.reducedMotion, showTrack: colors != .none, notices: quotes.notices,
                             context: facts, longerBecause: longerBecause)
        let loop = PauseLoop(
            session: session, terminal: terminal, time: context.time, look: look, palette: Palette(mode: colors),
            exitAfterFirstFrame: context.environment["MIGA_EXIT_AFTER_FIRST_FRAME"] == "1",
            holdsWhenUnfocused: settings.holdWhenUnfocused,
            nextQuote: { _ in quotes.next(generator: &self.context.generator) },
            onDeepen: { session in try? quotes.store?.recordProgress(sessionID: sessionID, session.progress) },
            // Another launch of the program that proceeds meanwhile begins an
            // allowance; this pause then gives way instead of asking twice.
            shouldYield: allowance == nil ? nil : {
                (try? quotes.store?.allowanceBegan(for: settings.command, since: startedAt)) ?? nil != nil
            })

        let ending = loop.run()
        let outcome: SessionOutcome = switch ending {
        case .exitToFocus: .exit
        case .proceed: .proceed
        case .yielded: .passthrough
        case .signal, .hangup, .firstFrameDrawn: .abandoned
        }
        let endedAt = context.time.now()
        do {
            try quotes.store?.completeSession(sessionID: sessionID, outcome: outcome, endedAt: endedAt, loop.session.progress,
                                       intention: ending == .proceed ? loop.session.answeredIntention : nil,
                                       reason: ending == .yielded ? .allowed : nil)
        } catch {
            quotes.notices.append("this pause could not be recorded (\(error))")
        }

        switch ending {
        case .exitToFocus:
            let words = celebrate(settings: settings, store: quotes.store, loop: loop)
            terminal.leave()
            context.messages(words.farewell)
        default:
            terminal.leave()
        }
        for notice in quotes.notices { context.messages("miga: \(notice)") }

        switch ending {
        case .exitToFocus, .firstFrameDrawn: return .finish(ExitStatus.success)
        case .proceed:
            if let minutes = settings.allowMinutes, loaded.config.notifications {
                remindAtEnd(of: minutes, from: endedAt, settings: settings, launch: launch)
            }
            return .launch(launch)
        case .yielded: return .launch(launch)
        case .signal(let number): return .finish(ExitStatus.signal(number))
        case .hangup: return .finish(ExitStatus.signal(SIGHUP))
        }
    }

    // MARK: Before switching protection off

    /// The same pause before a change that lowers protection (`miga unprotect`,
    /// `miga uninstall`): a quote, the countdown, Proceed at zero. Nothing is
    /// recorded here; the caller records the change once it is made.
    public func pauseBeforeChange(header: String, proceedLabel: String, on terminal: TerminalDevice) -> PauseEnding {
        let quotes = QuoteDrawer(paths: paths, loaded: loaded, now: context.time.now())
        let first = quotes.next(generator: &context.generator)
        var session = PauseSession(programName: "MIGA", length: loaded.config.pause, quote: first,
                                   at: context.time.monotonic())
        session.header = header
        session.proceedLabel = proceedLabel
        let colors = ColorMode.detect(environment: context.environment)
        let loop = PauseLoop(
            session: session, terminal: terminal, time: context.time,
            look: PauseLook(motion: !loaded.config.reducedMotion, showTrack: colors != .none, notices: quotes.notices),
            palette: Palette(mode: colors),
            nextQuote: { _ in
                quotes.next(generator: &self.context.generator)
            })
        let ending = loop.run()
        terminal.leave()
        for notice in quotes.notices { context.messages("miga: \(notice)") }
        return ending
    }

    /// Leaves a reminder for the end of the allowance this Proceed began.
    private func remindAtEnd(of minutes: Double, from start: Date, settings: ProgramSettings, launch: Launch) {
        let reminder = AllowanceReminder(programName: settings.displayName, minutes: minutes,
                                         due: start.addingTimeInterval(minutes * 60),
                                         processID: launch.detached ? 0 : context.processID, executable: launch.path)
        if let remind = context.remind { return remind(reminder) }
        guard let gateway = context.gatewayPath, reminder.schedule(gateway: gateway) else {
            context.messages("miga: the reminder at the end of the \(AllowanceReminder.span(minutes)) could not be set")
            return
        }
    }

    /// The bloom on screen while the notification goes out; the terminal is
    /// left only after both, and the notification never holds it up for long.
    private func celebrate(settings: ProgramSettings, store: SessionStore?, loop: PauseLoop) -> CelebrationWords {
        let now = context.time.now()
        let streak = (try? store.map { try StatsReport.streak(from: $0, now: now, timeZone: context.timeZone ?? .current) })??.current ?? 0
        let milestone = (try? store.map { try Milestones.claim(streak, in: $0) }) ?? nil
        let words = CelebrationWords(program: settings.displayName, streak: streak, milestone: milestone)
        let started = context.time.monotonic()
        let pending = loaded.config.notifications
            ? (context.notifier ?? LibnotifyNotifier()).post(DesktopNotification(summary: words.summary, body: words.body))
            : nil
        loop.celebrate(headline: words.headline, detail: words.detail)
        let waited = context.time.monotonic() - started
        _ = pending?.wait(seconds: Self.notificationDeadline - waited)
        return words
    }
}

/// The store and the quotes a pause draws from: quotes come through the
/// store's shuffle bag, remembered across runs, or through a bag of this
/// run's own when the store fails. What went wrong is kept in `notices`.
private final class QuoteDrawer {
    private(set) var store: SessionStore?
    let quotes: PauseQuotes
    let pool: [String]
    var notices: [String]
    private var spareBag = ShuffleBag()
    private let path: String
    private let now: Date
    /// A damaged store is moved aside once; a second failure is only reported.
    private var rescued = false

    init(paths: XDGPaths, loaded: LoadedConfig, now: Date) {
        notices = loaded.problems.map(\.description)
        path = paths.storeFile
        self.now = now
        do {
            let (opened, rescue) = try SessionStore.openRescuing(path: path, now: now)
            store = opened
            rescued = rescue != nil
            if let rescue { notices.append(rescue) }
        } catch {
            store = nil
            notices.append("the history at \(path) cannot be opened (\(error)); this pause is not recorded")
        }
        quotes = PauseQuotes(folder: paths.userQuotesDirectory, interests: loaded.config.interests,
                             cache: paths.dataDirectory + "/quote-pool")
        pool = quotes.pool
        if let problem = quotes.problems.first {
            let more = quotes.problems.count > 1 ? " (and \(quotes.problems.count - 1) more)" : ""
            notices.append("\(problem.description)\(more); those lines are skipped")
        }
    }

    /// The next quote of the bag.
    func next(generator: inout SeededGenerator) -> Quote {
        let id = attempt({ [pool] store, generator in try store.drawQuote(from: pool, using: &generator) },
                         generator: &generator)
        return quote(id: id ?? nil, generator: &generator)
    }

    /// The quote `id` names, or one from the spare bag when the store gave none.
    func quote(id: String?, generator: inout SeededGenerator) -> Quote {
        (id ?? spareBag.draw(from: pool, using: &generator)).flatMap { quotes[$0] } ?? PauseQuotes.fallback
    }

    /// `body` with the store; nil when there is none or it failed (said in
    /// `notices`). Damage found past the first page (a file cut short) is
    /// moved aside like damage found on opening, and `body` runs on the new store.
    func attempt<T>(_ body: (SessionStore, inout SeededGenerator) throws -> T, generator: inout SeededGenerator) -> T? {
        guard let current = store else { return nil }
        do {
            return try body(current, &generator)
        } catch where SessionStore.isDamage(error) && !rescued {
            rescued = true
            do {
                let (fresh, words) = try SessionStore.rescue(path: path, damage: error, now: now)
                store = fresh
                notices.append(words)
                return try body(fresh, &generator)
            } catch {
                store = nil
                notices.append("the history at \(path) is damaged and could not be set aside (\(error)); this pause is not recorded")
            }
        } catch {
            notices.append("the history could not be written (\(error))")
        }
        return nil
    }
}

/// The words of the celebration, on screen and in the notification.
public struct CelebrationWords: Equatable, Sendable {
    public let program: String
    public let streak: Int
    /// A streak length reached for the first time ever (see `Milestones`).
    public let milestone: Int?

    public init(program: String, streak: Int, milestone: Int? = nil) {
        self.program = program
        self.streak = streak
        self.milestone = milestone
    }

    var streakText: String {
        streak <= 1 ? "day 1 of a new streak" : "\(streak)-day streak"
    }

    public var headline: String { "You chose yourself." }
    public var detail: String { "\(program) can wait · \(streakText)" }
    public var summary: String {
        switch milestone {
        case 1: "Your first conscious exit — the start of a streak"
        case 7: "7 days in a row — a week of choosing yourself"
        case 21: "21 days in a row — a habit taking root"
        case 30: "30 days in a row — a month of choosing yourself"
        case .some(let days): "\(days) days in a row — remarkable"
        case nil: "You chose yourself — \(streakText)"
        }
    }
    public var body: String { "You stepped away from \(program). This moment is yours." }
    /// The line left in the terminal once the pause is gone.
    public var farewell: String { "✓ \(headline) \(detail)." }
}

extension GateRequest {
    /// The request when the command line is exactly `gate PROGRAM` or
    /// `gate PROGRAM -- ARGS…`, the form shims and desktop entries use; nil for
    /// anything else (options, help, mistakes), which the full parser handles.
    /// `arguments` are the words after the executable's name, `raw` the same as bytes.
    public init?(launchCommandLine arguments: [String], raw: [[UInt8]]) {
        guard arguments.count >= 2, arguments.count == raw.count, arguments[0] == "gate",
              !arguments[1].isEmpty, !arguments[1].hasPrefix("-") else { return nil }
        guard arguments.count == 2 || arguments[2] == "--" else { return nil }
        self.init(command: arguments[1], arguments: Array(raw.dropFirst(3)))
    }
}
