import FoundationEssentials
import MIGACore
import MIGATerminal
import MIGAStore
import MIGAConfig
import MIGADesktop

/// `miga` with no arguments: setup on the very first run, the hub after, and
/// the gateway of whatever the hub opens, all on one terminal.
public struct Home {
    public var context: GatewayContext
    let paths: XDGPaths
    /// What the terminal can show, looked at once.
    let palette: Palette

    public init(context: GatewayContext) {
        self.context = context
        paths = XDGPaths(environment: context.environment)
        palette = Palette(TerminalCapabilities.detect(environment: context.environment))
    }

    /// The config as it is now, read afresh: setup and the programs the hub
    /// opens may change it while the hub is open.
    var loaded: LoadedConfig { ConfigLoader.load(from: paths.configFile) }

    var protection: Protection? {
        context.gatewayPath.map {
            Protection(paths: paths, environment: context.environment,
                       gateway: ShimDirectory.routeGateway(running: $0, environment: context.environment))
        }
    }

    /// Setup (first run: until a program is protected), then the hub.
    public func run(setupFirst: Bool = false) -> GateDecision {
        guard let terminal = context.terminal, let protection else {
            context.messages("miga: setup and the hub need a terminal; see miga --help")
            return .finish(ExitStatus.usage)
        }
        let loaded = self.loaded
        // A config that is there but cannot be read is no first run: its
        // programs are unknown, not none, and setup would write over them.
        if let unreadable = loaded.unreadable {
            if setupFirst {
                context.messages("miga: setup needs the config, which cannot be read: \(printable(unreadable.notice)); fix it first, then run miga setup again.")
                return .finish(ExitStatus.dataError)
            }
            return hub(terminal: terminal)
        }
        let firstRun = loaded.config.programs.isEmpty
        var notice: String?
        if setupFirst || firstRun {
            guard let outcome = setup(firstRun: firstRun, protection: protection, terminal: terminal) else {
                terminal.leave()
                context.messages(firstRun ? "Nothing was saved. Run miga again when you are ready." : "Nothing was changed.")
                return .finish(ExitStatus.cancelled)
            }
            if !outcome.problems.isEmpty {
                terminal.leave()
                for line in outcome.done + outcome.problems { context.messages(line) }
                return .finish(ExitStatus.failure)
            }
            notice = outcome.kept
        }
        return hub(terminal: terminal, notice: notice)
    }

    /// Runs setup; its answers applied (and what stays protected though
    /// unticked, said), or nil when the person left.
    func setup(firstRun: Bool, protection: Protection, terminal: TerminalDevice) -> (done: [String], problems: [String], kept: String?)? {
        let config = loaded.config
        var flow = SetupFlow(firstRun: firstRun, programs: protection.setupPrograms(), sites: protection.configuredSites().map(\.name),
                             tags: QuoteLibrary(folder: paths.userQuotesDirectory).bank.tagCounts,
                             interests: config.interests, pause: config.pause, hook: protection.hookOffer(),
                             browsers: BrowserSetup(protection: protection).equippable,
                             extensionSteps: BrowserSetup(protection: protection).extensionSteps(store: try? SessionStore.reading(path: paths.storeFile)),
                             check: { [protection] command in protection.problem(protecting: command) })
        guard case .finished(let answers)? = MIGATerminal.run(&flow, on: terminal, palette: palette) else { return nil }
        // Unticking a program switches its protection off: the same pause as
        // `miga unprotect` comes first, and the history records the choice.
        let unticked = config.programs.keys.sorted().filter { command in !answers.programs.contains { $0.command == command } }
            + config.protectedSites.filter { !answers.sites.contains($0.name) }.map(\.historyName)
        var keeping: Set<String> = []
        var kept: String?
        if !unticked.isEmpty {
            let names = spokenList(unticked.map { config.settings(for: $0).displayName })
            let switchOff = SwitchOff(context: context, action: .unprotect, subjects: unticked)
            switch switchOff.pause(header: "a pause before unprotecting \(names)", proceedLabel: "Unprotect \(names)", on: terminal) {
            case .proceed:
                switchOff.record(.done)
            case .exitToFocus, .alternative:
                keeping = Set(unticked)
                kept = "✓ Nothing switched off: \(names) \(unticked.count == 1 ? "stays" : "stay") protected."
            case .signal, .hangup, .yielded:
                return nil
            }
        }
        let applied = SetupApplier(protection: protection).apply(answers, keeping: keeping)
        return (applied.done, applied.problems, kept)
    }

    /// How to add MIGA's extension to each browser whose extension has not
    /// reached MIGA yet, while a site is protected.
    func siteSteps(_ config: Config) -> [String] {
        guard let protection, !protection.protectedOnly(config).sites.isEmpty else { return [] }
        return BrowserSetup(protection: protection).extensionSteps(store: try? SessionStore.reading(path: paths.storeFile))
            .map { "\($0.browser): \($0.how)" }
    }

    /// The hub until the person quits, or a program is to start.
    func hub(terminal: TerminalDevice, notice: String? = nil) -> GateDecision {
        // What the gateway has to say ("Please install zapp first.") is said on
        // the hub's screen, not behind it; and the hub comes back as it was.
        let said = Messages()
        var gatewayContext = context
        gatewayContext.messages = { said.lines.append($0) }
        var selection = 0
        var notice = notice
        while true {
            let loaded = self.loaded
            // Without a readable config, the programs MIGA knows of by their shims.
            let programs = loaded.unreadable == nil ? Array(loaded.config.programs.values)
                : (protection?.protectedCommands() ?? []).map(loaded.config.settings(for:))
            let tiles = programs.sorted { $0.displayName < $1.displayName }.map {
                HubScreen.Tile(command: $0.command, name: $0.displayName, glyph: ProgramCatalog.glyph(for: $0.command))
            } + loaded.config.protectedSites.map(HubScreen.Tile.init(site:))
            // What is wrong with the config stays said while the hub is open.
            var screen = HubScreen(tiles: tiles, streak: streak(), selection: selection, notice: notice,
                                   standing: loaded.problems.map { printable($0.notice) }, siteSteps: siteSteps(loaded.config))
            let result = MIGATerminal.run(&screen, on: terminal, palette: palette)
            (selection, notice) = (screen.selection, nil)
            switch result {
            case .open(let command):
                said.lines = []
                // The pause leaves the terminal when it ends; the hub comes back after an exit.
                if case .launch(let launch) = Gateway(context: gatewayContext).run(GateRequest(command: command)) {
                    // Opened without a pause (an allowance, outside focus hours): the
                    // hub's screen is still up and must go before the program starts.
                    terminal.leave()
                    for line in said.lines { context.messages(line) }
                    return .launch(launch)
                }
                if !said.lines.isEmpty { notice = hubNotice(said.lines) }
            case .stats:
                showStats(on: terminal)
            case .quit, nil:
                terminal.leave()
                return .finish(ExitStatus.success)
            }
        }
    }

    /// What the gateway said, as the hub's notice, a line each; its config
    /// problems are left out, since the hub says those itself, cause first.
    func hubNotice(_ lines: [String]) -> String? {
        let problems = loaded.problems
        let said = lines.filter { line in !problems.contains { "miga: \($0.description)" == line } }
        return said.isEmpty ? nil : said.map(printable).joined(separator: "\n")
    }

    /// Lines the gateway said while the hub's screen is up.
    final class Messages: @unchecked Sendable {
        var lines: [String] = []
    }

    func streak() -> Streak {
        guard let store = try? SessionStore(path: paths.storeFile) else { return Streak(current: 0, best: 0) }
        return (try? StatsReport.streak(from: store, now: context.time.now(), timeZone: context.timeZone ?? .system))
            ?? Streak(current: 0, best: 0)
    }

    /// The stats as `miga stats` shows them, in a screen that scrolls.
    func showStats(on terminal: TerminalDevice) {
        let config = loaded.config
        guard let store = try? SessionStore(path: paths.storeFile) else { return }
        // Launches that went around the pause since the last look, for these
        // stats: looked for now, with the hub's frame already on screen.
        Upkeep(store: store, config: config).recordLeaks(protection, now: context.time.now())
        guard let report = try? StatsReport.compute(from: store, now: context.time.now(), timeZone: context.timeZone ?? .system,
                                                    config: config, hasLinesToType: { KindSupply(paths: paths, config: config).hasLineToType() },
                                                    hasAlternatives: { Instead.anyAlternative(in: paths) })
        else { return }
        var reader = StatsReader(report: report)
        _ = MIGATerminal.run(&reader, on: terminal, palette: palette)
    }
}
