/// What a start at login (an autostart entry) does.
public enum LoginPolicy: String, CaseIterable, Sendable {
    /// The pause, in a window, as from the menu.
    case pause
    /// Not started; a notification says so, and how to open it.
    case skip
    /// Started without a pause, and recorded as a pass-through.
    case pass
}
