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
    /// The background, answered among keys typed ahead of the first frame.
    private var lateBackground: TerminalBackground?
    /// Inside a bracketed paste, as the keys read so far say.
    private var pasting = false
    /// The most bytes one look at the terminal reads (a long paste comes in several).
    static let longestRead = 4096

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
        drainAwaitedAnswers()
        var original = saved
        // Keys typed after the choice are the shell's (or the program's that
        // starts next): the next command, typed ahead. Kept, never flushed.
        tcsetattr(inputDescriptor, TCSADRAIN, &original)
        SignalRouting.disarmCrashRestore()
    }

    /// An answer to the background question still on its way would reach
    /// the shell as text: read up to its end, within its patience. Only
    /// then is anything read here; a terminal that answered long ago (all
    /// of them, nearly always) costs nothing.
    private func drainAwaitedAnswers() {
        let clock = SystemTime()
        while let deadline = input.answerDeadline, case let left = deadline - clock.monotonic(), left > 0 {
            var descriptor = pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32((left * 1000).rounded(.up))) > 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(inputDescriptor, &buffer, buffer.count)
            guard count > 0 else { return }
            _ = input.take(Array(buffer[0..<count]), at: clock.monotonic())
        }
    }

    public func discardKeysTypedAhead() {
        var keys = heldKeys
        heldKeys = []
        let clock = SystemTime()
        var descriptor = pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 0) > 0, descriptor.revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(inputDescriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            let taken = input.take(Array(buffer[0..<count]), at: clock.monotonic())
            keys += taken.keys
            if let background = taken.background, askedBackground == .unknown { lateBackground = background }
        }
        // A paste that began before the frame and goes on after it is still no keys.
        if let start = keys.lastIndex(of: .pasteStart), keys.lastIndex(of: .pasteEnd).map({ $0 < start }) ?? true {
            heldKeys = [.pasteStart]
            pasting = true
        }
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
        // Keys that came in while the terminal was being asked something,
        // and the background answered while typed-ahead keys were dropped.
        if !heldKeys.isEmpty || lateBackground != nil {
            defer { (heldKeys, lateBackground) = ([], nil) }
            if let lateBackground { askedBackground = lateBackground }
            return heldKeys.map(TerminalEvent.key) + (lateBackground.map { [.background($0)] } ?? [])
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
            events += readKeys(at: clock)
        } else if inputFlags & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            events.append(.hangup)
        }
        return events
    }

    /// What is waiting at the terminal, a byte at a time, up to the first
    /// key that may be a choice: what was typed after it stays in the
    /// terminal for whoever reads next (the shell, when the choice ends the
    /// pause). A paste, whose keys are no choices, is read whole.
    private func readKeys(at clock: SystemTime) -> [TerminalEvent] {
        var events: [TerminalEvent] = []
        for index in 0..<Self.longestRead {
            var byte: UInt8 = 0
            let count = read(inputDescriptor, &byte, 1)
            if count <= 0 {
                if index == 0 && (count == 0 || (errno != EINTR && errno != EAGAIN)) { events.append(.hangup) }
                break
            }
            let taken = input.take([byte], at: clock.monotonic())
            var mayChoose = false
            for key in taken.keys {
                switch key {
                case .pasteStart: pasting = true
                case .pasteEnd: pasting = false
                default: mayChoose = mayChoose || !pasting
                }
                events.append(.key(key))
            }
            // The background, answered after the first frame: the look it calls for, from now on.
            if let background = taken.background, askedBackground == .unknown {
                askedBackground = background
                events.append(.background(background))
            }
            var descriptor = pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)
            if mayChoose || poll(&descriptor, 1, 0) <= 0 { break }
        }
        return events
    }

    public var hasPendingInput: Bool {
        var descriptor = pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
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
