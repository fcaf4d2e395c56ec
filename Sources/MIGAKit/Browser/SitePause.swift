import FoundationEssentials
import MIGACore
import MIGAStore
import MIGAConfig

/// A protected site's pause in the browser tab: the same start, flow and
/// record as a program's pause (`PauseStart`, `PauseFlow`, `PauseOutcome`),
/// with the tab as its front end. The host's clocks are the ones that count:
/// Proceed opens when this countdown is over, whatever the page shows.
final class SitePause {
    /// What the host answers a request for a pause.
    enum Opening {
        /// A pause is on: its first state.
        case pause(SitePause)
        /// No pause is due (an allowance, outside focus hours): the address
        /// opens; the store has recorded it. `until`: the allowance's end.
        case open(PassReason?, until: Date?)
    }

    /// The address asked for, opened exactly on Proceed.
    let url: String
    let start: PauseStart
    private(set) var flow: PauseFlow
    private let gateway: Gateway
    private let storeSession: StoreSession
    private let world: PauseWorld
    /// How the pause ended, once it has.
    private(set) var ending: PauseEnding?
    /// When it ended, as its history records it.
    private(set) var endedAt: Date?

    private init(url: String, start: PauseStart, gateway: Gateway, storeSession: StoreSession, quotes: QuoteSource) {
        self.url = url
        self.start = start
        self.gateway = gateway
        self.storeSession = storeSession
        // The host's allowance is asked for again by the extension; the tab never gives way by itself.
        world = StorePauseWorld(gateway: gateway, storeSession: storeSession, quotes: quotes, sessionID: start.sessionID)
        flow = PauseFlow(session: start.session)
    }

    /// The pause for `url` on the site `settings` protects, or the opening
    /// when none is due: the verdict decides, as for a program launched
    /// from a terminal, the tab being where the pause is shown. A browser's
    /// pages show any script, so a line to type may be in any.
    static func open(_ url: String, settings: ProgramSettings, gateway: Gateway) -> Opening {
        let facts = gateway.facts(settings, front: .here)
        var verdict = GateVerdict(facts)
        if verdict == .pause || verdict == .askStore {
            let (storeSession, quotes) = gateway.pauseSources()
            switch gateway.start(facts, settings: settings, length: gateway.loaded.config.pause(for: settings),
                                 storeSession: storeSession, quotes: quotes, unicode: true) {
            case .pause(let start):
                return .pause(SitePause(url: url, start: start, gateway: gateway, storeSession: storeSession, quotes: quotes))
            case .decided(let decided): verdict = decided
            }
        }
        // Inside an allowance the store has recorded the opening, and its
        // end is the host's word, so that asking again near its end never
        // makes it longer in the browser. Outside focus hours (the one other
        // verdict a visit meets) the pass-through is recorded here.
        if case .allowed(let until) = verdict { return .open(.allowed, until: until) }
        let reason: PassReason? = if case .passThrough(let reason) = verdict { reason } else { nil }
        gateway.recordPassThrough(settings, reason: reason)
        return .open(reason, until: nil)
    }

    /// The pause as the tab shows it now.
    var state: PauseState {
        flow.advance(to: gateway.context.time.monotonic())
        var state = flow.state
        (state.facts, state.longerBecause, state.problems) = (start.facts, start.longerBecause, storeSession.screenNotices)
        return state
    }

    /// The passing of time.
    func tick() {
        _ = flow.tick(at: gateway.context.time.monotonic())
    }

    /// What `choice` does; the ending, recorded, when it ends the pause.
    func choose(_ choice: PauseChoice) -> PauseEnding? {
        guard ending == nil else { return ending }
        for effect in flow.choose(choice, at: gateway.context.time.monotonic()) {
            switch effect {
            case .finish(let ending): return end(ending)
            case .perform(let work):
                if let ending = world.perform(work, on: &flow) { return end(ending) }
            }
        }
        return nil
    }

    /// The tab went away (closed, or the browser ended the conversation)
    /// before a choice: recorded as a pause left unfinished.
    func abandon() {
        if ending == nil { _ = end(.hangup) }
    }

    private func end(_ ending: PauseEnding) -> PauseEnding {
        self.ending = ending
        let time = gateway.context.time
        let outcome = PauseOutcome(ending, session: flow.session, startedAt: start.startedAt,
                                   elapsed: time.monotonic() - start.startedOnClock, wallEnd: time.now())
        start.record(outcome, storeSession: storeSession, storeFile: gateway.paths.storeFile)
        endedAt = outcome.endedAt
        if outcome.isExit { celebrate(outcome) }
        return ending
    }

    /// An exit celebrated as a pause in a shell is: the desktop notification
    /// from a process of its own, so that the host answers the tab at once.
    private func celebrate(_ outcome: PauseOutcome) {
        let aftercare = Aftercare(context: gateway.context, paths: gateway.paths, config: gateway.loaded.config)
        _ = aftercare.notifyApart(aftercare.celebrationWords(start.settings, store: storeSession.store, alternative: outcome.progress.alternative))
    }
}
