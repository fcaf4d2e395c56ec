/// One short text shown on the pause screen.
public struct Quote: Hashable, Sendable, Identifiable {
    public let id: String
    public let text: String
    /// Where the words come from; for MIGA's own texts an honest "inspired by …".
    public let source: String?
    public let tags: [String]
    /// The file of the person's own it came from; nil for the built-in bank.
    public let file: String?

    public init(id: String, text: String, source: String? = nil, tags: [String], file: String? = nil) {
        self.id = id
        self.text = text
        self.source = source
        self.tags = tags
        self.file = file
    }

    /// The text as lines the author meant: " / " marks a line break in a poem.
    public var verses: [String] {
        text.components(separatedBy: " / ")
    }
}

/// A line of a quote file that could not be read, with where it is.
public struct QuoteFileProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let message: String

    package init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): \(message)" }
}
