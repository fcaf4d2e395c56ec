#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAStore

/// Which browsers' extensions are connected to MIGA now, and when each last
/// reached it: what `miga doctor` says of a browser, and what
/// `miga protect --site` waits for.
///
/// A connected extension keeps a host watching the rules for it (`watch`).
/// That host leaves a file in `folder`, named after the browser and its
/// process, holding its process's identity and the generation of the rules
/// the extension last put in place, and removes it when the browser closes
/// the conversation; a file whose process is gone is stale and is removed
/// by whoever reads it. When a browser last reached MIGA is kept in the
/// history's meta (`reachedKey`), so it outlives the connection.
public struct BrowserConnections: Sendable {
    /// One extension connected now.
    public struct Connection: Equatable, Sendable {
        /// Which browser (`KnownBrowser.id`).
        public let browser: String
        let identity: ProcessIdentity
        /// The generation of the rules it has in place (`SiteRules.generation`), once it has said.
        public let applied: String?
        let file: String
    }

    let paths: XDGPaths
    var folder: String { paths.dataDirectory + "/browsers" }
    var storeFile: String { paths.storeFile }

    public init(paths: XDGPaths) {
        self.paths = paths
    }

    /// The history's key for when `browser`'s extension last reached MIGA (milliseconds since 1970).
    public static func reachedKey(_ browser: String) -> String { "sites.reached.\(browser)" }

    /// The history's key for whether `browser`'s extension may run in private windows (`allowed` or `refused`).
    public static func privateWindowsKey(_ browser: String) -> String { "sites.private-windows.\(browser)" }

    /// The extensions connected now; the files of those gone are removed.
    public func live() -> [Connection] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().compactMap { name -> Connection? in
            let file = folder + "/" + name
            // BROWSER.PID; a writer's temporary beside it has more dots.
            let parts = name.split(separator: ".")
            guard parts.count == 2, let text = (try? readTextFile(file, limit: 4096)) ?? nil else { return nil }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let identity = lines.first.flatMap(ProcessIdentity.init), identity.isRunning else {
                unlink(file)
                return nil
            }
            let applied = lines.count > 1 && !lines[1].isEmpty ? lines[1] : nil
            return Connection(browser: String(parts[0]), identity: identity, applied: applied, file: file)
        }
    }

    /// This process, connected for `browser`: its file, with nothing applied yet.
    func register(_ browser: String) -> String? {
        let identity = ProcessIdentity.current()
        let file = folder + "/\(browser).\(identity.pid)"
        return write(identity, applied: nil, to: file) ? file : nil
    }

    /// The extension behind `file` has put `generation` in place.
    func applied(_ generation: String, at file: String) {
        _ = write(.current(), applied: generation, to: file)
    }

    func unregister(_ file: String) {
        unlink(file)
    }

    /// Keeps that `browser`'s extension reached MIGA at `now`, and what it
    /// said of private windows; nothing once MIGA's folders are gone
    /// (`uninstall --purge` with a browser running): no history is begun for it.
    func reached(_ browser: String, at now: Date, privateWindows: Bool?) {
        guard isInstalled, let (store, _) = try? SessionStore.openRescuing(path: storeFile, now: now) else { return }
        try? store.setMeta(Self.reachedKey(browser), String(now.milliseconds))
        if let privateWindows { try? store.setMeta(Self.privateWindowsKey(browser), privateWindows ? "allowed" : "refused") }
    }

    /// When `browser`'s extension last reached MIGA, if it ever did.
    public static func lastReached(_ browser: String, in store: SessionStore?) -> Date? {
        ((try? store?.meta(reachedKey(browser))) ?? nil).flatMap { Int64($0) }.map(Date.init(milliseconds:))
    }

    /// Waits, at most `timeout` seconds, until every connected extension has
    /// the rules of the config as it stands now in place (after `protect
    /// --site`, `unprotect --site`, setup's sites, uninstall): a line for
    /// each that has not by then.
    public func catchUp(timeout: Double = 3, clock: some TimeSource = SystemTime()) -> [String] {
        guard let generation = SiteRules.generation(paths: paths) else { return [] }
        return waitFor(generation, timeout: timeout, clock: clock).map { connection in
            let name = KnownBrowser.all.first { $0.id == connection.browser }?.name ?? connection.browser
            return "Note: \(name) has not confirmed the change yet; it takes it when its extension next reaches MIGA."
        }
    }

    /// Waits, at most `timeout` seconds, until every connected extension has
    /// `generation` in place; those that have not by then.
    func waitFor(_ generation: String, timeout: Double, clock: some TimeSource) -> [Connection] {
        let deadline = clock.monotonic() + timeout
        while true {
            let behind = live().filter { $0.applied != generation }
            if behind.isEmpty || clock.monotonic() >= deadline { return behind }
            usleep(20_000)
        }
    }

    /// Whether MIGA has a folder here still: a purge takes both away.
    private var isInstalled: Bool {
        access(paths.configDirectory, F_OK) == 0 || access(paths.dataDirectory, F_OK) == 0
    }

    private func write(_ identity: ProcessIdentity, applied: String?, to file: String) -> Bool {
        guard isInstalled else { return false }
        do {
            try makeDirectories(folder)
            try atomicWrite(identity.description + "\n" + (applied ?? "") + "\n", to: file, mode: 0o600)
            return true
        } catch {
            return false
        }
    }
}
