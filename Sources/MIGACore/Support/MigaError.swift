/// Why something MIGA was asked to do did not happen: one line for the
/// person, and the documented exit status it means (see `ExitStatus`).
/// Every library call that can be refused throws this one type, and the
/// executable says it and ends with its status in one place.
public struct MigaError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let status: Int32
    /// Said without "miga: " in front (see `line`).
    let standsAlone: Bool

    public init(_ message: String, status: Int32 = ExitStatus.failure) {
        self.init(message, status: status, standsAlone: false)
    }

    private init(_ message: String, status: Int32, standsAlone: Bool) {
        // One line, always: a message quoting a file's own line break would
        // start what looks like a message of its own.
        self.message = message.replacingOccurrences(of: "\r\n", with: "⏎").replacingOccurrences(of: "\n", with: "⏎")
            .replacingOccurrences(of: "\r", with: "⏎")
        self.status = status
        self.standsAlone = standsAlone
    }

    /// A program that is not installed (status 127), in the one documented
    /// message that stands alone: "Please install Firefox first."
    public init(notInstalled program: String) {
        self.init("Please install \(program) first.", status: ExitStatus.notInstalled, standsAlone: true)
    }

    /// A request MIGA will not carry out as asked (status 64).
    public init(usage message: String) { self.init(message, status: ExitStatus.usage) }

    /// A file that is not what it should be: nothing was taken from it (status 65).
    public init(dataError message: String) { self.init(message, status: ExitStatus.dataError) }

    public var description: String { message }

    /// The line to print: "miga: …", except the one documented message
    /// that stands alone ("Please install Firefox first."); another refusal
    /// with status 127 (a program gone between its search and its start) is
    /// said as any is.
    public var line: String { standsAlone ? message : "miga: " + message }
}
