/// What a person asks the pause to do, by a key, a click or a message.
public enum PauseAction: Equatable, Sendable {
    case exitToFocus
    case deepen
    case proceed
    /// The alternative on offer, instead of the program (an exit to focus).
    case chooseAlternative
    /// The whole quote in place of the ring, when it had to be shortened; again to go back.
    case wholeQuote
}
