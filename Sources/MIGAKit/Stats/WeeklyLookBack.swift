import FoundationEssentials
import Glibc
import MIGACore
import MIGATerminal
import MIGAStore
import MIGAConfig
import MIGADesktop

/// When the weekly look back goes out: once a week, with the first miga run
/// after Monday 09:00 local: a command that acts (see `Upkeep`, which
/// sends it), the `miga sync` timer, or a pause
/// once it has ended (the gateway takes a cheap look and, when it may be
/// due, starts `miga look-back` in the background, so the program never
/// waits for the notification). The week it was last sent for is kept in
/// the store, claimed in one transaction, so two runs at the same moment
/// send it once. A new history starts counting from its first run: the
/// first look back comes the Monday after, when there is a week to look back on.
public enum WeeklyLookBack {
    static let metaKey = "weekly_review_sent"
    /// Monday, 09:00 local.
    static let hour = 9
    /// Set in the `miga look-back` that sends, started by the first one.
    public static let sendingVariable = "MIGA_LOOK_BACK_SENDING"
    /// How long the look back in the background waits for the notification server.
    public static let backgroundWait = 10.0

    /// Whether this week's look back may still be unsent, from the week
    /// claimed last alone: the gateway's look after its pause, a read of one
    /// row. `today` and `hour`: the local day and hour now, which the gateway
    /// reads from the C library, as Foundation's zone data would cost every
    /// pause a millisecond; the week is `monday(of:hour:)`'s, as in `due`.
    /// The process it starts decides exactly, and claims the week.
    static func mightBeDue(in store: SessionStore, today: LocalDay, hour: Int) -> Bool {
        let monday = Self.monday(of: today, hour: hour).number
        do {
            // Never claimed: the first run of a history, which claims the week.
            guard let sent = try store.meta(metaKey) else { return true }
            return Int(sent).map { $0 < monday } ?? true
        } catch {
            return false
        }
    }

    /// Starts `miga look-back` detached and reaps it; it starts the process
    /// that sends, and ends at once. False when it could not be started.
    @discardableResult
    public static func start(gateway: String, environment: [String: String] = [:]) -> Bool {
        guard let pid = Launcher.spawnDetached(gateway, arguments: [gateway] + InternalCommand.lookBack.words, environment: environment) else { return false }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return true
    }

    /// The Monday of the latest Monday 09:00 at or before `hour` on the local
    /// `day`: the one rule of when a week's look back is due, for `due` and
    /// the gateway's `mightBeDue` alike. In local days and hours, so a day
    /// whose clocks change counts as one day like any other (see `LocalDay`).
    static func monday(of day: LocalDay, hour: Int) -> LocalDay {
        day == day.monday && hour < Self.hour ? LocalDay(number: day.number - LocalDay.daysInWeek) : day.monday
    }

    /// The latest Monday 09:00 at or before `now`, as the Monday's local day
    /// and the instant. The week it looks back on ended as that Monday began.
    static func due(before now: Date, in timeZone: LocalZone) -> (monday: LocalDay, at: Date) {
        let (today, hour) = LocalDay.dayAndHour(of: now, in: timeZone)
        let monday = Self.monday(of: today, hour: hour)
        return (monday, nine(on: monday, in: timeZone))
    }

    /// 09:00 on `day`, on the wall clock: right on a day whose clocks change
    /// between midnight and nine.
    private static func nine(on day: LocalDay, in timeZone: LocalZone) -> Date {
        let midnight = day.start(in: timeZone)
        let nine = midnight.addingTimeInterval(Double(hour) * 3600)
        let change = timeZone.secondsFromGMT(for: nine) - timeZone.secondsFromGMT(for: midnight)
        return nine.addingTimeInterval(-Double(change))
    }

    /// Whether this run is the one to send this week's look back: claims the
    /// week in the store when so. The first run of a history claims without sending.
    static func claim(in store: SessionStore, now: Date, timeZone: LocalZone) throws -> Bool {
        let week = due(before: now, in: timeZone).monday.number
        guard case .claimed(let sentBefore) = try store.claim(metaKey, upTo: week) else { return false }
        return sentBefore != nil
    }

    /// Sends the look back if it is due and there was a week to look back on:
    /// a notification, waited for a moment at most. Returns what was sent.
    /// Runs send it through `Upkeep`, the one place that does.
    @discardableResult
    static func sendIfDue(config: Config, store: SessionStore, now: Date = Date(), timeZone: LocalZone = .system,
                                 notifier: Notifier, wait: Double = 0.4) -> WeeklyReview? {
        guard config.weeklyReview, config.notifications, (try? claim(in: store, now: now, timeZone: timeZone)) == true,
              let tallies = try? store.dayTallies(in: timeZone) else { return nil }
        // The calendar week that ended as this week's Monday began, whichever day this runs.
        let monday = due(before: now, in: timeZone).monday
        guard let review = WeeklyReview.compose(tallies: tallies, weekEndingBefore: monday,
                                                kinds: { config.kinds(for: config.settings(for: $0)) }) else {
            return nil
        }
        _ = notifier.post(DesktopNotification(summary: review.summary, body: review.body)).wait(seconds: wait)
        return review
    }
}
