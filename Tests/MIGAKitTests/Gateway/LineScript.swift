import Foundation
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGATestSupport

/// One end of a pipe, closed at most once whichever thread gets there first.
final class PipeEnd: @unchecked Sendable {
    private let lock = NSLock()
    private var fd: Int32

    init(_ fd: Int32) { self.fd = fd }

    func write(_ text: String) { lock.withLock { if fd >= 0 { writeAll(fd, text) } } }

    func close() {
        lock.withLock {
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }
}

/// Two ends of a close-on-exec pipe: children other tests spawn meanwhile
/// must not inherit the write end, or the end of input would never come.
func makePipe() -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    precondition(pipe(&ends) == 0)
    // A child spawned between pipe() and here could still inherit them; the
    // watchdog in `LineScript` ends such a test instead of hanging it.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
}

/// A conversation with the line pause: its input a pipe, its clock a manual
/// one, and each reply sent (after some time passes) once the words it
/// answers have been printed. When the replies run out the pipe is closed,
/// so a pause that waits for more ends as a hangup instead of hanging.
final class LineScript {
    struct Reply {
        let after: String
        let wait: Double
        let send: String?
        /// Done just before the words are sent: a signal arriving, say.
        var before: ((LineScript) -> Void)? = nil
    }

    let time = ManualTime()
    /// The pause's input, for words sent from elsewhere (another thread).
    var input: PipeEnd { writeEnd }
    private(set) var written = ""
    private var unheard = ""
    private var replies: [Reply]
    private let readEnd: Int32
    private let writeEnd: PipeEnd

    init(_ replies: [Reply]) {
        self.replies = replies
        (readEnd, writeEnd) = { let ends = makePipe(); return (ends.read, PipeEnd(ends.write)) }()
    }

    func run(_ session: inout PauseSession, quotes: [Quote] = LinePauseTests.quotes, signals: Int32 = -1, width: Int = 80,
             onDeepen: @escaping (PauseSession) -> Void = { _ in }, shouldYield: (() -> Bool)? = nil) -> PauseEnding {
        let watchdog = writeEnd
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { watchdog.close() }
        if replies.isEmpty { writeEnd.close() }
        defer {
            writeEnd.close()
            close(readEnd)
        }
        return LinePause.run(&session, input: readEnd, signals: signals, output: heard, time: time, width: width,
                             world: ScriptedWorld(quotes: quotes, onDeepen: onDeepen, shouldYield: shouldYield))
    }

    private func heard(_ text: String) {
        written += text
        unheard += text
        while let reply = replies.first, let found = unheard.range(of: reply.after) {
            unheard = String(unheard[found.upperBound...])
            replies.removeFirst()
            time.advance(reply.wait)
            reply.before?(self)
            if let send = reply.send { writeEnd.write(send) }
            if replies.isEmpty { writeEnd.close() }
        }
    }

    /// Only printable text and "\n": no C0 control (ESC, BEL, CR), no DEL, no C1.
    var isPlainText: Bool { LinePauseTests.isPlain(written) }
}

func reply(after text: String, wait: Double = 0, send: String? = nil) -> LineScript.Reply {
    LineScript.Reply(after: text, wait: wait, send: send)
}
