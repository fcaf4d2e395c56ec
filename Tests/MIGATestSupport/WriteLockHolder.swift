import Foundation

/// Another process writing to a store: the sqlite3 shell inside a BEGIN
/// IMMEDIATE for `seconds`, then committing. Its lock is a real one of
/// another process (SQLite's locks on the file), as a second miga's is.
final class WriteLockHolder {
    private let process = Process()
    private let held: String

    init(storeAt path: String, seconds: Int) throws {
        held = path + ".held-\(UUID().uuidString.prefix(8))"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The mark is made once the lock is held, and the commit comes `seconds` later.
        let script = "BEGIN IMMEDIATE;\n.shell touch '\(held)'\n.shell sleep \(seconds)\nCOMMIT;\n"
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        unlink(held)
    }

    /// Waits until the other process holds the lock (a generous ceiling: machines under load are slow to start one).
    func waitUntilHeld() throws {
        let deadline = Date() + 30
        while access(held, F_OK) != 0 {
            guard process.isRunning, Date() < deadline else {
                throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "sqlite3 never took the write lock"])
            }
            usleep(10_000)
        }
    }

    /// Waits until the other process has committed and let go.
    func waitUntilDone() {
        process.waitUntilExit()
    }

    /// Whether it still holds the lock.
    var isHolding: Bool { process.isRunning }
}
