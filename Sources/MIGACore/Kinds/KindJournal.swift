/// What the history says of one program's kinds of pause: what the learner
/// (`KindChooser`) chooses by. The store keeps the journal; it never chooses.
public struct KindJournal: Equatable, Sendable {
    /// Each kind's evidence, older pauses weighing less (`KindEvidence.discounted`).
    public var evidence: [PauseKind: KindEvidence]
    /// The kind of the program's latest pause (open ones included), if it had one.
    public var last: PauseKind?
    /// Whether the learner should seek a favourite among the kinds in use
    /// (`KindFavourite.isSought`), counted from the same pauses as `miga stats`
    /// counts the favourite, so that seeking ends where the stats name one.
    public var seekingFavourite: Bool

    public init(evidence: [PauseKind: KindEvidence] = [:], last: PauseKind? = nil, seekingFavourite: Bool = false) {
        self.evidence = evidence
        self.last = last
        self.seekingFavourite = seekingFavourite
    }
}
