#if canImport(Glibc)
import Glibc
#endif

// Signal handlers may only do async-signal-safe things, so they write the
// signal's number to a pipe that the run loop polls beside the keyboard (the
// self-pipe trick). They are named global functions: a closure written in
// top-level code would be main-actor code and trap on another thread.

nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

private func forwardSignal(_ signal: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = savedErrno
}

// A crash (a Swift trap arrives as SIGILL or SIGTRAP) must not leave the
// terminal raw and on the alternate screen: the handler writes the prepared
// restore sequence and termios, then lets the signal take its normal course.

nonisolated(unsafe) private var crashRestoreFD: Int32 = -1
nonisolated(unsafe) private var crashRestoreTermios = termios()
nonisolated(unsafe) private var crashRestoreBytes: UnsafeMutablePointer<UInt8>?
nonisolated(unsafe) private var crashRestoreCount = 0

private func restoreTerminalAndCrash(_ signal: Int32) {
    if crashRestoreFD >= 0 {
        if let bytes = crashRestoreBytes { _ = write(crashRestoreFD, bytes, crashRestoreCount) }
        _ = tcsetattr(crashRestoreFD, TCSANOW, &crashRestoreTermios)
    }
    Glibc.signal(signal, SIG_DFL)
    raise(signal)
}

/// Installs and removes the gateway's signal handling.
package enum SignalRouting {
    static let forwarded: [Int32] = [SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT]
    static let crashes: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// Creates the pipe (close-on-exec, non-blocking) and returns its read end.
    static func install() -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return -1 }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        signalPipeWriteEnd = ends[1]
        for signal in forwarded { handle(signal, with: forwardSignal) }
        // A launcher may hand over a mask that blocks some of these; blocked,
        // Ctrl-Z or a closed window would wait forever instead of reaching us.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in forwarded { sigaddset(&handled, signal) }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
        // Writes to a closed terminal fail with an error instead of killing us.
        Glibc.signal(SIGPIPE, SIG_IGN)
        return ends[0]
    }

    /// Routes `signal` to the pipe again (after it was set to its default).
    package static func forward(_ signal: Int32) {
        handle(signal, with: forwardSignal)
    }

    static func handle(_ signal: Int32, with handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0 // no SA_RESTART: poll() wakes up at once
        sigaction(signal, &action, nil)
    }

    package static func setDefault(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }

    /// Remembers how to put the terminal back if the process crashes.
    static func armCrashRestore(fd: Int32, termios saved: termios, sequence: String) {
        crashRestoreBytes?.deallocate()
        let bytes = Array(sequence.utf8)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        buffer.initialize(from: bytes, count: bytes.count)
        crashRestoreBytes = buffer
        crashRestoreCount = bytes.count
        crashRestoreTermios = saved
        crashRestoreFD = fd
        for signal in crashes { handle(signal, with: restoreTerminalAndCrash) }
    }

    static func disarmCrashRestore() {
        crashRestoreFD = -1
        for signal in crashes { setDefault(signal) }
    }

    /// Every signal back to its default and none blocked, as a program started
    /// by `exec` expects (ignored signals would otherwise stay ignored in it).
    package static func resetForExec() {
        for signal in forwarded + crashes + [SIGPIPE] { setDefault(signal) }
        var empty = sigset_t()
        sigemptyset(&empty)
        sigprocmask(SIG_SETMASK, &empty, nil)
    }
}
