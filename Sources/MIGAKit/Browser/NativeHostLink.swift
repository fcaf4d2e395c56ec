#if canImport(Glibc)
import Glibc
#endif
import MIGACore

/// The `miga-native-host` link the host manifests name: a browser starts
/// the host by a path, with no words of MIGA's choosing, and miga started
/// by this name is the host. It lives in MIGA's data folder
/// (`~/.local/share/miga/miga-native-host`), beside the shims, and points
/// at the same miga they do, so it outlives a build folder.
public struct NativeHostLink: Sendable {
    public static let name = "miga-native-host"

    public let path: String
    /// The miga it points at.
    public let gateway: String

    public init(paths: XDGPaths, gateway: String) {
        path = paths.dataDirectory + "/" + Self.name
        self.gateway = gateway
    }

    /// Where the link points, or nil when there is no link at `path`.
    var target: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Puts the link in place, pointing at `gateway` (idempotent): a new link
    /// is renamed over the old one, so a browser starting the host meanwhile
    /// finds one or the other. A link of MIGA's (to a miga) is replaced;
    /// anything else at its place is left alone and named in the error.
    /// Returns whether anything changed.
    @discardableResult
    public func place() throws(FileSystemError) -> Bool {
        if let target {
            if target == gateway { return false }
            guard baseName(of: target).hasPrefix("miga") else {
                throw FileSystemError(path: path, code: EEXIST, reason: "a link to \(target), not MIGA's; move it aside, then run this again")
            }
        } else {
            var info = stat()
            if lstat(path, &info) == 0 {
                throw FileSystemError(path: path, code: EEXIST, reason: "not MIGA's link; move it aside, then run this again")
            }
        }
        try makeDirectories(baseFolder)
        let temporary = "\(path).\(getpid()).new"
        unlink(temporary)
        guard symlink(gateway, temporary) == 0 else { throw FileSystemError(path: temporary, code: errno) }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileSystemError(path: path, code: code)
        }
        return true
    }

    private var baseFolder: String {
        String(path.dropLast(Self.name.count + 1))
    }
}
