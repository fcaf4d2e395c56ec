/// The line setup offers to add to the shell's start-up file.
public struct HookOffer: Equatable, Sendable {
    /// As the person knows it (`~/.zshrc`).
    public let shownFile: String
    public let file: String
    public let line: String
    /// The file runs `miga init` already.
    public let present: Bool

    public init(shownFile: String, file: String, line: String, present: Bool) {
        self.shownFile = shownFile
        self.file = file
        self.line = line
        self.present = present
    }
}
