#if canImport(Glibc)
import Glibc
#endif
import MIGACore
import MIGADesktop

/// The `miga-native-host` link the host manifests name: a browser starts
/// the host by a path, with no words of MIGA's choosing, and miga started
/// by this name is the host. It lives in MIGA's data folder
/// (`~/.local/share/miga/miga-native-host`), beside the shims, and points
/// at the same miga they do, so it outlives a build folder.
public struct NativeHostLink: Sendable {
    public static let name = InternalCommand.nativeHostName

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

    /// Doctor's word on the link: nothing while it is missing (browser
    /// setup makes it) or reaches a miga; a problem when it is MIGA's and
    /// points at nothing (the miga it named was removed: a package taken
    /// away, a build folder cleaned), since no browser can start the host.
    public func findings() -> [Finding] {
        guard let target, !reachesAMiga else { return [] }
        let what = realpath(path) == nil ? "which is not there" : "which is no miga"
        return [Finding(ok: false, text: "the browsers' host link \(printable(path)) points at \(printable(target)), \(what): "
                        + "no browser can reach MIGA", fix: "miga doctor --fix (points it at this miga)")]
    }

    /// Points a link of MIGA's that reaches no miga at `gateway`; the line
    /// that says so, or nil when it needed nothing.
    public func mend() -> String? {
        guard let target, !reachesAMiga, (try? place()) == true else { return nil }
        return "The browsers' host link \(printable(path)) pointed at \(printable(target)); it now points at \(printable(gateway))."
    }

    /// Whether the link leads to an executable miga.
    private var reachesAMiga: Bool {
        guard let resolved = realpath(path) else { return false }
        return baseName(of: resolved).hasPrefix("miga") && access(resolved, X_OK) == 0
    }

    private var baseFolder: String {
        String(path.dropLast(Self.name.count + 1))
    }
}
