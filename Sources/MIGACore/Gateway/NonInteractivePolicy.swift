/// What the gateway does when there is no terminal to show the pause in.
public enum NonInteractivePolicy: String, CaseIterable, Sendable {
    /// Run the program at once and record a pass-through (never hang a script).
    case pass
    /// Open the pause in a terminal window, and the program from there.
    case terminal
    /// Refuse, with a message and a non-zero status.
    case deny
}
