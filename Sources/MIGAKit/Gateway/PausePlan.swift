import Foundation
import MIGACore
import MIGATerminal
import MIGAConfig
import MIGADesktop

/// Everything decided before the pause is on screen: the program and its
/// launch, the session's first state (quote, length, kind), how the screen
/// looks and the quiet facts it shows. The first stage of a launch's
/// pipeline: plan → the pause (`PauseLoop`, or the line pause) → `PauseOutcome`
/// → `Aftercare`.
struct PausePlan {
    let sessionID: String
    let settings: ProgramSettings
    let launch: Launch
    /// The pause as it opens.
    var session: PauseSession
    let look: PauseLook
    let capabilities: TerminalCapabilities
    let palette: Palette
    let startedAt: Date
    /// The same moment on the clock no one sets, so that a pause's length
    /// survives a step of the wall clock.
    let startedOnClock: Double
}

extension Gateway {
    /// Plans the pause before `launch`, or nil when an allowance another
    /// Proceed began is running: the program then opens at once (the store
    /// has recorded that). The learner chooses the kind from the store's
    /// journal; one transaction of the store then decides between an opening
    /// inside the allowance and a pause, and records either.
    func plan(_ launch: Launch, settings: ProgramSettings, length: Int, quotes: QuoteDrawer) -> PausePlan? {
        let sessionID = newUUID()
        let startedAt = context.time.now()
        let startedOnClock = context.time.monotonic()
        let dayStart = context.startOfDay(startedAt)
        let capabilities = TerminalCapabilities.detect(environment: context.environment)
        let supply = KindSupply(paths: paths, pool: quotes.quotes)
        let inUse = loaded.config.kindsInUse(for: settings, hasLinesToType: { supply.hasLineToType(asciiOnly: !capabilities.unicode) },
                                             hasAlternatives: supply.hasAlternatives)
        // Without the store's journal, the first kind in use.
        var choice = KindChoice(kind: inUse.kinds.first ?? .breathe, why: nil)
        if let store = quotes.store, let chosen = try? KindChooser.choose(
            among: inUse.kinds, rotation: inUse.rotation, journal: {
                try store.kindJournal(program: settings.command, now: startedAt, halfLifeDays: inUse.halfLifeDays)
            },
            using: &context.generator) {
            choice = chosen
        }
        let verdict = quotes.attempt({ [pool = quotes.pool] store, generator in
            try store.beginLaunch(id: sessionID, program: settings.command, at: startedAt, owner: .current(), pool: pool,
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
        session.asksIntention = settings.askIntention
        if let why = prepare(&session, as: choice, unicode: capabilities.unicode) { facts.append(why) }
        // Only a protected program has kinds of its own to take one out of.
        if inUse.kinds.count > 1, inUse.kinds.contains(session.kind), loaded.config.programs[settings.command] != nil {
            session.declinableKind = session.kind
        }
        let look = PauseLook(motion: !loaded.config.reducedMotion, colors: capabilities.colors, notices: quotes.screenNotices,
                             context: facts, longerBecause: longerBecause)
        return PausePlan(sessionID: sessionID, settings: settings, launch: launch, session: session, look: look,
                         capabilities: capabilities, palette: Palette(capabilities), startedAt: startedAt,
                         startedOnClock: startedOnClock)
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
