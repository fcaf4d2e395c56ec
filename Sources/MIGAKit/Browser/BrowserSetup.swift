#if canImport(Glibc)
import Glibc
#endif
import MIGACore
import MIGAConfig
import MIGADesktop

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

    /// Equips every browser found; nothing found, nothing written.
    public func run() -> [Outcome] {
        let found = finder.find()
        var linkProblem: String?
        if found.contains(where: \.canBeEquipped) {
            do { try link.place() } catch { linkProblem = error.description }
        }
        return found.map { browser in
            guard browser.canBeEquipped else { return Outcome(browser: browser, state: .cannot, advice: [asProgram(browser)]) }
            if let linkProblem { return Outcome(browser: browser, state: .failed(linkProblem), advice: []) }
            let state = equip(browser.browser)
            if case .failed = state { return Outcome(browser: browser, state: state, advice: []) }
            return Outcome(browser: browser, state: state, advice: [extensionAdvice(browser.browser)])
        }
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

    /// How to add MIGA's extension to `browser`, which takes it from no store.
    public func extensionAdvice(_ browser: KnownBrowser) -> String {
        // Not beside this miga (a build without `make extension`): where `make install` puts it.
        let folder = extensionFolder ?? "PREFIX/share/miga/extension"
        let missing = extensionFolder == nil ? " (once make install has put it there)" : ""
        switch browser.engine {
        case .firefox:
            return "the add-on: in about:debugging, This Firefox, Load Temporary Add-on…, pick \(folder)/firefox/manifest.json\(missing) "
                + "(until the browser closes); to keep it, Firefox ESR installs \(folder)/miga-firefox.xpi "
                + "from about:addons (Install Add-on From File…) once about:config's xpinstall.signatures.required is false"
        case .chromium:
            let page = browser.name == "Brave" ? "brave://extensions" : "chrome://extensions"
            let store = browser.storeOnly ? "MIGA's extension is in no store: " : ""
            return "the extension: \(store)open \(page), switch on Developer mode, choose Load unpacked and pick \(folder)/chromium\(missing)"
        }
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
