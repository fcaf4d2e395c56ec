import FoundationEssentials
import MIGACore
import MIGAStore

/// The world's part of a pause: what the model asks of it (`PauseWork`) and
/// only the world can do. The model returns its effects as values; each
/// front end (the full screen, the line pause of a dumb terminal, the
/// browser tab) hands the work here, so what it does is written once.
public protocol PauseWorld: AnyObject {
    /// Whether the pause asks about giving way to an allowance (`PauseWork.checkYield`).
    var checksYield: Bool { get }
    /// Carries out `work` on `flow`; the ending, when the work ends the pause.
    func perform(_ work: PauseWork, on flow: inout PauseFlow) -> PauseEnding?
}

/// The world of a pause that MIGA runs: Deepen's quote from the quote
/// source (a typed pause's from a quote that gives a line), the store's
/// row kept current, and the question of giving way to an allowance that
/// another launch of the program began meanwhile.
final class StorePauseWorld: PauseWorld {
    /// The gateway whose generator and clock the pause uses.
    private unowned let gateway: Gateway
    private let storeSession: StoreSession
    private let quotes: QuoteSource
    /// The row the pause keeps current; nil for a pause that records nothing.
    private let sessionID: String?
    /// The program and the facts its pause was decided on (at the moment
    /// it began): a Proceed elsewhere since then makes the pause give way
    /// when the verdict, asked again now with it, lets the program open.
    /// Nil: it never does.
    private let yieldsTo: (program: String, facts: GateFacts)?

    /// Draws for a quote that gives a line to type, before taking one that does not.
    static let drawsForALine = 8

    init(gateway: Gateway, storeSession: StoreSession, quotes: QuoteSource, sessionID: String? = nil,
         yieldsTo: (program: String, facts: GateFacts)? = nil) {
        self.gateway = gateway
        self.storeSession = storeSession
        self.quotes = quotes
        self.sessionID = sessionID
        self.yieldsTo = yieldsTo
        checksYield = yieldsTo.map { GateVerdict($0.facts) == .askStore } ?? false
    }

    /// Only while the verdict wants the store's answer (an allowance decides) is it asked.
    let checksYield: Bool

    func perform(_ work: PauseWork, on flow: inout PauseFlow) -> PauseEnding? {
        switch work {
        case .deepen(let now):
            flow.deepen(with: nextQuote(for: flow.session), at: now)
            if let sessionID { try? storeSession.store?.recordProgress(sessionID: sessionID, flow.session.progress) }
            return nil
        case .checkYield:
            // A Proceed of the program's since this pause began opened an allowance.
            guard checksYield, let (program, began) = yieldsTo else { return nil }
            let now = gateway.context.time.now()
            guard let ended = (try? storeSession.store?.allowanceBegan(for: program, since: began.now, now: now)) ?? nil else {
                return nil
            }
            var facts = began.answered(lastProceedEndedAt: ended)
            facts.now = now
            guard case .allowed = GateVerdict(facts) else { return nil }
            return .yielded
        }
    }

    /// The quote Deepen brings: for a typed pause, a few more draws find one that gives a line.
    private func nextQuote(for session: PauseSession) -> Quote {
        var quote = quotes.next(generator: &gateway.context.generator)
        var draws = 1
        while draws < Self.drawsForALine, session.typedLines?.offersLine(for: quote) == false {
            quote = quotes.next(generator: &gateway.context.generator)
            draws += 1
        }
        return quote
    }
}
