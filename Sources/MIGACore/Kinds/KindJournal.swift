/// What the history says of one program's kinds of pause: what the learner
/// (`KindChooser`) chooses by. The store keeps the journal; it never chooses.
public struct KindJournal: Equatable, Sendable {
    public var records: [PauseKind: KindRecord]
    /// The kind of the program's latest pause (open ones included), if it had one.
    public var last: PauseKind?

    public init(records: [PauseKind: KindRecord] = [:], last: PauseKind? = nil) {
        self.records = records
        self.last = last
    }
}
