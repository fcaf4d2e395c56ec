/// What the history says of one program's kinds of pause: what the learner
/// (`KindChooser`) chooses by. The store keeps the journal; it never chooses.
public struct KindJournal: Equatable, Sendable {
    /// Each kind's evidence, older pauses weighing less (`KindEvidence.discounted`).
    public var evidence: [PauseKind: KindEvidence]
    /// The kind of the program's latest pause (open ones included), if it had one.
    public var last: PauseKind?
    /// The program's pauses since the learner began there, in the order they
    /// ended: what the favourite is counted from (`KindFavourite`).
    public var pauses: [LearnedPause]

    public init(evidence: [PauseKind: KindEvidence] = [:], last: PauseKind? = nil, pauses: [LearnedPause] = []) {
        self.evidence = evidence
        self.last = last
        self.pauses = pauses
    }
}
