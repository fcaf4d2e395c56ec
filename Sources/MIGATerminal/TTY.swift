#if canImport(Glibc)
import Glibc
#endif
import MIGACore

/// The real terminal: standard input and output, when both are terminals.
public final class TTY: TerminalDevice {
    private let inputDescriptor: Int32 = 0
    private let output: Int32 = 1
    private let saved: termios
    private let signalPipe: Int32
    private var isEntered = false
    public var reportsFocus = false
    /// Keys and the terminal's answers, across reads.
    private var input = TerminalInput()
    /// Keys that came while the terminal was being asked something, for the screen.
    private var heldKeys: [Key] = []

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
        let environment = processEnvironment()
        return TerminalSize(columns: saneDimension(environment["COLUMNS"]) ?? 80, rows: saneDimension(environment["LINES"]) ?? 24)
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
        tcsetattr(inputDescriptor, TCSANOW, &raw)
        SignalRouting.armCrashRestore(fd: inputDescriptor, termios: saved, sequence: Self.leaveSequence)
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
        tcsetattr(inputDescriptor, TCSAFLUSH, &original)
        SignalRouting.disarmCrashRestore()
    }

    public func write(_ text: String) {
        writeAll(output, text)
    }

    public var signalDescriptor: Int32 { signalPipe }

    /// The background asked for once per process and remembered.
    private var askedBackground: TerminalBackground?

    /// Asks the terminal for its background colour (OSC 11) together with
    /// its primary device attributes (DA1), which every terminal answers:
    /// the DA1 answer ends the wait, so a terminal that ignores OSC 11
    /// costs one round trip, never the whole `timeout`. Keys typed meanwhile
    /// are kept for the screen; an answer that comes later still never
    /// reaches it as keys, and one that never ends holds back no Exit for
    /// long (see `TerminalInput`).
    public func background(within timeout: Double) -> TerminalBackground {
        if let askedBackground { return askedBackground }
        write("\u{1B}]11;?\u{1B}\\\u{1B}[c")
        let clock = SystemTime()
        input.asked(at: clock.monotonic())
        let deadline = clock.monotonic() + timeout
        var found: TerminalBackground?
        var answered = false
        while !answered {
            let left = deadline - clock.monotonic()
            guard left > 0 else { break }
            var descriptor = pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32((left * 1000).rounded(.up))) > 0 else { break }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(inputDescriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            let taken = input.take(Array(buffer[0..<count]), at: clock.monotonic())
            heldKeys += taken.keys
            found = taken.background ?? found
            answered = taken.attributesAnswered
        }
        askedBackground = found ?? .unknown
        return found ?? .unknown
    }

    public func nextEvents(timeout: Double) -> [TerminalEvent] {
        // Keys that came in while the terminal was being asked something.
        if !heldKeys.isEmpty {
            defer { heldKeys = [] }
            return heldKeys.map(TerminalEvent.key)
        }
        let clock = SystemTime()
        var fds = [pollfd(fd: signalPipe, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)]
        // A lone Esc waits a moment for the rest of a sequence, then is the key.
        let wait = input.deadline.map { min(timeout, max(0, $0 - clock.monotonic())) } ?? timeout
        let ready = poll(&fds, nfds_t(fds.count), Int32(max(0, wait * 1000).rounded(.up)))
        var events: [TerminalEvent] = []
        if ready < 0 { return events }
        if ready == 0 { return input.expire(at: clock.monotonic()).map(TerminalEvent.key) }
        if fds[0].revents & Int16(POLLIN) != 0 { events += signalEvents() }
        let inputFlags = fds[1].revents
        if inputFlags & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(inputDescriptor, &buffer, buffer.count)
            if count > 0 {
                let taken = input.take(Array(buffer[0..<count]), at: clock.monotonic())
                events += taken.keys.map(TerminalEvent.key)
                // The background, answered after the first frame: the look it calls for, from now on.
                if let background = taken.background, askedBackground == .unknown {
                    askedBackground = background
                    events.append(.background(background))
                }
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

/// The width of standard output when it is a terminal, else `$COLUMNS` if sane, else 80.
public func outputColumns(environment: [String: String]) -> Int {
    var window = winsize()
    if isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 { return Int(window.ws_col) }
    return saneDimension(environment["COLUMNS"]) ?? 80
}

/// `COLUMNS` or `LINES` when the window cannot be asked: a whole number a
/// window could be (a shell may export a stale or made-up one).
func saneDimension(_ value: String?) -> Int? {
    value.flatMap { Int($0.trimmingWhitespace()) }.flatMap { (2...2000).contains($0) ? $0 : nil }
}

/// Colours for output in the flow of the terminal: none when standard output
/// is not a terminal (a pipe, a file) or under NO_COLOR.
public func outputPalette(environment: [String: String]) -> Palette {
    var capabilities = TerminalCapabilities.detect(environment: environment)
    if isatty(1) != 1 && !ColorMode.isForced(environment) { capabilities.colors = .none }
    return Palette(capabilities, fullScreen: false)
}
