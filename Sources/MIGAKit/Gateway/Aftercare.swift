import FoundationEssentials
import Glibc
import MIGACore
import MIGATerminal
import MIGAStore
import MIGAConfig
import MIGADesktop

/// Everything after a pause, in one place: the outcome recorded (or left in
/// the inbox), launches that went around the pause recorded, an exit
/// celebrated, the terminal left, the weekly look back when due, and for a
/// Proceed the reminder at the end of the allowance and the watch over a
/// detached start. The last stage of a launch's pipeline (see `PausePlan`).
struct Aftercare {
    let context: GatewayContext
    let paths: XDGPaths
    let config: Config

    /// Settles `outcome` and says what the gateway does now.
    /// `loop`: where the bloom is drawn; nil on a terminal that takes no control sequences.
    func settle(_ outcome: PauseOutcome, of plan: PausePlan, storeSession: StoreSession, loop: PauseLoop?,
                on terminal: TerminalDevice) -> GateDecision {
        // While the person was here anyway: launches that went around the
        // pause (one pass over /proc, after the frame, never on a pass-through).
        // Looked for before this pause's Proceed is recorded: a process that
        // started a moment before it would otherwise pass for the program it opens.
        if let store = storeSession.store {
            Upkeep(store: store, config: config).recordLeaks(
                context.gatewayPath.map { Protection(paths: paths, environment: context.environment, gateway: $0) }, now: context.time.now())
        }
        plan.start.record(outcome, storeSession: storeSession, storeFile: paths.storeFile)
        if let kind = outcome.declinedKind {
            decline(kind, for: plan.settings, store: storeSession.store, notices: &storeSession.notices)
        }
        if outcome.isExit && plan.launch.detached {
            // A window or a menu's launch of its own: no shell waits for the
            // terminal, so the bloom shows while the notification goes out.
            let words = celebrate(plan.settings, store: storeSession.store, loop: loop, alternative: outcome.progress.alternative)
            terminal.leave()
            context.messages(plan.palette.glyphs(words.farewell))
        } else if outcome.isExit {
            // In a shell: the terminal is given back at once, so the next
            // command typed ahead reaches it; a line says what happened, and
            // the notification goes out from a process of its own.
            terminal.leave()
            let words = celebrationWords(plan.settings, store: storeSession.store, alternative: outcome.progress.alternative)
            context.messages(plan.palette.glyphs(words.farewell))
            _ = notifyApart(words)?.wait(seconds: Gateway.notificationDeadline)
        } else {
            terminal.leave()
        }
        context.say(storeSession.messages, palette: plan.palette)
        if let store = storeSession.store { lookBackIfDue(store) }

        switch outcome.ending {
        case .exitToFocus, .alternative: return .finish(ExitStatus.success)
        case .proceed:
            if let allowance = plan.settings.allowance, config.notifications {
                remindAtEnd(of: allowance, from: outcome.endedAt, settings: plan.settings, launch: plan.launch)
            }
            return .launch(watched(plan.launch, sessionID: plan.sessionID, settings: plan.settings))
        case .yielded: return .launch(plan.launch)
        case .signal(let number): return .finish(ExitStatus.signal(number))
        case .hangup: return .finish(ExitStatus.signal(SIGHUP))
        }
    }

    /// The bloom on screen while the notification goes out; the terminal is
    /// left only after both, and the notification never holds it up for long.
    private func celebrate(_ settings: ProgramSettings, store: SessionStore?, loop: PauseLoop?,
                           alternative: String?) -> CelebrationWords {
        let words = celebrationWords(settings, store: store, alternative: alternative)
        let started = context.time.monotonic()
        let pending = config.notifications
            ? (context.notifier ?? LibnotifyNotifier()).post(DesktopNotification(summary: words.summary, body: words.body))
            : nil
        loop?.celebrate(headline: words.headline, detail: words.detail)
        let waited = context.time.monotonic() - started
        _ = pending?.wait(seconds: Gateway.notificationDeadline - waited)
        return words
    }

    /// The celebration's notification from a process of its own (`miga
    /// notify`), so that what waits for MIGA (a shell, a browser's tab) never
    /// waits for the notification server; nil when notifications are off.
    func notifyApart(_ words: CelebrationWords) -> PendingNotification? {
        guard config.notifications, let notifier = context.notifier ?? context.gatewayPath.map(DetachedNotifier.init(sender:)) else {
            return nil
        }
        return notifier.post(DesktopNotification(summary: words.summary, body: words.body))
    }

    /// What an Exit to Focus is told: the streak, a milestone reached, the
    /// exits of the day. (A site's pause in the tab is told the same.)
    func celebrationWords(_ settings: ProgramSettings, store: SessionStore?, alternative: String?) -> CelebrationWords {
        let now = context.time.now()
        let zone = context.timeZone ?? .system
        let streak = (try? store.map { try StatsReport.streak(from: $0, now: now, timeZone: zone) })??.current ?? 0
        let milestone = (try? store.map { try Milestones.claim(streak, in: $0) }) ?? nil
        let exitsToday = (try? store?.exitsAndProceeds(in: [(context.startOfDay(now), now.addingTimeInterval(1))], .init()).first?.exits) ?? nil
        return CelebrationWords(program: settings.displayName, streak: streak, milestone: milestone, alternative: alternative,
                                exitsToday: exitsToday ?? 1)
    }

    /// The weekly look back, once the pause is over and the terminal left:
    /// for someone who opens programs only through MIGA it is the week's
    /// first run. Only a look at the week last sent for here; when it may be
    /// due, `miga look-back` sends it in the background.
    private func lookBackIfDue(_ store: SessionStore) {
        let now = context.time.now()
        let (today, hour) = LocalDay.dayAndHour(of: now, in: context.timeZone ?? .system)
        Upkeep(store: store, config: config).lookBackIfDue(.inBackground(today: today, hour: hour) { [context] in
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
                                  notify: config.notifications)
        return launch
    }

    /// Leaves a reminder for the end of the allowance this Proceed began.
    private func remindAtEnd(of allowance: TimeInterval, from start: Date, settings: ProgramSettings, launch: Launch) {
        let minutes = allowance / 60
        let reminder = AllowanceReminder(programName: settings.displayName, minutes: minutes,
                                         due: GateVerdict.allowanceEnd(afterProceedAt: start, allowance: allowance),
                                         processID: launch.detached ? 0 : context.processID, executable: launch.path)
        if let remind = context.remind { return remind(reminder) }
        guard let gateway = context.gatewayPath, reminder.schedule(gateway: gateway) else {
            context.messages("miga: the reminder at the end of the \(AllowanceReminder.span(minutes)) could not be set")
            return
        }
    }
}

extension GatewayContext {
    /// Says the problems and notices of a pause on standard error, once the
    /// screen is left (on it they would be drawn over), in the characters
    /// the terminal shows (`palette`; nil before the terminal is known).
    func say(_ notices: [String], palette: Palette?) {
        for notice in notices { messages(palette?.glyphs("miga: \(notice)") ?? "miga: \(notice)") }
    }
}

extension PauseStart {
    /// A finished pause is never lost: when the store is busy past its wait
    /// (hundreds of pauses at once), or its row never began, the ending
    /// waits in the inbox, and the next process that opens the store writes it.
    func record(_ outcome: PauseOutcome, storeSession: StoreSession, storeFile: String) {
        var failure = "the history could not be opened"
        do {
            if try storeSession.store?.completeSession(sessionID: sessionID, outcome: outcome.outcome, endedAt: outcome.endedAt,
                                                 outcome.progress, intention: outcome.intention,
                                                 reason: outcome.reason) == true { return }
        } catch {
            failure = "\(error)"
        }
        do {
            try Inbox(besideStoreAt: storeFile).dropEnding(
                InboxEnding(id: sessionID, program: settings.command, startedAt: startedAt, outcome: outcome.outcome,
                            endedAt: outcome.endedAt, outcome.progress, intention: outcome.intention, reason: outcome.reason))
        } catch {
            storeSession.notices.append("this pause could not be recorded (\(failure); \(error))")
        }
    }
}
