#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore

/// Finds the browsers a person has: by their commands on PATH (MIGA's own
/// shims skipped: a protected browser is still that browser), and by the
/// settings folders they leave, for a browser started some other way.
public struct BrowserFinder: Sendable {
    let paths: XDGPaths
    let home: String
    let resolver: ProgramResolver

    /// `gateway`: this miga, which no browser command found on PATH may be.
    public init(environment: [String: String], gateway: String? = nil) {
        paths = XDGPaths(environment: environment)
        home = Self.home(environment, paths)
        resolver = ProgramResolver(searchPath: environment["PATH"], skippingFiles: [gateway.flatMap { FileIdentity(path: $0) }],
                                   skippingDirectories: [paths.shimDirectory])
    }

    /// The home folder, where Firefox keeps `.mozilla` (whatever XDG says).
    static func home(_ environment: [String: String], _ paths: XDGPaths) -> String {
        environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? String(paths.configHome.dropLast("/.config".count))
    }

    /// Every browser found, in `KnownBrowser.all`'s order.
    public func find() -> [FoundBrowser] {
        var found = KnownBrowser.all.compactMap { browser in installation(of: browser).map { FoundBrowser(browser: browser, installation: $0) } }
        // Browsers sharing folders (Firefox, Firefox ESR) are one browser there.
        for browser in KnownBrowser.all where !found.contains(where: { $0.browser.hosts == browser.hosts }) {
            if isFolder(browser.settings.path(home: home, paths: paths)) {
                found.append(FoundBrowser(browser: browser, installation: .settingsOnly))
            } else if let id = browser.flatpakID, isFolder(home + "/.var/app/" + id) {
                found.append(FoundBrowser(browser: browser, installation: .flatpak(id)))
            }
        }
        return KnownBrowser.all.flatMap { browser in found.filter { $0.browser == browser } }
    }

    /// Where `browser`'s host manifests go for this person.
    public func hostsFolder(of browser: KnownBrowser) -> String {
        browser.hosts.path(home: home, paths: paths)
    }

    /// When `browser` last ran here, as far as its settings folder tells:
    /// the latest change to the folder or to what is directly in it (a
    /// browser rewrites its state file and its profiles' files, through
    /// renames, as it starts, runs and closes). Nil when it never ran here.
    public func lastRun(of browser: KnownBrowser) -> Date? {
        let folder = browser.settings.path(home: home, paths: paths)
        // MIGA's own writing there (the host manifests' folder) is no sign of the browser.
        let hosts = baseName(of: hostsFolder(of: browser))
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0 != hosts }
        return ([folder] + names.map { folder + "/" + $0 }).compactMap(modificationDate).max()
    }

    private func installation(of browser: KnownBrowser) -> FoundBrowser.Installation? {
        for command in browser.commands {
            if let path = resolver.resolve(command) { return Self.installation(at: path) }
        }
        if let id = browser.flatpakID, resolver.resolve(id) != nil { return .flatpak(id) }
        return nil
    }

    /// How the executable at `path` is installed: a Snap's command is a link
    /// to `snap` (in /snap/bin), a Flatpak app's is in an `exports/bin` folder.
    static func installation(at path: String) -> FoundBrowser.Installation {
        if path.hasPrefix("/snap/") || realpath(path).map({ baseName(of: $0) }) == "snap" { return .snap(path) }
        if path.contains("/flatpak/exports/bin/") { return .flatpak(baseName(of: path)) }
        return .native(path)
    }

    private func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
