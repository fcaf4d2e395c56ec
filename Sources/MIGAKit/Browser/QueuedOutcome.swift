import FoundationEssentials
import MIGACore
import MIGAStore
import MIGAConfig

/// A pause the extension held itself while the host was away, as it queued
/// it. The browser's word, not MIGA's: kept only when it is a pause of a
/// protected site, lately, and recorded with the origin `browser`, so it
/// counts in the figures and never shapes protection (an allowance, the
/// escalation ladder: see `SessionStore.happenedHere`).
struct QueuedOutcome: Decodable {
    /// The site's name, as the rules gave it (or the address's host).
    let site: String?
    /// What an extension before this one sent instead: the site's name in the history's form.
    let program: String?
    let ending: String?
    let at: String?
    let waitedSeconds: Double?
    let deepenCount: Int?

    static let origin = "browser"
    /// How old a queued pause may be: a browser left closed for a month has nothing to add.
    static let oldest: TimeInterval = 30 * 86_400
    /// How far ahead of this clock: the browser's and the host's are the same machine's.
    static let clockSkew: TimeInterval = 300
    static let mostItems = 100

    /// The session it stands for, or nil when it is none to keep.
    func record(protected sites: [String: ProgramSettings], now: Date) -> SessionRecord? {
        guard let name = site ?? program.flatMap({ Protected(historyName: $0)?.site?.name }),
              case .site(let site)? = sites[name]?.protected,
              let at, let ended = Self.date(at), ended <= now.addingTimeInterval(Self.clockSkew),
              ended >= now.addingTimeInterval(-Self.oldest),
              let waited = waitedSeconds, waited.isFinite, (0...3600).contains(waited) else { return nil }
        let outcome: SessionOutcome
        switch ending {
        case "exitToFocus", "alternative": outcome = .exit
        case "proceed": outcome = .proceed
        default: return nil
        }
        // The same item sent again (its answer lost) is the same row, never a second.
        let id = "browser-" + String(FNV1a.hash([site.historyName, at, outcome.rawValue]), radix: 16)
        return SessionRecord(id: id, program: site.historyName, startedAt: ended.addingTimeInterval(-waited), endedAt: ended,
                             outcome: outcome, pausedSeconds: waited, deepenCount: min(max(0, deepenCount ?? 0), 1000),
                             origin: Self.origin)
    }

    /// An ISO 8601 moment as JavaScript's `toISOString` writes it, with or without its milliseconds.
    static func date(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        return (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
