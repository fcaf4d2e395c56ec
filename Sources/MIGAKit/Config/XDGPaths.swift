#if canImport(Glibc)
import Glibc
#endif

/// Where MIGA keeps its files, following the XDG Base Directory specification.
public struct XDGPaths: Sendable, Equatable {
    public let configHome: String
    public let dataHome: String

    public init(configHome: String, dataHome: String) {
        self.configHome = configHome
        self.dataHome = dataHome
    }

    /// The directories named by `XDG_CONFIG_HOME` and `XDG_DATA_HOME`, or their
    /// defaults under the home directory. Relative values are ignored, as the
    /// specification asks.
    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.passwordHome() ?? "/"
        func base(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + fallback
        }
        configHome = base("XDG_CONFIG_HOME", "/.config")
        dataHome = base("XDG_DATA_HOME", "/.local/share")
    }

    public var configDirectory: String { configHome + "/miga" }
    public var configFile: String { configDirectory + "/config.toml" }
    /// The person's own quotes, one file or more in the quote format.
    public var userQuotesDirectory: String { configDirectory + "/quotes" }
    public var dataDirectory: String { dataHome + "/miga" }
    public var storeFile: String { dataDirectory + "/miga.sqlite" }
    public var shimDirectory: String { dataDirectory + "/shims" }

    private static func passwordHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}

/// Creates `path` and any missing parents with `mode` (0700 for MIGA's private
/// folders). Existing folders are left as they are.
public func makeDirectories(_ path: String, mode: mode_t = 0o700) throws(FileSystemError) {
    if access(path, F_OK) == 0 { return }
    var built = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
        built += "/" + component
        if mkdir(built, mode) != 0 && errno != EEXIST {
            throw FileSystemError(path: built, code: errno)
        }
    }
}

/// A failed file-system call, with the path and the system's reason.
public struct FileSystemError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let code: Int32

    public var description: String { "\(path): \(String(cString: strerror(code)))" }
}

/// The contents of a file as text, or nil when it does not exist.
public func readTextFile(_ path: String) throws(FileSystemError) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 {
        if errno == ENOENT { return nil }
        throw FileSystemError(path: path, code: errno)
    }
    defer { close(fd) }
    var info = stat()
    let size = fstat(fd, &info) == 0 ? max(0, Int(info.st_size)) : 0
    var failure: Int32 = 0
    // Read straight into the string's own storage (which repairs bytes that
    // are not UTF-8): a 2 MB quote collection read in chunks and copied
    // costs milliseconds at every pause.
    var text = String(unsafeUninitializedCapacity: size) { buffer in
        var filled = 0
        while filled < buffer.count {
            let count = read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { failure = errno }
            if count <= 0 { break }
            filled += count
        }
        return filled
    }
    if failure != 0 { throw FileSystemError(path: path, code: failure) }
    // A file that grew since fstat (or one /proc-like, of size 0): the rest.
    var rest: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw FileSystemError(path: path, code: errno)
        }
        if count == 0 { break }
        rest.append(contentsOf: chunk[0..<count])
    }
    if !rest.isEmpty {
        // Decoded together, so a character split across the two reads stays whole.
        text = String(decoding: Array(text.utf8) + rest, as: UTF8.self)
    }
    return text
}
