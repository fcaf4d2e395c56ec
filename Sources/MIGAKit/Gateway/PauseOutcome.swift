import FoundationEssentials
import MIGACore

/// How a pause ended, as the history keeps it: the third stage of a launch's
/// pipeline (see `PausePlan`), made from the ending and the session as the
/// pause left it. Pure: the clocks' readings come in.
struct PauseOutcome: Equatable {
    let ending: PauseEnding
    let outcome: SessionOutcome
    let endedAt: Date
    let progress: PauseProgress
    /// The answer to "what will you do there?", kept with a Proceed only.
    let intention: String?
    let reason: PassReason?
    /// The kind the person took out of the program's kinds on the pause (`Ctrl-N`), if they did.
    let declinedKind: PauseKind?

    /// - Parameters:
    ///   - elapsed: the time the pause took on the clock no one sets.
    ///   - wallEnd: the wall clock as the pause ended.
    init(_ ending: PauseEnding, session: PauseSession, startedAt: Date, elapsed: TimeInterval, wallEnd: Date) {
        self.ending = ending
        outcome = switch ending {
        case .exitToFocus, .alternative: .exit
        case .proceed: .proceed
        case .yielded: .passthrough
        case .signal, .hangup: .abandoned
        }
        // The wall clock, unless it was stepped mid-pause (by hand, or NTP):
        // then the start plus the time that passed on the clock no one sets,
        // so a pause never ends before it began.
        let elapsed = max(0, elapsed)
        endedAt = abs(wallEnd.timeIntervalSince(startedAt) - elapsed) < 1 ? wallEnd : startedAt.addingTimeInterval(elapsed)
        intention = ending == .proceed ? session.answeredIntention : nil
        reason = ending == .yielded ? .allowed : nil
        declinedKind = session.declinesKind ? session.declinableKind : nil
        var progress = session.progress
        if ending == .alternative { progress.alternative = session.alternative }
        // A pause that gave way to an allowance is recorded as a pass-through: no pause, no kind.
        if ending == .yielded { (progress.kind, progress.typed) = (nil, nil) }
        self.progress = progress
    }

    /// An exit to focus, plain or with the alternative on offer: celebrated.
    var isExit: Bool { outcome == .exit }
}
