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
        self.init(variable: { environment[$0] })
    }

    /// This process's folders, each variable read on its own: the shell hook,
    /// which every new shell asks for, needs two, not a copy of the environment.
    public static var ofProcess: XDGPaths { XDGPaths(variable: environmentVariable) }

    private init(variable: (String) -> String?) {
        let home = variable("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? Self.passwordHome() ?? "/"
        func base(_ name: String, _ fallback: String) -> String {
            if let value = variable(name), value.hasPrefix("/") { return value }
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
