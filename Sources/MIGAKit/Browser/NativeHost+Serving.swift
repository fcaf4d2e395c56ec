#if canImport(Glibc)
import Glibc
#endif
import MIGACore

extension NativeHost {
    /// Answers messages from `input` on `output` until the browser closes
    /// the stream (0) or a message cannot be read (65: the stream cannot
    /// be read on after a broken frame). While the conversation watches the
    /// rules, a change of the config folder wakes it too, and changed rules
    /// are sent unasked.
    public func serve(input: Int32, output: Int32) -> Int32 {
        var watch: ConfigWatch?
        while true {
            if watching != nil, watch == nil {
                watch = ConfigWatch(paths: paths)
                // What changed between the rules sent and the watch begun.
                if let rules = changedRules(), !send(rules, to: output) { return failed() }
            }
            if let watch, !waitForInput(input, or: watch) {
                if watch.drain(), let rules = changedRules(), !send(rules, to: output) { return failed() }
                continue
            }
            let message: [UInt8]?
            do {
                message = try NativeMessage.next { readUpTo($0, from: input) }
            } catch {
                finish()
                return ExitStatus.dataError
            }
            guard let message else {
                finish()
                return ExitStatus.success
            }
            guard send(answer(message), to: output) else { return failed() }
        }
    }

    /// The browser went away mid-answer: the conversation ends as if it had closed it.
    private func failed() -> Int32 {
        finish()
        return ExitStatus.failure
    }

    /// Waits for the browser's next message (true) or a change in the config folder (false).
    private func waitForInput(_ input: Int32, or watch: ConfigWatch) -> Bool {
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            // A closed stream reads as input: its end is what the reader finds.
            return ready < 0 || fds[0].revents != 0 || fds[1].revents == 0
        }
    }

    private func send(_ answer: [UInt8], to output: Int32) -> Bool {
        guard let framed = NativeMessage.frame(answer) ?? NativeMessage.frame(encoded(Failure(error: "the answer is too long"))) else {
            return false
        }
        return framed.withUnsafeBytes { writeAll(output, $0) }
    }
}

/// Up to `count` bytes from `fd`, fewer only at the end of the stream (or a failure).
private func readUpTo(_ count: Int, from fd: Int32) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var got = 0
    while got < count {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, count - got) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        got += n
    }
    return Array(bytes.prefix(got))
}
