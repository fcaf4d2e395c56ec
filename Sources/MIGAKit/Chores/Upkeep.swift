import FoundationEssentials
import MIGACore
import MIGAStore
import MIGAConfig
import MIGADesktop

/// The history's upkeep: the two chores that ride on runs of miga doing
/// something else, each done here and nowhere else.
///
/// - Leaks, launches of protected programs that went around the pause, are
///   recorded by the runs that act: the gateway once its pause has been on
///   screen, the hub as it shows the stats, `miga remind` at the end of an
///   allowance, and `miga doctor --fix`.
/// - The weekly look back is sent when due by the first run after Monday
///   09:00 that acts: a command (see `CommandWord.chores`), the `miga sync` timer,
///   or `miga look-back`, which a pause that has ended starts in the background.
///
/// The rule: a run that only looks does neither. `miga stats` in every form,
/// `miga history`, `miga list` and `miga doctor` without `--fix` write
/// nothing (the history opened with `SessionStore.reading`, and no store
/// made where there is none; no routes refreshed) and notify nobody, so
/// looking never changes what is looked at. What they show stays whole:
/// the leaks running now that no run has recorded yet are counted in memory
/// beside the recorded ones (`Protection.unrecordedLeaks`).
public struct Upkeep {
    public let store: SessionStore
    public let config: Config

    public init(store: SessionStore, config: Config) {
        self.store = store
        self.config = config
    }

    /// Looks once for launches that went around the pause and records the new
    /// ones; `protection` nil (no gateway binary known) looks for none.
    /// Returns how many were new.
    ///   - watch: where to look (a test gives a /proc of its making).
    @discardableResult
    public func recordLeaks(_ protection: Protection?, now: Date = Date(), watch: LeakWatch = LeakWatch()) -> Int {
        guard let protection else { return 0 }
        return (try? store.recordLeaks(protection.leaks(around: store, config: config, watch: watch), at: now)) ?? 0
    }

    /// How a run sends the weekly look back.
    public enum LookBack {
        /// From this run, waiting for the notification server `wait` seconds at most.
        case send(Notifier, wait: Double = 0.4, timeZone: LocalZone = .system)
        /// By `start`, in the background, when a look at the week last sent
        /// for says it may be due: the gateway's way, which never waits for the
        /// notification. `today` and `hour`: local, as `WeeklyLookBack.mightBeDue` takes them.
        case inBackground(today: LocalDay, hour: Int, start: () -> Void)
    }

    /// Sends the weekly look back when it is due (once a week; see
    /// `WeeklyLookBack`), or starts what sends it. Returns what was sent here.
    @discardableResult
    public func lookBackIfDue(_ way: LookBack, now: Date = Date()) -> WeeklyReview? {
        switch way {
        case let .send(notifier, wait, timeZone):
            return WeeklyLookBack.sendIfDue(config: config, store: store, now: now, timeZone: timeZone, notifier: notifier, wait: wait)
        case let .inBackground(today, hour, start):
            guard config.weeklyReview, config.notifications, WeeklyLookBack.mightBeDue(in: store, today: today, hour: hour) else { return nil }
            start()
            return nil
        }
    }
}
