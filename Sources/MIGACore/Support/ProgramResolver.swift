#if canImport(Glibc)
import Glibc
#endif

/// A file's identity: device and inode, which no path trick can fake.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// The identity of the file at `path`, following symbolic links.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// The running `miga` binary, however it was reached (a shim, a symlink).
    public static var currentExecutable: FileIdentity? { FileIdentity(path: "/proc/self/exe") }
}

/// Finds the real program behind a command name with a PATH search of its own.
///
/// `execvp("firefox")` would find the shim again, so the search skips the shim
/// directory and any file that is this gateway itself (compared by device and
/// inode, not by path strings).
public struct ProgramResolver: Sendable {
    public let searchPath: String
    public let skippedFiles: Set<FileIdentity>
    public let skippedDirectories: Set<FileIdentity>

    /// The default PATH of glibc's execvp when PATH is unset.
    static let defaultSearchPath = "/bin:/usr/bin"

    public init(searchPath: String?, skippingFiles: [FileIdentity?] = [], skippingDirectories: [String] = []) {
        self.searchPath = searchPath ?? Self.defaultSearchPath
        skippedFiles = Set(skippingFiles.compactMap { $0 })
        skippedDirectories = Set(skippingDirectories.compactMap { FileIdentity(path: $0) })
    }

    /// The path to execute for `command`, or nil when it is not installed.
    /// A command with a slash is taken as a path, as a shell would.
    public func resolve(_ command: String) -> String? {
        guard !command.isEmpty else { return nil }
        if command.contains("/") {
            return isRunnable(command) ? command : nil
        }
        for entry in searchPath.split(separator: ":", omittingEmptySubsequences: false) {
            // An empty entry means the current directory.
            let directory = entry.isEmpty ? "." : String(entry)
            if let identity = FileIdentity(path: directory), skippedDirectories.contains(identity) { continue }
            let candidate = directory.hasSuffix("/") ? directory + command : directory + "/" + command
            if isRunnable(candidate) { return candidate }
        }
        return nil
    }

    /// When `resolve` finds nothing: the file that stands where the program
    /// should be but cannot be run (a folder, a file without execute
    /// permission), with why, as a shell would say it; nil when there is none.
    public func unrunnable(_ command: String) -> (path: String, reason: String)? {
        guard !command.isEmpty else { return nil }
        let candidates = command.contains("/") ? [command]
            : searchPath.split(separator: ":", omittingEmptySubsequences: false).compactMap { entry -> String? in
                let directory = entry.isEmpty ? "." : String(entry)
                if let identity = FileIdentity(path: directory), skippedDirectories.contains(identity) { return nil }
                return directory.hasSuffix("/") ? directory + command : directory + "/" + command
            }
        for path in candidates {
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            if skippedFiles.contains(FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))) { continue }
            if info.st_mode & S_IFMT == S_IFDIR { return (path, "it is a folder") }
            if access(path, X_OK) != 0 { return (path, "it is not executable (permission denied)") }
            if info.st_mode & S_IFMT != S_IFREG { return (path, "it is not a regular file") }
        }
        return nil
    }

    private func isRunnable(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 else { return false }
        return !skippedFiles.contains(FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }
}

extension FileIdentity {
    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
