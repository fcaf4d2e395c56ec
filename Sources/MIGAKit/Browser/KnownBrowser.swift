#if canImport(Glibc)
import Glibc
#endif
import MIGACore

/// A browser MIGA's extension runs in, and where it looks for native
/// messaging hosts: the one place that names them (docs/SITES.md, Installing).
public struct KnownBrowser: Sendable, Equatable {
    /// A folder of the browser's, under the home (Firefox keeps `~/.mozilla`)
    /// or the config home (Chromium and its kin follow `XDG_CONFIG_HOME`).
    enum Folder: Sendable, Equatable {
        case home(String)
        case config(String)

        func path(home: String, paths: XDGPaths) -> String {
            switch self {
            case .home(let relative): home + "/" + relative
            case .config(let relative): paths.configHome + "/" + relative
            }
        }
    }

    public let name: String
    /// How the extension names it to the host, and the history's keys of
    /// what it reported (`BrowserConnections`): one per settings folder,
    /// so Firefox and Firefox ESR are one.
    public let id: String
    /// How it starts the host, and which extension it runs (Chromium's or Firefox's).
    public let engine: NativeHost.Browser
    /// The commands a native install is started by, the usual one first.
    public let commands: [String]
    /// Its Flatpak app, which no host outside the sandbox can reach.
    public let flatpakID: String?
    /// Its settings: a browser that ran here once left them, whatever its command.
    let settings: Folder
    /// Where it reads host manifests for this user.
    let hosts: Folder
    /// Where it reads them for every user (a package's, such as MIGA's .deb).
    public let systemHosts: [String]

    static let mozillaSystemHosts = ["/usr/lib/mozilla/native-messaging-hosts", "/usr/lib64/mozilla/native-messaging-hosts"]

    /// Every browser MIGA equips, in the order they are reported. Firefox
    /// and Firefox ESR share their folders (one manifest serves both).
    public static let all: [KnownBrowser] = [
        KnownBrowser(name: "Firefox", id: "firefox", engine: .firefox, commands: ["firefox"], flatpakID: "org.mozilla.firefox",
                     settings: .home(".mozilla/firefox"), hosts: .home(".mozilla/native-messaging-hosts"), systemHosts: mozillaSystemHosts),
        KnownBrowser(name: "Firefox ESR", id: "firefox", engine: .firefox, commands: ["firefox-esr"], flatpakID: nil,
                     settings: .home(".mozilla/firefox"), hosts: .home(".mozilla/native-messaging-hosts"), systemHosts: mozillaSystemHosts),
        KnownBrowser(name: "Chromium", id: "chromium", engine: .chromium, commands: ["chromium", "chromium-browser"], flatpakID: "org.chromium.Chromium",
                     settings: .config("chromium"), hosts: .config("chromium/NativeMessagingHosts"),
                     systemHosts: ["/etc/chromium/native-messaging-hosts"]),
        KnownBrowser(name: "Google Chrome", id: "google-chrome", engine: .chromium, commands: ["google-chrome", "google-chrome-stable"],
                     flatpakID: "com.google.Chrome",
                     settings: .config("google-chrome"), hosts: .config("google-chrome/NativeMessagingHosts"),
                     systemHosts: ["/etc/opt/chrome/native-messaging-hosts"]),
        KnownBrowser(name: "Brave", id: "brave", engine: .chromium, commands: ["brave-browser"], flatpakID: "com.brave.Browser",
                     settings: .config("BraveSoftware/Brave-Browser"), hosts: .config("BraveSoftware/Brave-Browser/NativeMessagingHosts"),
                     systemHosts: []),
    ]

    /// The browser the extension says it runs in (`id`), when that is one
    /// started as `caller` says; else the engine's own (Chromium, Firefox).
    public static func reporting(_ id: String?, caller: NativeHost.Browser) -> String {
        all.first { $0.id == id && $0.engine == caller }?.id ?? caller.rawValue
    }

    /// Whether it takes only extensions from its store, so that MIGA's is loaded
    /// by hand (Developer mode). Chromium takes them by hand too, and Debian's
    /// from a system folder; Firefox ESR takes an unsigned add-on once allowed.
    public var storeOnly: Bool { engine == .chromium && name != "Chromium" }
}

/// A browser as this person has it: where it was found, and whether the host can reach it.
public struct FoundBrowser: Sendable, Equatable {
    public enum Installation: Sendable, Equatable {
        /// Started by this executable, outside any sandbox.
        case native(String)
        /// Its settings folder is here, its command is not on PATH.
        case settingsOnly
        /// A Snap (`/snap/bin/NAME`, a link to `snap`): its confinement starts no host of the home's.
        case snap(String)
        /// A Flatpak app (its exported command, or its folder under ~/.var/app).
        case flatpak(String)
    }

    public let browser: KnownBrowser
    public let installation: Installation

    /// Whether a host manifest of the home's reaches it.
    public var canBeEquipped: Bool {
        switch installation {
        case .native, .settingsOnly: true
        case .snap, .flatpak: false
        }
    }

    /// The name to protect it by as a program (`miga protect NAME`).
    public var command: String {
        switch installation {
        case .native(let path), .snap(let path): baseName(of: path)
        case .flatpak(let id): id
        case .settingsOnly: browser.commands[0]
        }
    }

    /// Its name, with how it is installed when that matters.
    public var title: String {
        switch installation {
        case .native, .settingsOnly: browser.name
        case .snap: browser.name + " (Snap)"
        case .flatpak: browser.name + " (Flatpak)"
        }
    }
}
