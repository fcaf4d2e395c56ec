import Foundation

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
    /// Set with it: the protected program the gateway opened, so that the
    /// leak watch tells that program's processes from another protected
    /// program started from inside it.
    static let programVariable = "MIGA_GATE_PROGRAM"
    /// How many gateways this launch has passed through.
    static let hopsVariable = "MIGA_GATE_HOPS"
    static let maximumHops = 4
    /// How many quotes Deepen draws, at most, for one a typed pause's line can come from.
    static let drawsForALine = 8
    /// How long an exit waits for the notification server, at most.
    static let notificationDeadline = 0.4

    public init(context: GatewayContext) {
        self.context = context
        paths = XDGPaths(environment: context.environment)
        loaded = ConfigLoader.load(from: paths.configFile)
    }

    public func run(_ request: GateRequest) -> GateDecision {
        var request = request
        // The `flatpak` shim: only `flatpak run` of a protected app is a launch
        // to pause; anything else (`flatpak update`) is flatpak's own business,
        // started at once and recorded nowhere.
        let flatpakShim = request.identity == nil && baseName(of: request.command) == "flatpak"
        if flatpakShim {
            let words = request.arguments.map { String(decoding: $0, as: UTF8.self) }
            guard let id = FlatpakRun.appID(in: words), let program = loaded.config.program(flatpak: id) else {
                return directLaunch(request)
            }
            request.identity = program.command
        }
        let settings = loaded.config.settings(for: request.identity ?? request.command)
        let hops = context.environment[Self.launchVariable] == String(context.processID)
            ? Int(context.environment[Self.hopsVariable] ?? "") ?? 1 : 0
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
                            environment: [Self.launchVariable: String(context.processID), Self.hopsVariable: String(hops + 1),
                                          Self.programVariable: settings.command],
                            detached: request.detach)

        let verdict = GateVerdict.decide(
            hops: hops, settings: settings,
            insideFocusHours: settings.hours.map { $0.contains(context.time.now(), in: timeZone) } ?? true,
            hasTerminal: context.terminal != nil, wantsWindow: request.window, atLogin: request.atLogin,
            insideAllowance: { insideAllowance(settings) })
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
            if let window = pauseInTerminalWindow(request, programName: settings.displayName) { return .launch(window) }
            // No window can be opened: the program's own policy for a launch without a terminal decides.
            let tried = TerminalEmulator.known.map(\.name).joined(separator: ", ")
            if request.window || request.atLogin, settings.nonInteractive == .deny {
                context.messages("miga: no terminal emulator was found for the pause (tried \(tried)); not starting \(settings.displayName) (non_interactive = \"deny\").")
                notify(DesktopNotification(summary: "No window for the pause",
                                           body: "MIGA found no terminal emulator, so \(settings.displayName) did not open. Install one to pause in."))
                return .finish(ExitStatus.denied)
            }
            context.messages("miga: no terminal emulator was found for the pause (tried \(tried)); starting \(settings.displayName) directly. Install one, or set non_interactive = \"pass\".")
            notify(DesktopNotification(summary: "No window for the pause",
                                       body: "MIGA found no terminal emulator, so \(settings.displayName) opened directly."))
            return passThrough(launch, settings: settings)
        case .deny:
            context.messages("miga: \(settings.displayName) pauses first, and there is no terminal here to pause in; not starting it (non_interactive = \"deny\").")
            return .finish(ExitStatus.denied)
        case .pause:
            guard let terminal = context.terminal else { return .finish(ExitStatus.failure) }
            return pause(before: launch, settings: settings, length: request.pause ?? settings.pause ?? loaded.config.pause,
                         on: terminal)
        }
    }

    /// The real programs on PATH, past the shims and this gateway itself.
    private var resolver: ProgramResolver {
        ProgramResolver(searchPath: context.environment["PATH"], skippingFiles: [context.gatewayIdentity],
                        skippingDirectories: [paths.shimDirectory])
    }

    /// The zone of focus hours: the system's unless a test says otherwise.
    private var timeZone: TimeZone { context.timeZone ?? .current }

    /// Local midnight before `instant` (through the C library when no zone is
    /// given, so that no ICU data is loaded on the gateway's path).
    private func startOfDay(_ instant: Date) -> Date {
        context.timeZone.map { LocalDay(instant, in: $0).start(in: $0) } ?? LocalDay.systemMidnight(of: instant)
    }

    // MARK: Without a pause

    /// Whether an allowance of the program is running now (it begins one if so, as a Proceed would).
    private func insideAllowance(_ settings: ProgramSettings) -> Bool {
        guard let minutes = settings.allowMinutes, let store = try? SessionStore(path: paths.storeFile) else { return false }
        return (try? store.openWithinAllowance(id: newUUID(), program: settings.command, at: context.time.now(),
                                                allowance: minutes * 60)) ?? nil != nil
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

    /// A notification, waited for a moment at most (a server can hang).
    private func notify(_ notification: DesktopNotification) {
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

    /// The gateway again, in a new terminal window titled for the program,
    /// with room for the pause. The program is detached on Proceed, to
    /// outlive the window, unless it runs in a terminal itself (a menu entry
    /// with Terminal=true): then the window becomes its own. Where the
    /// window's font may lack the ring's dots, the pause there is drawn in
    /// ASCII. Nil when no emulator is installed.
    private func pauseInTerminalWindow(_ request: GateRequest, programName: String) -> Launch? {
        guard let gateway = context.gatewayPath,
              let (path, emulator) = TerminalEmulator.find(searchPath: context.environment["PATH"],
                                                            preferred: context.environment["TERMINAL"]) else { return nil }
        let detach = request.window ? request.detach : true
        let gate = [gateway, "gate"] + (detach ? ["--detach"] : []) + (request.pause.map { ["--pause", String($0)] } ?? [])
            + (request.identity.map { ["--as", $0] } ?? []) + [request.command, "--"]
        let words = [emulator.name] + emulator.arguments(running: gate, in: PauseWindow(programName: programName))
        return Launch(path: path, arguments: words.map { Array($0.utf8) } + request.arguments,
                      environment: emulator.showsBraille ? [:] : [TerminalCapabilities.glyphsVariable: "ascii"], detached: true)
    }

    // MARK: The pause

    private func pause(before launch: Launch, settings: ProgramSettings, length: Int,
                       on terminal: TerminalDevice) -> GateDecision {
        let quotes = QuoteDrawer(paths: paths, loaded: loaded, now: context.time.now())
        let pool = quotes.pool
        let sessionID = newUUID()
        let allowance = settings.allowMinutes.map { $0 * 60 }
        let startedAt = context.time.now()
        let startedOnClock = context.time.monotonic()
        // Worked out here: the store call below holds `context` for its generator.
        let dayStart = startOfDay(startedAt)
        let inUse = loaded.config.kindsInUse(for: settings) { Instead.anyAlternative(in: paths) }
        let (kinds, rotation) = (inUse.kinds, inUse.rotation)
        // One transaction decides: open at once inside an allowance, or pause with this quote, of this kind.
        let verdict = quotes.attempt({ store, generator in
            try store.beginLaunch(id: sessionID, program: settings.command, at: startedAt, owner: .current(),
                                  pool: pool, allowance: allowance, dayStart: dayStart, kinds: kinds, rotation: rotation,
                                  using: &generator)
        }, generator: &context.generator)
        var history: LaunchHistory?
        var firstID: String?
        // Without the store, the first kind chosen.
        var choice = KindChoice(kind: kinds.first ?? .breathe, why: nil)
        switch verdict {
        case .allowed:
            for notice in quotes.messages { context.messages("miga: \(notice)") }
            return .launch(launch)
        case .pause(let quote, let found, let chosen):
            (firstID, history, choice) = (quote, found, chosen)
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
        let capabilities = TerminalCapabilities.detect(environment: context.environment)
        let palette = Palette(capabilities)
        if let why = prepare(&session, as: choice, unicode: capabilities.unicode) { facts.append(why) }
        let look = PauseLook(motion: !loaded.config.reducedMotion, colors: capabilities.colors, notices: quotes.screenNotices,
                             context: facts, longerBecause: longerBecause)
        let nextQuote: (PauseSession) -> Quote = { session in
            var quote = quotes.next(generator: &self.context.generator)
            // A typed pause's line comes from its quote: a few more draws find one that gives a line.
            var draws = 1
            while draws < Self.drawsForALine, session.typedLines?.offersLine(for: quote) == false {
                quote = quotes.next(generator: &self.context.generator)
                draws += 1
            }
            return quote
        }
        let onDeepen: (PauseSession) -> Void = { session in try? quotes.store?.recordProgress(sessionID: sessionID, session.progress) }
        // Another launch of the program that proceeds meanwhile begins an
        // allowance; this pause then gives way instead of asking twice.
        let clock = context.time
        let shouldYield: (() -> Bool)? = allowance == nil ? nil : {
            (try? quotes.store?.allowanceBegan(for: settings.command, since: startedAt, now: clock.now())) ?? nil != nil
        }
        let loop = PauseLoop(
            session: session, terminal: terminal, time: context.time, look: look, palette: palette,
            exitAfterFirstFrame: context.environment["MIGA_EXIT_AFTER_FIRST_FRAME"] == "1",
            holdsWhenUnfocused: settings.holdWhenUnfocused, nextQuote: nextQuote, onDeepen: onDeepen, shouldYield: shouldYield)

        let ending = show(loop, &session, dumb: capabilities.dumb, palette: palette, quotes: quotes, on: terminal,
                          nextQuote: nextQuote, onDeepen: onDeepen, shouldYield: shouldYield)
        // While the person was here anyway: launches that went around the
        // pause (one pass over /proc, after the frame, never on a pass-through).
        if ending != .firstFrameDrawn, let store = quotes.store {
            Upkeep(store: store, config: loaded.config).recordLeaks(
                context.gatewayPath.map { Protection(paths: paths, environment: context.environment, gateway: $0) }, now: context.time.now())
        }
        let outcome: SessionOutcome = switch ending {
        case .exitToFocus, .alternative: .exit
        case .proceed: .proceed
        case .yielded: .passthrough
        case .signal, .hangup, .firstFrameDrawn: .abandoned
        }
        // The wall clock, unless it was stepped mid-pause (by hand, or NTP):
        // then the start plus the time that passed on the clock no one sets,
        // so a pause never ends before it began.
        let elapsed = max(0, context.time.monotonic() - startedOnClock)
        let wallEnd = context.time.now()
        let endedAt = abs(wallEnd.timeIntervalSince(startedAt) - elapsed) < 1 ? wallEnd : startedAt.addingTimeInterval(elapsed)
        let intention = ending == .proceed ? loop.session.answeredIntention : nil
        let reason: PassReason? = ending == .yielded ? .allowed : nil
        var progress = loop.session.progress
        if ending == .alternative { progress.alternative = loop.session.alternative }
        // A pause that gave way to an allowance is recorded as a pass-through: no pause, no kind.
        if ending == .yielded { (progress.kind, progress.typed) = (nil, nil) }
        // A finished pause is never lost: when the store is busy past its wait
        // (hundreds of pauses at once), or its row never began, the ending
        // waits in the inbox, and the next process that opens the store writes it.
        var failure = "the history could not be opened"
        do {
            if try quotes.store?.completeSession(sessionID: sessionID, outcome: outcome, endedAt: endedAt, progress,
                                                 intention: intention, reason: reason) == true { failure = "" }
        } catch {
            failure = "\(error)"
        }
        if !failure.isEmpty {
            do {
                try Inbox(besideStoreAt: paths.storeFile).dropEnding(
                    InboxEnding(id: sessionID, program: settings.command, startedAt: startedAt, outcome: outcome, endedAt: endedAt,
                                progress, intention: intention, reason: reason))
            } catch {
                quotes.notices.append("this pause could not be recorded (\(failure); \(error))")
            }
        }

        switch ending {
        case .exitToFocus, .alternative:
            let words = celebrate(settings: settings, store: quotes.store, loop: capabilities.dumb ? nil : loop,
                                  alternative: progress.alternative)
            terminal.leave()
            context.messages(palette.glyphs(words.farewell))
        default:
            terminal.leave()
        }
        for notice in quotes.messages { context.messages(palette.glyphs("miga: \(notice)")) }
        if ending != .firstFrameDrawn, let store = quotes.store { lookBackIfDue(store) }

        switch ending {
        case .exitToFocus, .alternative, .firstFrameDrawn: return .finish(ExitStatus.success)
        case .proceed:
            if let minutes = settings.allowMinutes, loaded.config.notifications {
                remindAtEnd(of: minutes, from: endedAt, settings: settings, launch: launch)
            }
            return .launch(watched(launch, sessionID: sessionID, settings: settings))
        case .yielded: return .launch(launch)
        case .signal(let number): return .finish(ExitStatus.signal(number))
        case .hangup: return .finish(ExitStatus.signal(SIGHUP))
        }
    }

    /// Makes `session` the kind chosen: the line to type, the question, the
    /// alternative. A kind with nothing to offer (no line to type, no
    /// alternatives yet) becomes a breathing pause, and the line returned says
    /// so; otherwise it is the chooser's why, when the kind changed.
    /// `unicode`: whether the terminal shows (and its keyboard types) more than ASCII.
    private func prepare(_ session: inout PauseSession, as choice: KindChoice, unicode: Bool) -> String? {
        session.kind = choice.kind
        switch choice.kind {
        case .breathe:
            return choice.why
        case .intention:
            // Asked from the first frame, so the answer forms while the ring empties.
            session.asksIntention = true
            session.beginIntention(at: session.now)
            return choice.why
        case .type:
            let own = QuoteLibrary.ownTexts(in: paths.userQuotesDirectory, tagged: TypedLine.ownTag)
            session.typedLines = TypedLineSource(own: own, asciiOnly: !unicode, seed: context.generator.next())
            if session.chooseTypingLine() { return choice.why }
            session.typedLines = nil
            session.kind = .breathe
            return "A breathing pause: no line to type this time (miga quotes add \"…\" --tag mine)"
        case .instead:
            if let alternative = Instead(paths: paths).offer(using: &context.generator) {
                session.alternative = alternative
                return choice.why
            }
            session.kind = .breathe
            return "A breathing pause: no alternatives yet (miga instead add \"read ten pages\")"
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
        let capabilities = TerminalCapabilities.detect(environment: context.environment)
        let palette = Palette(capabilities)
        let nextQuote: (PauseSession) -> Quote = { _ in quotes.next(generator: &self.context.generator) }
        let loop = PauseLoop(
            session: session, terminal: terminal, time: context.time,
            look: PauseLook(motion: !loaded.config.reducedMotion, colors: capabilities.colors, notices: quotes.screenNotices),
            palette: palette, nextQuote: nextQuote)
        let ending = show(loop, &session, dumb: capabilities.dumb, palette: palette, quotes: quotes, on: terminal, nextQuote: nextQuote)
        terminal.leave()
        for notice in quotes.messages { context.messages("miga: \(notice)") }
        return ending
    }

    /// The pause on screen until it ends: the full screen, or for a terminal
    /// that takes no control sequence (TERM=dumb) the same pause as lines of
    /// text and a prompt, in the locale's character set, with the same
    /// endings. `session` and the loop's session end up the same.
    private func show(_ loop: PauseLoop, _ session: inout PauseSession, dumb: Bool, palette: Palette,
                      quotes: QuoteDrawer, on terminal: TerminalDevice, nextQuote: @escaping (PauseSession) -> Quote,
                      onDeepen: @escaping (PauseSession) -> Void = { _ in },
                      shouldYield: (() -> Bool)? = nil) -> PauseEnding {
        guard dumb else {
            defer { session = loop.session }
            return loop.run()
        }
        let write: (String) -> Void = { terminal.write(palette.glyphs($0)) }
        let width = terminal.size.columns
        for notice in quotes.screenNotices { write(LinePause.wrapped("⚠ \(printable(notice))", width: width) + "\n") }
        quotes.clearNotices()
        let ending = LinePause.run(&session, input: 0, signals: terminal.signalDescriptor, output: write, time: context.time,
                                   width: width, nextQuote: nextQuote, onDeepen: onDeepen, shouldYield: shouldYield)
        loop.replaceSession(session)
        return ending
    }

    /// The weekly look back, once the pause is over and the terminal left:
    /// for someone who opens programs only through MIGA it is the week's
    /// first run. Only a look at the week last sent for here; when it may be
    /// due, `miga look-back` sends it in the background.
    private func lookBackIfDue(_ store: SessionStore) {
        let now = context.time.now()
        // The system's zone from the C library, unless a test gives one: Foundation's costs a millisecond.
        let (today, hour) = context.timeZone.map { LocalDay.dayAndHour(of: now, in: $0) } ?? LocalDay.system(now)
        Upkeep(store: store, config: loaded.config).lookBackIfDue(.inBackground(today: today, hour: hour) { [self] in
            if let lookBack = context.lookBack { return lookBack() }
            if let gateway = context.gatewayPath { WeeklyLookBack.start(gateway: gateway) }
        }, now: now)
    }

    /// A detached start after a Proceed, watched for its first moments: its
    /// errors reach no one, and one that stops at once must not leave the
    /// person before an empty desktop. A program in place of the gateway
    /// shows its errors in the gateway's own terminal.
    private func watched(_ launch: Launch, sessionID: String, settings: ProgramSettings) -> Launch {
        guard launch.detached, let watcher = context.gatewayPath else { return launch }
        var launch = launch
        launch.watch = StartWatch(watcher: watcher, sessionID: sessionID, programName: settings.displayName,
                                  notify: loaded.config.notifications)
        return launch
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
    /// `loop`: where the bloom is drawn; nil on a terminal that takes no control sequences.
    private func celebrate(settings: ProgramSettings, store: SessionStore?, loop: PauseLoop?,
                           alternative: String? = nil) -> CelebrationWords {
        let now = context.time.now()
        let streak = (try? store.map { try StatsReport.streak(from: $0, now: now, timeZone: context.timeZone ?? .current) })??.current ?? 0
        let milestone = (try? store.map { try Milestones.claim(streak, in: $0) }) ?? nil
        let exitsToday = (try? store?.exitsAndProceeds(in: [(startOfDay(now), now.addingTimeInterval(1))], .init()).first?.exits) ?? nil
        let words = CelebrationWords(program: settings.displayName, streak: streak, milestone: milestone, alternative: alternative,
                                     exitsToday: exitsToday ?? 1)
        let started = context.time.monotonic()
        let pending = loaded.config.notifications
            ? (context.notifier ?? LibnotifyNotifier()).post(DesktopNotification(summary: words.summary, body: words.body))
            : nil
        loop?.celebrate(headline: words.headline, detail: words.detail)
        let waited = context.time.monotonic() - started
        _ = pending?.wait(seconds: Self.notificationDeadline - waited)
        return words
    }
}
