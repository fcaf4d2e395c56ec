/// What a key asks the pause to do.
public enum PauseAction: Equatable, Sendable {
    case exitToFocus
    case deepen
    case proceed

    /// `e`, `q`, Esc, Ctrl-C → exit to focus; `d`, Space → deepen; `p`, Enter → proceed.
    public init?(key: Key) {
        switch key {
        case .character("e"), .character("E"), .character("q"), .character("Q"),
             .escape, .control("c"), .control("d"):
            self = .exitToFocus
        case .character("d"), .character("D"), .space:
            self = .deepen
        case .character("p"), .character("P"), .enter:
            self = .proceed
        default:
            return nil
        }
    }
}

/// The pause as a pure state machine: time and choices go in, what to show
/// comes out. It knows nothing of terminals, so every rule is tested with
/// plain numbers for time.
public struct PauseSession: Equatable, Sendable {
    public let programName: String
    /// Seconds of a full countdown.
    public let length: Int
    public private(set) var quote: Quote
    /// Ids of every quote shown, in order.
    public private(set) var quotesShown: [String]
    public private(set) var deepenCount = 0
    /// Seconds counted down since the countdown last started.
    public private(set) var countdownElapsed: Double = 0
    /// Seconds the pause has been on screen in all: what "hours reclaimed" adds up.
    public private(set) var pausedSeconds: Double = 0
    /// The time of the last event, on the caller's monotonic clock.
    public private(set) var now: Double
    private var nudgeUntil: Double = -.infinity

    /// How long the gentle "not yet" stays after Proceed is pressed too early.
    static let nudgeSeconds = 2.5

    public init(programName: String, length: Int, quote: Quote, at time: Double) {
        self.programName = programName
        self.length = max(1, length)
        self.quote = quote
        quotesShown = [quote.id]
        now = time
    }

    /// Counts the time since the last event.
    public mutating func advance(to time: Double) {
        guard time > now else { return }
        countdownElapsed += time - now
        pausedSeconds += time - now
        now = time
    }

    /// Lets time pass without counting it: the process was stopped (Ctrl-Z),
    /// or the countdown is held.
    public mutating func skip(to time: Double) {
        now = max(now, time)
    }

    public var secondsLeft: Int {
        max(0, Int((Double(length) - countdownElapsed - 1e-9).rounded(.up)))
    }

    /// 1 when the countdown starts, 0 when it is over.
    public var remainingFraction: Double {
        max(0, min(1, 1 - countdownElapsed / Double(length)))
    }

    /// Proceed is inert until the countdown reaches zero.
    public var canProceed: Bool { countdownElapsed >= Double(length) }

    /// Proceed was pressed early and the screen is saying so, kindly.
    public var isNudging: Bool { now < nudgeUntil }

    /// A fresh quote and the countdown back to full (seed F-006), any number of times.
    public mutating func deepen(with quote: Quote, at time: Double) {
        advance(to: time)
        self.quote = quote
        quotesShown.append(quote.id)
        deepenCount += 1
        countdownElapsed = 0
        nudgeUntil = -.infinity
    }

    /// Proceed pressed before zero: nothing happens but a gentle reminder.
    public mutating func nudge(at time: Double) {
        advance(to: time)
        nudgeUntil = time + Self.nudgeSeconds
    }

    /// What the store keeps of this pause.
    public var progress: PauseProgress {
        // Milliseconds are plenty, and spare the store float dust like 12.000000000002.
        PauseProgress(pausedSeconds: (pausedSeconds * 1000).rounded() / 1000, deepenCount: deepenCount,
                      quotes: quotesShown)
    }

    /// The countdown as the screen shows it: `m:ss`.
    public var clock: String {
        let left = secondsLeft
        let seconds = left % 60
        return "\(left / 60):\(seconds < 10 ? "0" : "")\(seconds)"
    }
}
