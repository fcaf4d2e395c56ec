#if canImport(Glibc)
import Glibc
#endif

/// The real terminal: standard input and output, when both are terminals.
public final class TTY: TerminalDevice {
    private let input: Int32 = 0
    private let output: Int32 = 1
    private let saved: termios
    private let signalPipe: Int32
    private let decoder = KeyDecoder()
    private var isEntered = false
    public var reportsFocus = false

    /// Bracketed paste on (`?2004h`): pasted text arrives marked, so a paste
    /// is never taken for keys pressed (a "p" in it is no Proceed, and a typed
    /// pause's line cannot be pasted).
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?2004h"
    /// Focus reporting is switched off whether or not it was on: harmless if
    /// it was not, and the crash handler cannot know.
    static let leaveSequence = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?1004l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
    static let focusReportingSequence = "\u{1B}[?1004h"

    /// The terminal, or nil when standard input or output is not one (a script,
    /// a pipe): then the gateway must never wait for keys. One per process:
    /// the hub and the pauses it opens share it.
    public static func open() -> TTY? {
        if let shared { return shared }
        guard isatty(0) == 1, isatty(1) == 1 else { return nil }
        var attributes = termios()
        guard tcgetattr(0, &attributes) == 0 else { return nil }
        shared = TTY(saved: attributes)
        return shared
    }

    nonisolated(unsafe) private static var shared: TTY?

    private init(saved: termios) {
        self.saved = saved
        signalPipe = SignalRouting.install()
    }

    public var size: TerminalSize {
        var window = winsize()
        if ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
            return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
        }
        return TerminalSize(columns: 80, rows: 24)
    }

    public func enter() {
        var raw = saved
        // Raw input (no echo, no line editing, Ctrl-C and Ctrl-Z as plain bytes)
        // but output processing kept, so "\n" still returns the carriage.
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(input, TCSANOW, &raw)
        SignalRouting.armCrashRestore(fd: input, termios: saved, sequence: Self.leaveSequence)
        write(Self.enterSequence + (reportsFocus ? Self.focusReportingSequence : ""))
        isEntered = true
    }

    public func leave() {
        guard isEntered else { return }
        isEntered = false
        write(Self.leaveSequence)
        var original = saved
        // TCSAFLUSH drops keys typed during the pause, so a stray "p" never
        // reaches the shell or the program that starts next.
        tcsetattr(input, TCSAFLUSH, &original)
        SignalRouting.disarmCrashRestore()
    }

    public func write(_ text: String) {
        writeAll(output, text)
    }

    public func nextEvents(timeout: Double) -> [TerminalEvent] {
        var fds = [pollfd(fd: signalPipe, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, nfds_t(fds.count), Int32(max(0, timeout * 1000).rounded(.up)))
        var events: [TerminalEvent] = []
        if ready < 0 { return events }
        if fds[0].revents & Int16(POLLIN) != 0 { events += signalEvents() }
        let inputFlags = fds[1].revents
        if inputFlags & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(input, &buffer, buffer.count)
            if count > 0 {
                events += decoder.decode(Array(buffer[0..<count])).map(TerminalEvent.key)
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                events.append(.hangup)
            }
        } else if inputFlags & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            events.append(.hangup)
        }
        return events
    }

    private func signalEvents() -> [TerminalEvent] {
        var events: [TerminalEvent] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(signalPipe, &buffer, buffer.count)
            guard count > 0 else { break }
            for byte in buffer[0..<count] {
                switch Int32(byte) {
                case SIGWINCH: events.append(.resized)
                case SIGTSTP: events.append(.suspendRequested)
                case SIGCONT: events.append(.resumed)
                case let signal: events.append(.signal(signal))
                }
            }
        }
        return events
    }

    public func suspend() {
        leave()
        SignalRouting.setDefault(SIGTSTP)
        raise(SIGTSTP) // the process stops here until `fg`
        SignalRouting.forward(SIGTSTP)
        enter()
    }
}

/// The width of standard output when it is a terminal, else `$COLUMNS`, else 80.
public func outputColumns(environment: [String: String]) -> Int {
    var window = winsize()
    if isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 { return Int(window.ws_col) }
    return environment["COLUMNS"].flatMap(Int.init) ?? 80
}

/// Colours for output in the flow of the terminal: none when standard output
/// is not a terminal (a pipe, a file) or under NO_COLOR.
public func outputPalette(environment: [String: String]) -> Palette {
    Palette(mode: isatty(1) == 1 ? ColorMode.detect(environment: environment) : .none, fullScreen: false)
}
