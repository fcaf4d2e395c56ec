#if canImport(Glibc)
import Glibc
#endif
import MIGACore

/// The folder of shims: one symbolic link per protected command, named after
/// it and pointing at the `miga` binary, placed first in PATH by the shell
/// hook. Started under another name, `miga` acts as `miga gate NAME`.
public struct ShimDirectory: Sendable {
    public let path: String
    /// The binary the links point to.
    public let gateway: String

    public init(path: String, gateway: String) {
        self.path = path
        self.gateway = gateway
    }

    /// The link for `command`. Returns false when it was already in place.
    @discardableResult
    public func install(_ command: String) throws(FileSystemError) -> Bool {
        if let problem = folderProblem {
            throw FileSystemError(path: path, code: ENOTDIR, reason: problem + " (move it aside, then: miga doctor --fix)")
        }
        try makeDirectories(path)
        let link = path + "/" + command
        if target(of: link) == gateway { return false }
        unlink(link)
        guard symlink(gateway, link) == 0 else { throw FileSystemError(path: link, code: errno) }
        return true
    }

    /// Removes the link for `command`, only if it is a link (never a file someone put there).
    public func remove(_ command: String) throws(FileSystemError) {
        let link = path + "/" + command
        guard target(of: link) != nil else { return }
        guard unlink(link) == 0 || errno == ENOENT else { throw FileSystemError(path: link, code: errno) }
    }

    /// Whether `command` has a link here that reaches a working gateway.
    public func isInstalled(_ command: String) -> Bool {
        let link = path + "/" + command
        guard target(of: link) != nil else { return false }
        return access(link, X_OK) == 0
    }

    /// Why no shim can be written here, when something other than a folder
    /// (a file, a dangling link) holds the folder's name. MIGA leaves it
    /// alone: it is not MIGA's to move.
    public var folderProblem: String? {
        var info = stat()
        if stat(path, &info) == 0 {
            return info.st_mode & S_IFMT == S_IFDIR ? nil : "is not a folder"
        }
        guard errno == ENOENT else { return "cannot be read (\(String(cString: strerror(errno))))" }
        var link = stat()
        return lstat(path, &link) == 0 ? "is a link to nothing" : nil
    }

    /// Where a symbolic link points, or nil when `link` is not one.
    func target(of link: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(link, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The miga that shims, entries and the hook line name: the running one,
    /// unless it runs from a build folder (SwiftPM's `.build`) and an installed
    /// miga is there to name instead (on PATH, in ~/.local/bin, in /usr/bin):
    /// a route must outlive `make clean` and a removed clone.
    public static func routeGateway(running: String, environment: [String: String]) -> String {
        guard isInBuildFolder(running) else { return running }
        let onPath = ProgramResolver(searchPath: environment["PATH"],
                                     skippingDirectories: [XDGPaths(environment: environment).shimDirectory]).resolve("miga")
        let candidates = [onPath, environment["HOME"].map { $0 + "/.local/bin/miga" }, "/usr/bin/miga"].compactMap { $0 }
        return candidates.first { access($0, X_OK) == 0 && !isInBuildFolder(realpath($0) ?? $0) } ?? running
    }

    /// Whether `path` is in a build folder, which `make clean` removes.
    public static func isInBuildFolder(_ path: String) -> Bool {
        path.split(separator: "/").contains(".build")
    }

    /// The path of the running `miga` binary, for the links to point at.
    public static var runningGateway: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
