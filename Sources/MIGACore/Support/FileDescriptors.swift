#if canImport(Glibc)
import Glibc
#endif

/// Writes every byte of `bytes` to `fd`, retrying after interrupts and short
/// writes. Returns false when the descriptor is gone (a closed terminal window
/// reports EIO); callers on the way out ignore that and carry on.
@discardableResult
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard var cursor = bytes.baseAddress else { return true }
    var left = bytes.count
    while left > 0 {
        let written = write(fd, cursor, left)
        if written < 0 {
            if errno == EINTR || errno == EAGAIN { continue }
            return false
        }
        cursor += written
        left -= written
    }
    return true
}

@discardableResult
public func writeAll(_ fd: Int32, _ text: String) -> Bool {
    var text = text
    return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
}

/// A line for the person at the terminal, on standard error.
/// Nothing in it reaches the terminal as a control sequence: a message may
/// quote a name from a file, an argument or another machine.
public func printError(_ message: String) {
    let clean = printableLines(message)
    writeAll(2, clean.hasSuffix("\n") ? clean : clean + "\n")
}

/// One variable of this process's environment (nil when unset).
public func environmentVariable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// This process's environment, read straight from `environ` (Foundation's
/// `ProcessInfo` builds the same dictionary at several times the cost, and
/// every launch pays for it).
public func processEnvironment() -> [String: String] {
    environment(of: environ)
}

/// The variables of an `environ`-like list. A name given twice keeps its
/// first value, the one getenv (so `environmentVariable`) and every C
/// program read.
func environment(of entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
    var result: [String: String] = [:]
    var cursor = entries
    while let entry = cursor.pointee {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "=") {
            let name = String(text[..<equals])
            if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
        }
        cursor += 1
    }
    return result
}
