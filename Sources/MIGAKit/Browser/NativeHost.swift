#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAConfig
import MIGAStore
import MIGADesktop

/// `miga native-host`: MIGA's side of native messaging with its browser
/// extension (docs/SITES.md). The browser starts it; it refuses to start for
/// any caller but MIGA's extension, as the browser names the caller in the
/// words it starts the host with (the browser allows no other extension to
/// start it; a local program could say the same words, and gets no more than
/// the person's own rules and a pause of its own). It answers one message
/// at a time until the browser closes the stream; a conversation that asked
/// to `watch` is also sent the rules again each time they change. Nothing in
/// a message is trusted: each is bounded (`NativeMessage`), decoded into one
/// of the few requests there are, and answered with an error when it is none
/// of them.
public final class NativeHost {
    /// The engines MIGA's extension runs in, told apart by how they call the host.
    public enum Browser: String, Sendable {
        case chromium, firefox
    }

    /// The Chromium extension's ID, from the `key` in its manifest (Extension/README.md).
    public static let chromiumExtensionID = "cbgolgnocihlfhpkfbbocelojnaodpbo"
    /// The Firefox add-on's ID (`browser_specific_settings.gecko.id`).
    public static let geckoID = "sites@miga"

    /// The longest address taken (a browser's own limit is about 2 MiB; an
    /// address a person opens is far shorter).
    static let longestURL = 16 * 1024

    let context: GatewayContext
    /// The engine calling (`caller`).
    let caller: Browser?
    var paths: XDGPaths { XDGPaths(environment: context.environment) }
    var connections: BrowserConnections { BrowserConnections(paths: paths) }
    /// The one pause this conversation holds, once asked for.
    private(set) var pause: SitePause?
    /// Which browser, once the extension has said (`KnownBrowser.id`).
    private var browser: String?
    /// This conversation's file among the connected browsers, while it watches.
    private(set) var watching: String?
    /// The generation of the rules last sent while watching.
    private var sentGeneration: String?

    /// `context`: the clocks, the randomness and where messages go (never
    /// standard output, which is the browser's); it has no terminal.
    public init(context: GatewayContext, browser: Browser?) {
        self.context = context
        caller = browser
    }

    /// The browser calling, from the words it starts the host with:
    /// Chromium gives the caller's origin (and on some systems a window
    /// handle after it), Firefox the manifest's path and the add-on's ID.
    /// Nil for any other caller.
    public static func caller(_ arguments: [String]) -> Browser? {
        if let origin = arguments.first, origin == "chrome-extension://\(chromiumExtensionID)/",
           arguments.dropFirst().allSatisfy({ $0.hasPrefix("--parent-window=") }) {
            return .chromium
        }
        if arguments.count == 2, arguments[0].hasPrefix("/"), arguments[0].hasSuffix(".json"), arguments[1] == geckoID {
            return .firefox
        }
        return nil
    }

    /// The answer to one message, as JSON.
    public func answer(_ message: [UInt8]) -> [UInt8] {
        let request: Request
        do {
            request = try JSONDecoder().decode(Request.self, from: Data(message))
        } catch {
            return encoded(Failure(error: "not a message MIGA understands"))
        }
        switch request.type {
        case .rules, .watch:
            reached(request)
            // Watching from now on, whatever the config says now: a change is sent when it comes.
            if request.type == .watch, watching == nil, let browser { watching = connections.register(browser) }
            // A config that cannot be read is no word on what is protected:
            // the extension keeps the rules it has rather than take none.
            var generator = context.generator
            guard let rules = SiteRules.load(paths: paths, generator: &generator) else {
                return encoded(Failure(error: "config.toml cannot be read; the rules you have stand"))
            }
            sentGeneration = rules.generation
            return encoded(rules)
        case .applied:
            if let watching, let generation = request.generation, generation.utf8.count <= 64 {
                connections.applied(generation, at: watching)
            }
            return encoded(Noted())
        case .pause: return begin(request.url)
        case .outcomes: return encoded(Recorded(count: record(request.items ?? [])))
        case .tick:
            guard let pause else { return encoded(Failure(error: "no pause is on")) }
            pause.tick()
            return encoded(StateAnswer(state: pause.state))
        case .choose:
            guard let pause, let choice = request.choice else {
                return encoded(Failure(error: pause == nil ? "no pause is on" : "a choice is needed"))
            }
            guard let ending = pause.choose(choice) else { return encoded(StateAnswer(state: pause.state)) }
            let proceeded = ending == .proceed
            // Counted from the Proceed's end as the history keeps it, as the verdict will count it.
            var allowedUntil: Date?
            if proceeded, let endedAt = pause.endedAt, let allowance = pause.start.settings.allowance {
                allowedUntil = GateVerdict.allowanceEnd(afterProceedAt: endedAt, allowance: allowance)
            }
            return encoded(Ended(ending: ending, open: proceeded ? pause.url : nil, allowedUntil: allowedUntil))
        }
    }

    /// The rules again, if they changed since they were last sent to this
    /// watching conversation; nil when they did not (or cannot be read).
    func changedRules() -> [UInt8]? {
        // The generation alone first: most wakes change nothing.
        guard watching != nil, let generation = SiteRules.generation(paths: paths), generation != sentGeneration else { return nil }
        var generator = context.generator
        guard let rules = SiteRules.load(paths: paths, generator: &generator) else { return nil }
        sentGeneration = rules.generation
        return encoded(rules)
    }

    /// The browser ended the conversation: a pause still on was left
    /// unfinished, and a watching browser is connected no more.
    public func finish() {
        pause?.abandon()
        if let watching {
            connections.unregister(watching)
            if let browser { connections.reached(browser, at: context.time.now(), privateWindows: nil) }
        }
        watching = nil
    }

    /// Keeps which browser this is, and that its extension reached MIGA now.
    private func reached(_ request: Request) {
        guard let caller else { return }
        let browser = KnownBrowser.reporting(request.browser, caller: caller)
        self.browser = browser
        connections.reached(browser, at: context.time.now(), privateWindows: request.privateWindows)
    }

    /// Records the pauses the extension held itself that are pauses of a
    /// protected site, lately; returns how many were new.
    private func record(_ items: [QueuedOutcome]) -> Int {
        let now = context.time.now()
        let sites = ConfigLoader.load(from: paths.configFile).config.sites
        let records = items.prefix(QueuedOutcome.mostItems).compactMap { $0.record(protected: sites, now: now) }
        guard !records.isEmpty, let (store, _) = try? SessionStore.openRescuing(path: paths.storeFile, now: now) else { return 0 }
        return (try? store.insertMissing(records)) ?? 0
    }

    /// A pause for `url`, if it is on a protected site and none is on yet.
    private func begin(_ url: String?) -> [UInt8] {
        guard pause == nil else { return encoded(Failure(error: "a pause is on already; one pause a conversation")) }
        guard let url, url.utf8.count <= Self.longestURL else { return encoded(Failure(error: "an address is needed")) }
        let gateway = Gateway(context: context)
        guard let settings = KeptRules(paths: paths).protectedOnly(gateway.loaded.config).site(covering: url) else {
            return encoded(Failure(error: "that address is on no protected site"))
        }
        switch SitePause.open(url, settings: settings, gateway: gateway) {
        case .open(let reason, let until):
            return encoded(Open(reason: reason?.rawValue, allowedUntil: until.map { Double($0.milliseconds) }))
        case .pause(let started):
            pause = started
            return encoded(StateAnswer(state: started.state))
        }
    }
}
