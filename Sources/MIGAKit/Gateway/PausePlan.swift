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

    /// What beginning a pause came to.
    enum Begun<Pause> {
        case pause(Pause)
        /// No pause after all: the store found an allowance running, and recorded the opening.
        case decided(GateVerdict)
    }
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
    /// Plans the pause before `launch` on this terminal, unless an
    /// allowance another Proceed began is running (see `start`).
    func plan(_ launch: Launch, facts: GateFacts, settings: ProgramSettings, length: Int, storeSession: StoreSession,
              quotes: QuoteSource) -> PauseStart.Begun<PausePlan> {
        let capabilities = TerminalCapabilities.detect(environment: context.environment)
        let start: PauseStart
        switch self.start(facts, settings: settings, length: length, storeSession: storeSession, quotes: quotes,
                          unicode: capabilities.unicode) {
        case .pause(let started): start = started
        case .decided(let verdict): return .decided(verdict)
        }
        let look = PauseLook(motion: !loaded.config.reducedMotion, colors: capabilities.colors, notices: storeSession.screenNotices,
                             context: start.facts, longerBecause: start.longerBecause)
        return .pause(PausePlan(start: start, launch: launch, look: look, capabilities: capabilities,
                                palette: Palette(capabilities)))
    }

    /// Starts a pause of `settings`' program or site, whose `facts` the
    /// verdict found due for a pause here, unless the store finds an
    /// allowance another Proceed began running: the program then opens at
    /// once (the store has recorded that). The learner chooses the kind from
    /// the store's journal; one transaction of the store then reads its
    /// answer, lets `GateVerdict` decide between an opening inside the
    /// allowance and a pause, and records either. Without a store, a pause.
    /// `unicode`: whether the front end shows (and its keyboard types) more than ASCII.
    func start(_ facts: GateFacts, settings: ProgramSettings, length: Int, storeSession: StoreSession, quotes: QuoteSource,
               unicode: Bool) -> PauseStart.Begun<PauseStart> {
        let sessionID = newUUID()
        let startedAt = facts.now
        let startedOnClock = context.time.monotonic()
        let dayStart = context.startOfDay(startedAt)
        let supply = KindSupply(paths: paths, pool: quotes.pool)
        let inUse = loaded.config.kindsInUse(for: settings, hasLinesToType: { supply.hasLineToType(asciiOnly: !unicode) },
                                             hasAlternatives: supply.hasAlternatives)
        // Without the store's journal, the first kind in use.
        var choice = KindChoice(kind: inUse.kinds.first ?? .breathe, why: nil)
        if let store = storeSession.store, let chosen = try? KindChooser.choose(
            among: inUse.kinds, rotation: inUse.rotation, journal: {
                try store.kindJournal(program: settings.command, seekingAmong: inUse.rotation == .adaptive ? inUse.kinds : nil,
                                      now: startedAt, halfLifeDays: inUse.halfLifeDays)
            },
            using: &context.generator) {
            choice = chosen
        }
        let begun = storeSession.attempt({ [ids = quotes.ids] store, generator in
            try store.beginLaunch(facts, id: sessionID, program: settings.command, owner: .current(), pool: ids,
                                  dayStart: dayStart, kind: choice.kind, using: &generator)
        }, generator: &context.generator)
        var history: LaunchHistory?
        var firstID: String?
        switch begun {
        case .decided(let verdict): return .decided(verdict)
        case .pause(let quote, let found): (firstID, history) = (quote, found)
        case nil: break
        }

        var length = length
        var quietFacts: [String] = []
        var longerBecause: String?
        if let history {
            quietFacts.append(ImpulseWords.attempts(history, now: startedAt))
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
        if let why = prepare(&session, as: choice, unicode: unicode) { quietFacts.append(why) }
        // Only a protected program has kinds of its own to take one out of.
        if inUse.kinds.count > 1, inUse.kinds.contains(session.kind), case .program(let command) = settings.protected,
           loaded.config.programs[command] != nil {
            session.declinableKind = session.kind
        }
        return .pause(PauseStart(sessionID: sessionID, settings: settings, session: session, facts: quietFacts,
                                 longerBecause: longerBecause, startedAt: startedAt, startedOnClock: startedOnClock))
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
