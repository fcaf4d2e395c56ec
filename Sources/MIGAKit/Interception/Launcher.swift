#if canImport(Glibc)
import Glibc
#endif

/// The real program, ready to start: where it is and exactly what it gets.
public struct Launch: Equatable, Sendable {
    /// The file to execute, from the PATH search.
    public let path: String
    /// The argument vector, byte for byte as the gateway received it (argv[0]
    /// is the command as typed), never joined into a shell string.
    public let arguments: [[UInt8]]
    /// Variables added to the environment the program inherits.
    public let environment: [String: String]

    public init(path: String, arguments: [[UInt8]], environment: [String: String] = [:]) {
        self.path = path
        self.arguments = arguments
        self.environment = environment
    }
}

/// Replaces the gateway with the real program.
public enum Launcher {
    /// Runs `launch` in place of this process. Returns only when that is
    /// impossible, saying why.
    public static func exec(_ launch: Launch) -> LaunchFailure {
        for (name, value) in launch.environment { setenv(name, value, 1) }
        SignalRouting.resetForExec()
        // Anything still buffered would be lost when the process image is replaced.
        fflush(nil)
        let arguments = launch.arguments.map { bytes -> UnsafeMutablePointer<CChar>? in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            copy.initialize(repeating: 0, count: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            return copy
        } + [nil]
        execv(launch.path, arguments)
        return LaunchFailure(path: launch.path, code: errno)
    }
}

/// An exec that failed: the message for the person and the exit status.
public struct LaunchFailure: Error, Equatable, Sendable {
    public let path: String
    public let code: Int32

    public var message: String { "miga: cannot run \(path): \(String(cString: strerror(code)))" }

    /// 127 when the file vanished in the meantime, 126 when it cannot be executed.
    public var status: Int32 { code == ENOENT ? ExitStatus.notInstalled : ExitStatus.cannotExecute }
}
