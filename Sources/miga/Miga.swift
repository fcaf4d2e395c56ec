#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAStore
import MIGAConfig
import MIGADesktop

/// `miga`: a mindful gateway in front of distracting programs.
@main
struct Miga: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "miga",
        abstract: "A mindful gateway: a calm pause before a distracting program opens.",
        discussion: """
            Route a program through MIGA and launching it shows a short pause first: a quote, \
            a countdown, and three choices. Exit to Focus is always one key away; Proceed opens \
            the program once the countdown reaches zero. Every choice stays on this machine.

            Exit statuses:
            \(ExitStatus.helpText)

            Example:
              miga gate firefox -- https://example.org
            """,
        version: "0.1.0",
        subcommands: [Hub.self, Setup.self, Gate.self, Stats.self, History.self, Protect.self, Unprotect.self, List.self,
                      Init.self, Quotes.self, InsteadList.self, Interests.self, ConfigFile.self, Doctor.self, Refresh.self, Export.self, Import.self,
                      BrowserCommand.self, SyncFolder.self, Uninstall.self],
        defaultSubcommand: Hub.self
    )

    static func main() {
        // Started through a shim (a link named after a protected command), miga
        // is that command's gateway: `firefox ARGS` means `miga gate firefox -- ARGS`.
        let invokedAs = CommandLine.arguments.first.map(baseName(of:)) ?? "miga"
        // The browser starts its native messaging host by the path in the
        // host's manifest, with words of its own: MIGA's extension's host.
        if let command = InternalCommand(invokedAs: invokedAs, arguments: Array(CommandLine.arguments.dropFirst())) { run(command) }
        if !invokedAs.hasPrefix("miga") {
            Gate.open(GateRequest(command: invokedAs, arguments: RawArguments.last(CommandLine.arguments.count - 1)))
        }
        // The launch path: `miga gate PROGRAM [-- ARGS…]` as desktop entries
        // write it goes straight to the gateway. Building the full parser costs
        // about 2 ms of reflection, paid by every launch.
        let words = Array(CommandLine.arguments.dropFirst())
        if let request = GateRequest(launchCommandLine: words, raw: RawArguments.last(words.count)) {
            Gate.open(request)
        }
        // What miga starts itself is no command of the parser's.
        if let command = InternalCommand(words: words) { run(command) }
        // So does the shell hook, which every new shell asks for (written
        // straight to the descriptor, as `Init` writes it: print's buffered
        // stream is a fifth of the hook's own cost).
        if let hook = Init.quickHook(words) {
            writeAll(1, hook)
            return
        }
        // A mistyped command is named as such, with the one meant, before
        // anything runs: the hub is the command of no word, not of any word.
        if let refusal = CommandWord.refusal(of: words) {
            ending { () throws(MigaError) -> Int32 in throw refusal }
        }
        // What runs before the command is the command's to say (`CommandWord.chores`).
        let chores = CommandWord.chores(of: words)
        // Routes follow the desktop: an application folder that changed since
        // the last refresh is looked at again (a stat per folder; never on a launch).
        if chores.refreshesRoutes, let protection = try? Miga.protection() {
            protection.refreshIfStale()
        }
        // The weekly look back, with the first run after Monday 09:00 that
        // acts (never before a pause, which starts `miga look-back` once it
        // is over; nor where there is no history yet).
        if chores.sendsLookBack {
            let paths = Miga.paths
            if let store = SessionStore.existing(in: paths) {
                Upkeep(store: store, config: ConfigLoader.load(from: paths.configFile).config).lookBackIfDue(.send(LibnotifyNotifier()))
            }
        }
        runParsedCommand()
    }

    /// Runs a command miga started itself, and ends this process.
    static func run(_ command: InternalCommand) -> Never {
        switch command {
        case .remind(let words): Remind.run(words)
        case .lookBack: LookBack.run()
        case .nativeHost(let words): NativeHostCommand.run(words)
        case .watchStart(let words): WatchStart.run(words)
        case .notify(let words): Notify.run(words)
        }
    }
}
