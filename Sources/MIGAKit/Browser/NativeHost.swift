import FoundationEssentials
import Glibc
import MIGACore
import MIGAConfig
import MIGAStore

/// `miga native-host`: MIGA's side of native messaging with its browser
/// extension (docs/SITES.md). The browser starts it; it refuses to start for
/// any caller but MIGA's extension, as the browser names the caller in the
/// words it starts the host with (the browser allows no other extension to
/// start it; a local program could say the same words, and gets no more than
/// the person's own rules and a pause of its own). It answers one message
/// at a time until the browser closes the stream. Nothing in a message is
/// trusted: each is bounded (`NativeMessage`), decoded into one of the few
/// requests there are, and answered with an error when it is none of them.
public final class NativeHost {
    /// The browsers MIGA's extension runs in, told apart by how they call the host.
    public enum Browser: String, Sendable {
        case chromium, firefox
    }

    /// The Chromium extension's ID, from the `key` in its manifest (Extension/README.md).
    public static let chromiumExtensionID = "cbgolgnocihlfhpkfbbocelojnaodpbo"
    /// The Firefox add-on's ID (`browser_specific_settings.gecko.id`).
    public static let geckoID = "sites@miga"
    /// The quotes handed to the extension for a pause without the host.
    static let quotesToKeep = 40

    /// The longest address taken (a browser's own limit is about 2 MiB; an
    /// address a person opens is far shorter).
    static let longestURL = 16 * 1024

    let context: GatewayContext
    /// The browser calling (`caller`): what it says of itself is kept under its name.
    let browser: Browser?
    var paths: XDGPaths { XDGPaths(environment: context.environment) }
    /// The one pause this conversation holds, once asked for.
    private(set) var pause: SitePause?

    /// `context`: the clocks, the randomness and where messages go (never
    /// standard output, which is the browser's); it has no terminal.
    public init(context: GatewayContext, browser: Browser?) {
        self.context = context
        self.browser = browser
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
        case .rules:
            if let allowed = request.privateWindows { keepPrivateWindows(allowed) }
            // A config that cannot be read is no word on what is protected:
            // the extension keeps the rules it has rather than take none.
            guard let rules = rules() else { return encoded(Failure(error: "config.toml cannot be read; the rules you have stand")) }
            return encoded(rules)
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
            return encoded(Ended(ending: ending, open: ending == .proceed ? pause.url : nil))
        }
    }

    /// The browser ended the conversation: a pause still on was left unfinished.
    public func finish() {
        pause?.abandon()
    }

    /// The store's key for whether the extension may run in `browser`'s
    /// private windows (`allowed` or `refused`), as `miga doctor` reads it.
    public static func privateWindowsKey(_ browser: Browser) -> String {
        "sites.private-windows.\(browser.rawValue)"
    }

    /// Keeps what the extension says of private windows: a person who has
    /// not let it run there is not paused there, and `miga doctor` says so.
    private func keepPrivateWindows(_ allowed: Bool) {
        guard let browser, let (store, _) = try? SessionStore.openRescuing(path: paths.storeFile, now: context.time.now()) else { return }
        try? store.setMeta(Self.privateWindowsKey(browser), allowed ? "allowed" : "refused")
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
        guard let settings = gateway.loaded.config.site(covering: url) else {
            return encoded(Failure(error: "that address is on no protected site"))
        }
        switch SitePause.open(url, settings: settings, gateway: gateway) {
        case .open(let reason): return encoded(Open(reason: reason.rawValue))
        case .pause(let started):
            pause = started
            return encoded(StateAnswer(state: started.state))
        }
    }

    /// Answers messages from `input` on `output` until the browser closes
    /// the stream (0) or a message cannot be read (65: the stream cannot
    /// be read on after a broken frame).
    public func serve(input: Int32, output: Int32) -> Int32 {
        while true {
            let message: [UInt8]?
            do {
                message = try NativeMessage.next { readUpTo($0, from: input) }
            } catch {
                finish()
                return ExitStatus.dataError
            }
            guard let message else {
                finish()
                return ExitStatus.success
            }
            guard let framed = NativeMessage.frame(answer(message)) ?? NativeMessage.frame(encoded(Failure(error: "the answer is too long"))),
                  framed.withUnsafeBytes({ writeAll(output, $0) }) else { return ExitStatus.failure }
        }
    }

    // MARK: The messages

    /// A message from the extension: only its `type` decides what it asks.
    struct Request: Decodable {
        enum Kind: String, Decodable {
            case rules, pause, tick, choose, outcomes
        }
        let type: Kind
        /// The address a pause is asked for.
        let url: String?
        let choice: PauseChoice?
        /// The pauses the extension held itself while the host was away.
        let items: [QueuedOutcome]?
        /// Whether the person lets the extension run in private windows (with `rules`).
        let privateWindows: Bool?
    }

    struct Recorded: Encodable {
        var type = "recorded"
        let count: Int
    }

    struct StateAnswer: Encodable {
        var type = "state"
        let state: PauseState
    }

    struct Open: Encodable {
        var type = "open"
        let reason: String
    }

    struct Ended: Encodable {
        var type = "ended"
        let ending: String
        /// The address to open exactly, after a Proceed.
        let open: String?

        init(ending: PauseEnding, open: String?) {
            self.ending = switch ending {
            case .exitToFocus: "exitToFocus"
            case .alternative: "alternative"
            case .proceed: "proceed"
            case .yielded: "yielded"
            case .signal, .hangup, .firstFrameDrawn: "abandoned"
            }
            self.open = open
        }
    }

    struct Failure: Encodable {
        var type = "error"
        let error: String
    }

    /// The protected sites and the quotes for a pause without the host.
    struct Rules: Encodable {
        struct SiteRule: Encodable {
            let site: String
            let host: String
            let path: String
            let program: String
            let pause: Int
            /// How long the site stays open in every tab after a Proceed, in seconds.
            let allowSeconds: Double?
        }
        struct KeptQuote: Encodable {
            let id: String
            let verses: [String]
            let source: String?
        }
        var type = "rules"
        let sites: [SiteRule]
        let quotes: [KeptQuote]
    }

    /// The rules, or nil when the config cannot be read (not TOML, or not a file MIGA can read).
    func rules() -> Rules? {
        let loaded = ConfigLoader.load(from: paths.configFile)
        guard loaded.syntaxError == nil && loaded.unreadable == nil else { return nil }
        let sites = loaded.config.sites.keys.sorted().compactMap { name -> Rules.SiteRule? in
            guard let site = try? Site(name), let settings = loaded.config.sites[name] else { return nil }
            return Rules.SiteRule(site: site.name, host: site.host, path: site.path, program: site.program,
                                  pause: loaded.config.pause(for: settings), allowSeconds: settings.allowance)
        }
        let pool = QuotePool(folder: paths.userQuotesDirectory, interests: loaded.config.interests,
                             cache: paths.dataDirectory + "/quote-pool")
        var generator = context.generator
        let kept = pool.pool.shuffled(using: &generator).prefix(Self.quotesToKeep).compactMap { pool[$0] }
        return Rules(sites: sites, quotes: kept.map { Rules.KeptQuote(id: $0.id, verses: $0.verses, source: $0.source) })
    }

    private func encoded(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(value))) ?? Array(#"{"type":"error","error":"no answer"}"#.utf8)
    }
}

/// Up to `count` bytes from `fd`, fewer only at the end of the stream (or a failure).
private func readUpTo(_ count: Int, from fd: Int32) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var got = 0
    while got < count {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, count - got) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        got += n
    }
    return Array(bytes.prefix(got))
}
