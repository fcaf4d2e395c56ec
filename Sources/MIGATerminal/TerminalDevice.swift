/// Something that happened at the terminal while the pause was waiting.
public enum TerminalEvent: Equatable, Sendable {
    case key(Key)
    /// The window changed size: draw again at once.
    case resized
    /// SIGTSTP from outside (Ctrl-Z itself arrives as a key in raw mode).
    case suspendRequested
    /// Back from a stop (SIGCONT): raw mode and the screen must come back.
    case resumed
    /// SIGINT, SIGTERM, SIGHUP or SIGQUIT: end now, restoring the terminal.
    case signal(Int32)
    /// The terminal is gone (its window was closed).
    case hangup
    /// The terminal said its background only after the first frame: the
    /// look for it, from now on.
    case background(TerminalBackground)
}

/// The terminal as the pause sees it. The real one is `TTY`; tests drive the
/// pause through a scripted double.
public protocol TerminalDevice: AnyObject {
    var size: TerminalSize { get }
    /// Ask the terminal, on `enter`, to report when its window gains and loses
    /// focus (`CSI ? 1004 h`); terminals that cannot simply never report.
    var reportsFocus: Bool { get set }
    /// Raw mode, alternate screen, hidden cursor.
    func enter()
    /// Everything back as it was. Safe to call more than once.
    func leave()
    func write(_ text: String)
    /// Waits at most `timeout` seconds and returns what happened (possibly nothing).
    func nextEvents(timeout: Double) -> [TerminalEvent]
    /// Leaves, stops the process like Ctrl-Z does, and enters again on `fg`.
    func suspend()
    /// Whether the terminal's background is light or dark, asked of the
    /// terminal itself once entered (OSC 11), waiting at most `timeout`.
    func background(within timeout: Double) -> TerminalBackground
    /// Where signals arrive as bytes (SIGINT, SIGTERM…), for a loop of its own; -1 if nowhere.
    var signalDescriptor: Int32 { get }
    /// Drops the keys that came before the first frame was on screen: they
    /// were typed for something else (the shell's next line), never as a
    /// choice. The terminal's answers among them still count, and a paste
    /// still open stays a paste.
    func discardKeysTypedAhead()
    /// Bytes already waiting to be read (the rest of a burst or a paste).
    var hasPendingInput: Bool { get }
}

extension TerminalDevice {
    public func background(within timeout: Double) -> TerminalBackground { .unknown }
    public var signalDescriptor: Int32 { -1 }
    public func discardKeysTypedAhead() {}
    public var hasPendingInput: Bool { false }
}
