import MIGACore

/// The commands a person types, by their first word, and what a run of each
/// does before it (`chores`): the one place that says which commands only look.
/// `miga` with no word is the hub. A test holds this list to the parser's.
/// The words miga writes for itself (`InternalCommand`) are none of these, so
/// no hint ever names one.
public enum CommandWord: String, CaseIterable, Sendable {
    case hub, setup, gate, stats, history, protect, unprotect, list, `init`, quotes, instead, interests, config, doctor,
         refresh, export, `import`, browser, sync, uninstall

    /// What a run does before its command.
    public struct Chores: Equatable, Sendable {
        /// Looks again at application folders that changed since the last
        /// refresh (a stat per folder), so that routes follow the desktop.
        public var refreshesRoutes: Bool
        /// Sends the weekly look back, when it is due (`Upkeep.lookBackIfDue`).
        public var sendsLookBack: Bool

        /// A run that only looks changes nothing and notifies nobody (see `Upkeep`).
        public static let none = Chores(refreshesRoutes: false, sendsLookBack: false)
        public static let both = Chores(refreshesRoutes: true, sendsLookBack: true)
    }

    /// The chores of the run of `words` (the arguments after `miga`): none
    /// for a command that only looks (`stats`, `history`, `list`, `doctor`
    /// without `--fix`), for help (the manual's `--experimental-dump-help`
    /// too), the version and a shell's completion script (which `make
    /// install` writes, and which must not touch the person's config), for the gateway (which
    /// keeps its own, after its pause) and for `uninstall`; no refresh for
    /// the commands that refresh themselves (`refresh`, `doctor --fix`); both
    /// for any other, and for a word the parser will refuse (harmless: it
    /// only tidies what is already there).
    public static func chores(of words: [String]) -> Chores {
        if words.first == "help" || words.contains(where: { ["--help", "-h", "--version", "--experimental-dump-help", "--generate-completion-script"].contains($0) }) {
            return .none
        }
        guard let first = words.first else { return .both }
        switch CommandWord(rawValue: first) {
        case .stats?, .history?, .list?, .gate?, .uninstall?: return .none
        case .doctor?: return words.contains("--fix") ? Chores(refreshesRoutes: false, sendsLookBack: true) : .none
        case .refresh?: return Chores(refreshesRoutes: false, sendsLookBack: true)
        default: return .both
        }
    }

    /// The refusal of a first word that names no command ("miga stat"): the
    /// hub opens for no word at all, never for a mistyped one, which would
    /// otherwise reach the hub as an argument it does not take. Nil when the
    /// first word is a command, the parser's `help`, an option, or absent.
    public static func refusal(of words: [String]) -> MigaError? {
        guard let first = words.first, !first.hasPrefix("-"), first != "help", CommandWord(rawValue: first) == nil else { return nil }
        if let meant = likelyMeant(first, among: allCases.map(\.rawValue)) {
            return MigaError(usage: "`\(first)` is not a command; did you mean `miga \(meant)`?")
        }
        return MigaError(usage: "`\(first)` is not a command; `miga --help` lists them.")
    }
}
