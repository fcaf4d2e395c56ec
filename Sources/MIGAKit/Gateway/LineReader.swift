#if canImport(Glibc)
import Glibc
#endif
import MIGATerminal

/// Lines from a descriptor in canonical mode, waited for with poll(2) beside
/// the signal pipe, so the countdown goes on while nobody types.
struct LineReader {
    enum Event: Equatable {
        case line(String)
        /// The time ran out, or something arrived that is not a whole line yet.
        case nothing
        case ended
        case signal(Int32)
        case suspendRequested
        case resumed
    }

    let input: Int32
    let signals: Int32
    private var pending: [UInt8] = []
    private var queued: [Event] = []
    private var isEnded = false

    /// A line longer than this without a newline is taken as it is: a pipe
    /// without line breaks must not grow without end.
    static let longestLine = 4096

    init(input: Int32, signals: Int32) {
        self.input = input
        self.signals = signals
    }

    /// Ctrl-Z with the signal routed to us: stop for real, as the shell expects.
    static func suspend() {
        SignalRouting.setDefault(SIGTSTP)
        raise(SIGTSTP) // the process stops here until `fg`
        SignalRouting.forward(SIGTSTP)
    }

    /// The next line or happening, waiting at most `timeout` seconds (nil: as long as it takes).
    mutating func next(timeout: Double?) -> Event {
        if !queued.isEmpty { return queued.removeFirst() }
        if let line = takeLine() { return .line(line) }
        if isEnded { return .ended }
        // poll(2) skips a negative descriptor: without a signal pipe, only the input.
        var fds = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        let milliseconds = timeout.map { Int32(min(Double(Int32.max), max(0, $0 * 1000).rounded(.up))) } ?? -1
        guard poll(&fds, nfds_t(fds.count), milliseconds) > 0 else { return .nothing }
        if fds[0].revents & Int16(POLLIN) != 0 { readSignals() }
        if fds[1].revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 {
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = read(input, &buffer, buffer.count)
            if count > 0 {
                pending += buffer[0..<count]
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                isEnded = true
            }
        }
        if !queued.isEmpty { return queued.removeFirst() }
        if let line = takeLine() { return .line(line) }
        return isEnded ? .ended : .nothing
    }

    private mutating func takeLine() -> String? {
        if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
            defer { pending.removeSubrange(...end) }
            return String(decoding: pending[..<end], as: UTF8.self)
        }
        guard pending.count > Self.longestLine else { return nil }
        defer { pending.removeAll() }
        return String(decoding: pending, as: UTF8.self)
    }

    /// One read: a non-blocking pipe or not, it never waits, and what is
    /// left comes with the next poll.
    private mutating func readSignals() {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(signals, &buffer, buffer.count)
        guard count > 0 else { return }
        for byte in buffer[0..<count] {
            switch Int32(byte) {
            case SIGWINCH: break // lines need no redrawing
            case SIGTSTP: queued.append(.suspendRequested)
            case SIGCONT: queued.append(.resumed)
            case let signal: queued.append(.signal(signal))
            }
        }
    }
}
