#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore

/// The native messaging host manifest `miga.json`: how a browser finds
/// `miga native-host` (its `path`, a `miga-native-host` link to miga) and
/// which extension may start it (NativeHost's IDs, named nowhere else).
public struct HostManifest: Codable, Equatable, Sendable {
    /// The host's name, as the extension asks for it.
    public static let hostName = "miga"
    public static let fileName = hostName + ".json"

    public let name: String
    public let description: String
    public let path: String
    public let type: String
    /// Chromium's: the extensions' origins.
    public let allowedOrigins: [String]?
    /// Firefox's: the add-ons' IDs.
    public let allowedExtensions: [String]?

    enum CodingKeys: String, CodingKey {
        case name, description, path, type
        case allowedOrigins = "allowed_origins"
        case allowedExtensions = "allowed_extensions"
    }

    /// The manifest for `engine`, naming the host at `path`.
    public init(engine: NativeHost.Browser, path: String) {
        name = Self.hostName
        description = "MIGA: a calm pause before a protected site opens"
        self.path = path
        type = "stdio"
        allowedOrigins = engine == .chromium ? ["chrome-extension://\(NativeHost.chromiumExtensionID)/"] : nil
        allowedExtensions = engine == .firefox ? [NativeHost.geckoID] : nil
    }

    /// As written: keys in order, one to a line, slashes as they are.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }

    /// What stands at a manifest's place.
    public enum Found: Equatable, Sendable {
        case missing
        /// MIGA's: named `miga`, its path a `miga-native-host`.
        case ours(HostManifest)
        /// Something else MIGA leaves alone, and why it is not MIGA's.
        case notOurs(String)
    }

    /// Reads the manifest at `file`, never through a link (a manifest is a plain file).
    public static func read(_ file: String) -> Found {
        var info = stat()
        guard lstat(file, &info) == 0 else { return errno == ENOENT ? .missing : .notOurs("it cannot be read") }
        guard info.st_mode & S_IFMT == S_IFREG else { return .notOurs("it is not a plain file") }
        guard let text = try? readTextFile(file, limit: 64 << 10),
              let manifest = try? JSONDecoder().decode(HostManifest.self, from: Data(text.utf8)) else {
            return .notOurs("it is not a host manifest MIGA can read")
        }
        guard manifest.name == hostName, baseName(of: manifest.path) == NativeHostLink.name else {
            return .notOurs("it names another host")
        }
        return .ours(manifest)
    }

    /// Whether this manifest lets `engine`'s extension start the host that is `gateway`.
    public func reaches(_ gateway: String, for engine: NativeHost.Browser) -> Bool {
        let wanted = HostManifest(engine: engine, path: path)
        guard allowedOrigins == wanted.allowedOrigins, allowedExtensions == wanted.allowedExtensions,
              let host = realpath(path), let miga = realpath(gateway) else { return false }
        return host == miga && access(path, X_OK) == 0
    }
}
