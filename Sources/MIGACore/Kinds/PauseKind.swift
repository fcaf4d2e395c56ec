/// The kinds of pause, each a variant of the same calm screen: the person
/// chooses which (`pause_kinds`), and MIGA which of them to show each time
/// (`rotate`).
public enum PauseKind: String, CaseIterable, Codable, Sendable, Comparable {
    /// The breathing ring and a quote.
    case breathe
    /// Proceed needs a short line typed back exactly.
    case type
    /// "What are you opening it for?", answered before it opens.
    case intention
    /// One of the person's own alternatives, offered as a way out.
    case instead

    public static let defaults: [PauseKind] = [.breathe]

    /// The kinds by name, in order and comma-separated, as help and the
    /// template list them: the one place the list is written out, so a new
    /// kind shows everywhere. `glosses` adds words in brackets after a kind.
    public static func names(glossing glosses: [PauseKind: String] = [:]) -> String {
        allCases.map { kind in glosses[kind].map { "\(kind.rawValue) (\($0))" } ?? kind.rawValue }.joined(separator: ", ")
    }

    /// "a typed pause", for the line that says why the kind changed.
    public var described: String {
        switch self {
        case .breathe: "a breathing pause"
        case .type: "a typed pause"
        case .intention: "an intention pause"
        case .instead: "a pause with an alternative"
        }
    }

    public static func < (lhs: PauseKind, rhs: PauseKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// How MIGA picks the kind of each pause among those chosen.
public enum Rotation: String, CaseIterable, Sendable {
    /// Thompson sampling over each kind's record of conscious exits.
    case adaptive
    /// Each in turn, in the order of `pause_kinds`.
    case cycle
    /// Always the first.
    case off
}
