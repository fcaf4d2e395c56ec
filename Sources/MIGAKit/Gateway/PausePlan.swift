import FoundationEssentials
import MIGACore
import MIGATerminal
import MIGAConfig
import MIGADesktop

/// What every front end's pause begins with, whoever shows it (the full
/// screen, a dumb terminal's lines, the browser's tab): its row in the store
/// begun, the session's first state (quote, length, kind) and the quiet
/// facts beside it. The first stage of a pause's pipeline: start → the
/// pause (`PauseFlow`, through a front end) → `PauseOutcome` → recorded.
struct PauseStart {
    let sessionID: String
    let settings: ProgramSettings
    /// The pause as it opens.
    let session: PauseSession
    /// The quiet facts under the header, and why this pause is longer.
    let facts: [String]
    let longerBecause: String?
    let startedAt: Date
    /// The same moment on the clock no one sets, so that a pause's length
    /// survives a step of the wall clock.
    let startedOnClock: Double
}

/// A launch's pause on a terminal: its start, the program it stands before,
/// and how the screen looks. Its pipeline: plan → the pause (`PauseLoop`, or
/// the line pause) → `PauseOutcome` → `Aftercare`.
struct PausePlan {
    let start: PauseStart
    let launch: Launch
    let look: PauseLook
    let capabilities: TerminalCapabilities
    let palette: Palette

    var sessionID: String { start.sessionID }
    var settings: ProgramSettings { start.settings }
    var session: PauseSession { start.session }
    var startedAt: Date { start.startedAt }
    var startedOnClock: Double { start.startedOnClock }
}

extension Gateway {
    /// Plans the pause before `launch` on this terminal, or nil when an
    /// allowance another Proceed began is running (see `start`).
    func plan(_ launch: Launch, settings: ProgramSettings, length: Int, storeSession: StoreSession,
              quotes: QuoteSource) -> PausePlan? {
        let capabilities = TerminalCapabilities.detect(environment: context.environment)
        guard let start = start(settings: settings, length: length, storeSession: storeSession, quotes: quotes,
                                unicode: capabilities.unicode) else {
            return nil
        }
        let look = PauseLook(motion: !loaded.config.reducedMotion, colors: capabilities.colors, notices: storeSession.screenNotices,
                             context: start.facts, longerBecause: start.longerBecause)
        return PausePlan(start: start, launch: launch, look: look, capabilities: capabilities, palette: Palette(capabilities))
    }

    /// Starts a pause of `settings`' program, or nil when an allowance
    /// another Proceed began is running: the program then opens at once
    /// (the store has recorded that). The learner chooses the kind from the
    /// store's journal; one transaction of the store then decides between an
    /// opening inside the allowance and a pause, and records either.
    /// `unicode`: whether the front end shows (and its keyboard types) more than ASCII.
    func start(settings: ProgramSettings, length: Int, storeSession: StoreSession, quotes: QuoteSource,
               unicode: Bool) -> PauseStart? {
        let sessionID = newUUID()
        let startedAt = context.time.now()
        let startedOnClock = context.time.monotonic()
        let dayStart = context.startOfDay(startedAt)
        let supply = KindSupply(paths: paths, pool: quotes.pool)
        let inUse = loaded.config.kindsInUse(for: settings, hasLinesToType: { supply.hasLineToType(asciiOnly: !unicode) },
                                             hasAlternatives: supply.hasAlternatives)
        // Without the store's journal, the first kind in use.
        var choice = KindChoice(kind: inUse.kinds.first ?? .breathe, why: nil)
        if let store = storeSession.store, let chosen = try? KindChooser.choose(
            among: inUse.kinds, rotation: inUse.rotation, journal: {
                try store.kindJournal(program: settings.command, now: startedAt, halfLifeDays: inUse.halfLifeDays)
            },
            using: &context.generator) {
            choice = chosen
        }
        let verdict = storeSession.attempt({ [ids = quotes.ids] store, generator in
            try store.beginLaunch(id: sessionID, program: settings.command, at: startedAt, owner: .current(), pool: ids,
                                  allowance: settings.allowance, dayStart: dayStart, kind: choice.kind, using: &generator)
        }, generator: &context.generator)
        var history: LaunchHistory?
        var firstID: String?
        switch verdict {
        case .allowed: return nil
        case .pause(let quote, let found): (firstID, history) = (quote, found)
        case nil: break
        }

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
        var session = PauseSession(programName: settings.displayName, length: length,
                                   quote: quotes.quote(id: firstID, generator: &context.generator), at: context.time.monotonic())
        // The program's settings of the pause itself, read here for every front end.
        session.asksIntention = settings.askIntention
        session.holdsWhenUnfocused = settings.holdWhenUnfocused
        if let why = prepare(&session, as: choice, unicode: unicode) { facts.append(why) }
        // Only a protected program has kinds of its own to take one out of.
        if inUse.kinds.count > 1, inUse.kinds.contains(session.kind), case .program(let command) = settings.protected,
           loaded.config.programs[command] != nil {
            session.declinableKind = session.kind
        }
        return PauseStart(sessionID: sessionID, settings: settings, session: session, facts: facts,
                          longerBecause: longerBecause,
                          startedAt: startedAt, startedOnClock: startedOnClock)
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
            return "A breathing pause: " + KindsInUse.whyLeftOut(.instead)
        }
    }
}
