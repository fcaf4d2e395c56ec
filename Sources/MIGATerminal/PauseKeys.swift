import MIGACore

/// The pause's keys.
extension PauseAction {
    /// `e`, `q`, Esc, Ctrl-C → exit to focus; `d`, Space → deepen; `p`, Enter → proceed;
    /// `i` → the alternative.
    public init?(key: Key) {
        switch key {
        case .character("i"), .character("I"):
            self = .chooseAlternative
        case .character("w"), .character("W"):
            self = .wholeQuote
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
