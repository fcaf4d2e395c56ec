#if canImport(Glibc)
import Glibc
#endif
import MIGACore
import MIGAConfig
import MIGADesktop
import MIGAStore

/// `miga browser setup`: equips each browser found with the host manifest
/// that lets MIGA's extension start `miga native-host`, and says for each
/// what is left to the person (loading the extension; for a sandboxed
/// browser, protecting it as a program instead). Idempotent: what is in
/// place already is left as it is.
public struct BrowserSetup: Sendable {
    public let finder: BrowserFinder
    public let link: NativeHostLink
    /// Where the unpacked extensions are (`chromium/`, `firefox/`), if beside this miga.
    public let extensionFolder: String?
    let config: Config

    /// `gateway`: the miga the link points at; `running`: this binary, beside which the extension is installed.
    public init(environment: [String: String], gateway: String, running: String, config: Config) {
        finder = BrowserFinder(environment: environment, gateway: gateway)
        link = NativeHostLink(paths: XDGPaths(environment: environment), gateway: gateway)
        extensionFolder = Self.extensionFolder(beside: running)
        self.config = config
    }

    /// For this person's folders and this miga: the link points where the shims do.
    public init(protection: Protection) {
        self.init(environment: protection.environment, gateway: protection.shims.gateway,
                  running: ShimDirectory.runningGateway ?? protection.shims.gateway, config: protection.config)
    }

    /// The browsers found that a manifest reaches, by name: what setup offers to equip.
    public var equippable: [String] {
        finder.find().filter(\.canBeEquipped).map(\.title)
    }

    /// What `run` did: each browser's outcome, and the host link's change
    /// when it pointed at another miga (or at nothing) before.
    public struct Report: Sendable {
        public let outcomes: [Outcome]
        /// "The host link … now points at …", when it changed.
        public let linkChange: String?
    }

    /// What became of one browser.
    public struct Outcome: Equatable, Sendable {
        public enum State: Equatable, Sendable {
            /// Its manifest is in place (`changed`: written just now).
            case equipped(manifest: String, changed: Bool)
            /// A sandboxed browser: no manifest of the home's reaches it.
            case cannot
            /// Something stood in the way, named.
            case failed(String)
        }

        public let browser: FoundBrowser
        public let state: State
        /// What the person does next, a line each.
        public let advice: [String]
    }

    /// Equips every browser found; nothing found, nothing written. What it
    /// writes is recorded in MIGA's manifest, for `miga uninstall`.
    public func run() -> Report {
        let found = finder.find()
        var linkProblem: String?
        var linkChange: String?
        if found.contains(where: \.canBeEquipped) {
            let before = link.target
            do {
                if try link.place() {
                    linkChange = before.map { "The host link \(printable(link.path)) now points at \(printable(link.gateway)) "
                        + "(it pointed at \(printable($0)))." }
                }
            } catch { linkProblem = error.description }
        }
        let outcomes = found.map { browser in
            guard browser.canBeEquipped else { return Outcome(browser: browser, state: .cannot, advice: [asProgram(browser)]) }
            if let linkProblem { return Outcome(browser: browser, state: .failed(linkProblem), advice: []) }
            let state = equip(browser.browser)
            if case .failed = state { return Outcome(browser: browser, state: state, advice: []) }
            return Outcome(browser: browser, state: state, advice: [extensionAdvice(browser.browser)])
        }
        recordParts()
        return Report(outcomes: outcomes, linkChange: linkChange)
    }

    /// Records in MIGA's manifest what lets the browsers reach MIGA, as it
    /// is here now (MIGA's host manifests in this person's folders, the
    /// host's link, the extension's folder in MIGA's data folder), so that
    /// `miga uninstall` takes it away; a setup from before such records
    /// is recorded so too.
    public func recordParts() {
        let manifests = KnownBrowser.all.map { finder.hostsFolder(of: $0) + "/" + HostManifest.fileName }.filter {
            if case .ours = HostManifest.read($0) { true } else { false }
        }
        var parts = manifests
        if let target = link.target, baseName(of: target).hasPrefix("miga") { parts.append(link.path) }
        // Where `make install PREFIX=~/.local` (as `make run` does) puts the
        // extension: in MIGA's data folder, so it goes with MIGA.
        let folder = finder.paths.dataDirectory + "/extension"
        if access(folder, F_OK) == 0 { parts.append(folder) }
        guard !parts.isEmpty else { return }
        var manifest = Manifest(path: Manifest.path(in: finder.paths))
        for part in Set(parts).sorted() { manifest.record(.browserPart(path: part)) }
        try? manifest.save()
    }

    /// Writes `browser`'s manifest, unless it is there already or something not MIGA's stands in its place.
    func equip(_ browser: KnownBrowser) -> Outcome.State {
        let file = finder.hostsFolder(of: browser) + "/" + HostManifest.fileName
        let manifest = HostManifest(engine: browser.engine, path: link.path)
        switch HostManifest.read(file) {
        case .notOurs(let reason):
            return .failed("\(file): \(reason); MIGA leaves it alone (move it aside, then run this again)")
        case .ours(let existing) where existing.text == manifest.text:
            return .equipped(manifest: file, changed: false)
        case .ours, .missing:
            do {
                try makeDirectories(finder.hostsFolder(of: browser))
                try writeIfChanged(manifest.text, to: file, mode: 0o644)
                return .equipped(manifest: file, changed: true)
            } catch {
                return .failed(error.description)
            }
        }
    }

    /// For a browser MIGA cannot equip: protecting it as a program, unless it is already.
    public func asProgram(_ browser: FoundBrowser) -> String {
        let why = "its sandbox keeps it from starting MIGA's host, so its tabs cannot pause sites."
        if isProtectedAsProgram(browser) { return "\(why) It is protected as a program: every start of it pauses." }
        return "\(why) Protect the browser as a program instead: miga protect \(browser.command)"
    }

    /// Whether the config protects `browser` as a program (by any of its names, or its Flatpak app).
    public func isProtectedAsProgram(_ browser: FoundBrowser) -> Bool {
        ([browser.command] + browser.browser.commands).contains { config.program(named: $0) != nil }
            || browser.browser.flatpakID.map { config.program(flatpak: $0) != nil || config.program(named: $0) != nil } == true
    }

    /// How to add MIGA's extension, for each browser found that a manifest
    /// can reach and whose extension has never reached MIGA (`store`: where
    /// that is kept; nil when nothing is yet): what setup's last page and the
    /// hub's site tiles say until it has. Browsers sharing one extension
    /// (Firefox and Firefox ESR) are one, by the first one's name.
    public func extensionSteps(store: SessionStore?) -> [(browser: String, how: String)] {
        let waiting = finder.find().filter { found in
            found.canBeEquipped && BrowserConnections.lastReached(found.browser.id, in: store) == nil
        }
        var ids: [String] = []
        for found in waiting where !ids.contains(found.browser.id) { ids.append(found.browser.id) }
        return ids.compactMap { id in
            waiting.first { $0.browser.id == id }.map { (printable($0.title), extensionClicks($0.browser)) }
        }
    }

    /// How to add MIGA's extension to `browser`, which takes it from no store;
    /// nothing to do where MIGA's package put it where the browser loads it by itself.
    public func extensionAdvice(_ browser: KnownBrowser) -> String {
        if let system = systemExtension(browser) {
            return "the extension: \(browser.name) loads it by itself from \(system), where MIGA's package put it "
                + "(restart the browser if it was running)"
        }
        // Not beside this miga (a build without `make extension`): where `make install` puts it.
        let folder = extensionFolder ?? "PREFIX/share/miga/extension"
        let missing = extensionFolder == nil ? " (once make install has put it there)" : ""
        switch browser.engine {
        case .firefox:
            let xpi = folder + "/miga-firefox.xpi"
            let keep = extensionFolder != nil && access(xpi, R_OK) != 0 ? ""
                : "; to keep it, Firefox ESR installs \(xpi) from about:addons (Install Add-on From File…) "
                + "once about:config's xpinstall.signatures.required is false"
            return "the add-on: in about:debugging, This Firefox, Load Temporary Add-on…, pick \(folder)/firefox/manifest.json\(missing) "
                + "(until the browser closes)" + keep
        case .chromium:
            let page = browser.name == "Brave" ? "brave://extensions" : "chrome://extensions"
            let store = browser.storeOnly ? "MIGA's extension is in no store: " : ""
            return "the extension: \(store)open \(page), switch on Developer mode, choose Load unpacked and pick \(folder)/chromium\(missing)"
        }
    }

    /// The same, as the clicks alone, short enough for setup's last page and
    /// the hub (`miga browser setup` gives the whole of it).
    func extensionClicks(_ browser: KnownBrowser) -> String {
        if systemExtension(browser) != nil { return "nothing to do: it loads MIGA's extension by itself" }
        var folder = extensionFolder ?? "PREFIX/share/miga/extension"
        if let home = finder.home.isEmpty ? nil : finder.home, folder.hasPrefix(home + "/") { folder = "~" + folder.dropFirst(home.count) }
        switch browser.engine {
        case .firefox: return "about:debugging → This Firefox → Load Temporary Add-on → \(printable(folder))/firefox/manifest.json"
        case .chromium:
            let page = browser.name == "Brave" ? "brave://extensions" : "chrome://extensions"
            return "\(page) → Developer mode → Load unpacked → \(printable(folder))/chromium"
        }
    }

    /// Where MIGA's package put the extension for `browser` to load by
    /// itself (Debian's chromium loads every folder in its system extensions
    /// folder, Debian's firefox-esr the unsigned add-ons of the system scope);
    /// nil when it is not there.
    func systemExtension(_ browser: KnownBrowser) -> String? {
        let folder = switch (browser.engine, browser.name) {
        case (.chromium, "Chromium"): "/usr/share/chromium/extensions/miga"
        case (.firefox, _): "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/\(NativeHost.geckoID)"
        default: ""
        }
        return !folder.isEmpty && access(folder + "/manifest.json", R_OK) == 0 ? folder : nil
    }

    /// The unpacked extensions beside the binary at `running`: installed
    /// (`PREFIX/bin/miga`, `PREFIX/share/miga/extension`) or built
    /// (`.build/TRIPLE/debug/miga`, `.build/extension`).
    static func extensionFolder(beside running: String) -> String? {
        let binaryFolder = String((realpath(running) ?? running).split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/"))
        let prefix = String(binaryFolder.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        // A build's binary is in .build/TRIPLE/debug, its extension in .build/extension.
        let build = String(prefix.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        return [prefix + "/share/miga/extension", build + "/extension"].first { folder in
            access(folder + "/chromium/manifest.json", R_OK) == 0 || access(folder + "/firefox/manifest.json", R_OK) == 0
        }
    }
}
