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
    /// The start of an escape sequence the last read cut off, for the next.
    private var carried: [UInt8] = []
    /// How long to wait for the rest of a cut-off sequence before taking it as it is.
    static let sequenceWait = 0.05

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

    public var signalDescriptor: Int32 { signalPipe }

    /// The background asked for once per process and remembered.
    private var askedBackground: TerminalBackground?

    /// Asks the terminal for its background colour (OSC 11) together with
    /// its primary device attributes (DA1), which every terminal answers:
    /// the DA1 answer ends the wait, so a terminal that ignores OSC 11
    /// costs one round trip, never the whole `timeout`. Keys typed meanwhile
    /// are kept for the pause.
    public func background(within timeout: Double) -> TerminalBackground {
        if let askedBackground { return askedBackground }
        write("\u{1B}]11;?\u{1B}\\\u{1B}[c")
        let deadline = SystemTime().monotonic() + timeout
        var reply: [UInt8] = []
        var answered = false
        while !answered {
            let left = deadline - SystemTime().monotonic()
            guard left > 0 else { break }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32((left * 1000).rounded(.up))) > 0 else { break }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(input, &buffer, buffer.count)
            guard count > 0 else { break }
            reply += buffer[0..<count]
            answered = Self.endsDeviceAttributes(reply)
        }
        let found = TerminalBackground.from(osc11: reply) ?? .unknown
        // What is not an answer (a key pressed at that moment) goes to the pause.
        carried = Self.withoutAnswers(reply) + carried
        askedBackground = found
        return found
    }

    /// Whether `bytes` hold a DA1 answer: `ESC [ ? … c`.
    static func endsDeviceAttributes(_ bytes: [UInt8]) -> Bool {
        guard let start = bytes.indices.first(where: { bytes[$0] == 0x1B && $0 + 2 < bytes.count
                                                        && bytes[$0 + 1] == UInt8(ascii: "[") && bytes[$0 + 2] == UInt8(ascii: "?") })
        else { return false }
        return bytes[(start + 3)...].contains(UInt8(ascii: "c"))
    }

    /// `bytes` without the OSC 11 and DA1 answers. An answer cut off by the
    /// deadline is kept whole, to be finished by the next read and dropped
    /// there by the key decoder, never read as keys ("rgb:dede" holds d and e).
    static func withoutAnswers(_ bytes: [UInt8]) -> [UInt8] {
        var kept: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "]") {
                // OSC: up to BEL or ST.
                var end = index + 2
                while end < bytes.count, bytes[end] != 0x07, !(bytes[end] == 0x1B && end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
                guard end < bytes.count else { return kept + bytes[index...] }
                index = bytes[end] == 0x07 ? end + 1 : end + 2
                continue
            }
            if bytes[index] == 0x1B, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "["), bytes[index + 2] == UInt8(ascii: "?") {
                var end = index + 3
                while end < bytes.count, bytes[end] != UInt8(ascii: "c") { end += 1 }
                guard end < bytes.count else { return kept + bytes[index...] }
                index = end + 1
                continue
            }
            kept.append(bytes[index])
            index += 1
        }
        return kept
    }

    public func nextEvents(timeout: Double) -> [TerminalEvent] {
        // Keys that came in while the terminal was being asked something.
        if !carried.isEmpty, !carried.contains(0x1B) {
            defer { carried = [] }
            return decoder.decode(carried).map(TerminalEvent.key)
        }
        var fds = [pollfd(fd: signalPipe, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        let wait = carried.isEmpty ? timeout : min(timeout, Self.sequenceWait)
        let ready = poll(&fds, nfds_t(fds.count), Int32(max(0, wait * 1000).rounded(.up)))
        var events: [TerminalEvent] = []
        if ready < 0 { return events }
        if ready == 0 && !carried.isEmpty {
            // The rest never came: what there is, as it is.
            defer { carried = [] }
            return decoder.decode(carried).map(TerminalEvent.key)
        }
        if fds[0].revents & Int16(POLLIN) != 0 { events += signalEvents() }
        let inputFlags = fds[1].revents
        if inputFlags & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(input, &buffer, buffer.count)
            if count > 0 {
                let (keys, rest) = decoder.decode(carried + buffer[0..<count], keepingIncomplete: true)
                carried = rest
                events += keys.map(TerminalEvent.key)
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
    var capabilities = TerminalCapabilities.detect(environment: environment)
    if isatty(1) != 1 && !ColorMode.isForced(environment) { capabilities.colors = .none }
    return Palette(capabilities, fullScreen: false)
}
