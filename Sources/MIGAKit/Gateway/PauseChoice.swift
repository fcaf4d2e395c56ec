/// What a person chooses in a pause, whatever shows it: a key on the full
/// screen, a line on a dumb terminal, or a message from a front end that is
/// no terminal at all. `PauseFlow` decides what each one does.
///
/// As JSON: `{"choice": "deepen"}`, and for the two that carry words
/// `{"choice": "typedLine", "text": "…"}`, `{"choice": "intention", "text": "…"}`,
/// or `{"choice": "focus", "focused": false}`.
public enum PauseChoice: Equatable, Sendable {
    case exitToFocus
    case deepen
    /// Proceed: at zero, the next step (the line to type, the question) or the program.
    case proceed
    /// The alternative on offer, instead of the program (an exit to focus).
    case alternative
    /// The line to type, typed back whole: taken only when it is the whole
    /// line (`TypedLine.isWhole`). Proceed then goes on.
    case typedLine(String)
    /// The answer to "What are you opening it for?"; Proceed then goes on.
    case intention(String)
    /// Out of the typing field or the question, back to the pause.
    case back
    /// The pause was looked away from (false) or back at (true): when the
    /// session `holdsWhenUnfocused`, the countdown waits meanwhile.
    case focus(Bool)

    /// The choices by name: what `PauseState.choices` lists and what the JSON's `choice` says.
    public enum Name: String, Codable, Sendable, CaseIterable {
        case exitToFocus, deepen, proceed, alternative, typedLine, intention, back, focus
    }

    public var name: Name {
        switch self {
        case .exitToFocus: .exitToFocus
        case .deepen: .deepen
        case .proceed: .proceed
        case .alternative: .alternative
        case .typedLine: .typedLine
        case .intention: .intention
        case .back: .back
        case .focus: .focus
        }
    }
}

extension PauseChoice: Codable {
    private enum CodingKeys: String, CodingKey {
        case choice, text, focused
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Name.self, forKey: .choice) {
        case .exitToFocus: self = .exitToFocus
        case .deepen: self = .deepen
        case .proceed: self = .proceed
        case .alternative: self = .alternative
        case .typedLine: self = .typedLine(try container.decode(String.self, forKey: .text))
        case .intention: self = .intention(try container.decode(String.self, forKey: .text))
        case .back: self = .back
        case .focus: self = .focus(try container.decode(Bool.self, forKey: .focused))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .choice)
        switch self {
        case .typedLine(let text), .intention(let text): try container.encode(text, forKey: .text)
        case .focus(let focused): try container.encode(focused, forKey: .focused)
        case .exitToFocus, .deepen, .proceed, .alternative, .back: break
        }
    }
}
