import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGATestSupport

/// `beginLaunch` and `decide`: the store's answer to the verdict (the
/// allowance), the impulse counts and the escalation ladder, decided in one
/// transaction against a real store, with instants given explicitly instead
/// of read from a clock.
@Suite struct LaunchRulesTests {
    let folder = TemporaryDirectory()
    var path: String { folder.path + "/data/miga/miga.sqlite" }
    /// 2027-01-15 08:00 UTC, 09:00 in Berlin.
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func begin(_ store: SessionStore, _ id: String, at date: Date, program: String = "discord",
               allowance: TimeInterval? = nil, timeZone: TimeZone? = nil) throws -> LaunchBegun {
        var generator = SeededGenerator(seed: 3)
        let zone = timeZone ?? berlin
        return try store.beginLaunch(GateFacts(now: date, front: .here, allowance: allowance), id: id, program: program,
                                     owner: .current(), pool: ["a", "b"], dayStart: LocalDay(date, in: zone).start(in: zone),
                                     using: &generator)
    }

    /// Whether a launch without a terminal, from a script under `deny`, is
    /// let through inside an allowance of ten minutes.
    func allowedWithoutTerminal(_ store: SessionStore, _ id: String, at date: Date) throws -> Bool {
        var facts = GateFacts(now: date, front: .elsewhere(window: .untried), withoutTerminal: .deny, allowance: 600)
        switch try store.decide(&facts, id: id, program: "discord") {
        case .allowed: return true
        case .deny: return false
        case let other: Issue.record("\(other)"); return false
        }
    }

    /// A finished pause, `minutesAgo` before `now`, lasting a minute.
    func add(_ store: SessionStore, _ outcome: SessionOutcome, minutesAgo: Double, program: String = "discord",
             device: String = "", reason: PassReason? = nil) throws {
        let start = now.addingTimeInterval(-minutesAgo * 60)
        try store.insertMissing([SessionRecord(id: "\(outcome)-\(minutesAgo)-\(program)-\(device)", program: program,
                                               startedAt: start, endedAt: start.addingTimeInterval(60), outcome: outcome,
                                               device: device, reason: reason)])
    }

    func history(_ verdict: LaunchBegun) -> LaunchHistory? {
        guard case .pause(_, let history) = verdict else { return nil }
        return history
    }

    // MARK: Allowance

    @Test func a_launch_inside_the_allowance_opens_and_is_recorded_as_allowed() throws {
        let store = try SessionStore(path: path)
        try add(store, .proceed, minutesAgo: 10) // ended 9 minutes ago
        let verdict = try begin(store, "again", at: now, allowance: 15 * 60)
        #expect(verdict == .decided(.allowed(until: now.addingTimeInterval(6 * 60))))
        let row = try #require(try store.sessions().first { $0.id == "again" })
        #expect(row.outcome == .passthrough)
        #expect(row.reason == .allowed)
        #expect(row.startedAt == now && row.endedAt == now)
        // Not a session: the score counts only pauses.
        #expect(try store.totals(SessionStore.Scope()).sessions == 1)
    }

    @Test func the_allowance_ends_after_its_minutes_and_counts_from_the_proceed_end() throws {
        let store = try SessionStore(path: path)
        try add(store, .proceed, minutesAgo: 16) // ended 15 minutes ago: the window is exactly spent
        #expect(try begin(store, "on-the-edge", at: now, allowance: 15 * 60) == .decided(.allowed(until: now)))
        #expect(history(try begin(store, "too-late", at: now.addingTimeInterval(1), allowance: 15 * 60)) != nil)
        #expect(try store.sessions().first { $0.id == "too-late" }?.outcome == .open)
    }

    @Test func only_a_proceed_on_this_machine_of_this_program_opens_an_allowance() throws {
        let store = try SessionStore(path: path)
        try add(store, .proceed, minutesAgo: 2, device: "laptop")
        try add(store, .proceed, minutesAgo: 2, program: "steam")
        try add(store, .exit, minutesAgo: 1)
        try add(store, .passthrough, minutesAgo: 1)
        #expect(history(try begin(store, "pause", at: now, allowance: 15 * 60)) != nil)
        // Without allow_minutes no proceed opens anything.
        try add(store, .proceed, minutesAgo: 3)
        #expect(history(try begin(store, "no-allowance", at: now)) != nil)
    }

    @Test func launches_racing_inside_an_allowance_all_open_and_none_pauses() throws {
        let store = try SessionStore(path: path)
        try add(store, .proceed, minutesAgo: 5)
        let verdicts = Box<[LaunchBegun]>([])
        let lock = NSLock()
        let (path, now, berlin) = (path, now, berlin)
        // Eight at once, each with a store of its own, as separate gateway processes have.
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            var generator = SeededGenerator(seed: UInt64(index))
            let verdict = try? SessionStore(path: path).beginLaunch(
                GateFacts(now: now, front: .here, allowance: 15 * 60), id: "race-\(index)", program: "discord",
                owner: .current(), pool: ["a"], dayStart: LocalDay(now, in: berlin).start(in: berlin), using: &generator)
            lock.withLock { verdict.map { verdicts.value.append($0) } }
        }
        #expect(verdicts.value.count == 8)
        #expect(verdicts.value.allSatisfy { if case .decided(.allowed) = $0 { true } else { false } })
        #expect(try store.sessions().filter { $0.reason == .allowed }.count == 8)
    }

    @Test func launches_at_the_same_moment_are_decided_one_after_the_other() throws {
        let stores = try (0..<4).map { _ in try SessionStore(path: path) }
        // Another process holds the write lock while the four begin, so that
        // all of them are waiting at once when it lets go.
        let holder = try WriteLockHolder(storeAt: path, seconds: 1)
        try holder.waitUntilHeld()
        let seen = Box<[Int]>([])
        let lock = NSLock()
        let (now, berlin) = (now, berlin)
        DispatchQueue.concurrentPerform(iterations: stores.count) { index in
            var generator = SeededGenerator(seed: UInt64(index))
            let begun = try? stores[index].beginLaunch(
                GateFacts(now: now, front: .here, allowance: 15 * 60), id: "pause-\(index)", program: "discord",
                owner: .current(), pool: ["a"], dayStart: LocalDay(now, in: berlin).start(in: berlin), using: &generator)
            guard case .pause(_, let history)? = begun else { return }
            lock.withLock { seen.value.append(history.earlierToday) }
        }
        // Each decided, having seen every pause decided before it.
        #expect(seen.value.sorted() == Array(0..<stores.count))
    }

    @Test func two_pauses_at_once_then_a_proceed_lets_the_other_give_way() throws {
        let store = try SessionStore(path: path)
        #expect(history(try begin(store, "first", at: now, allowance: 15 * 60)) != nil)
        #expect(history(try begin(store, "second", at: now, allowance: 15 * 60)) != nil)
        #expect(try store.allowanceBegan(for: "discord", since: now, now: now) == nil)
        let proceededAt = now.addingTimeInterval(20)
        try store.completeSession(sessionID: "first", outcome: .proceed, endedAt: proceededAt,
                                  PauseProgress(pausedSeconds: 20, deepenCount: 0, quotes: ["a"]))
        #expect(try store.allowanceBegan(for: "discord", since: now, now: proceededAt) == proceededAt)
        // A proceed that ended before the second pause opened is not news to it.
        #expect(try store.allowanceBegan(for: "discord", since: proceededAt.addingTimeInterval(1), now: proceededAt) == nil)
        try store.completeSession(sessionID: "second", outcome: .passthrough, endedAt: now.addingTimeInterval(21),
                                  PauseProgress(pausedSeconds: 21, deepenCount: 0, quotes: ["b"]), reason: .allowed)
        let second = try #require(try store.sessions().first { $0.id == "second" })
        #expect(second.outcome == .passthrough && second.reason == .allowed)
    }

    @Test func without_a_terminal_the_allowance_is_checked_and_nothing_is_written_outside_it() throws {
        let store = try SessionStore(path: path)
        #expect(try !allowedWithoutTerminal(store, "none", at: now))
        #expect(try store.sessions().isEmpty)
        try add(store, .proceed, minutesAgo: 3)
        #expect(try allowedWithoutTerminal(store, "inside", at: now))
        #expect(try store.sessions().first { $0.id == "inside" }?.reason == .allowed)
    }

    // MARK: The impulse made visible

    @Test func attempts_today_count_pauses_and_allowed_openings_since_local_midnight() throws {
        let store = try SessionStore(path: path)
        try add(store, .exit, minutesAgo: 60)                       // 08:00 Berlin, today
        try add(store, .abandoned, minutesAgo: 8 * 60 + 30)         // 00:30 today
        try add(store, .proceed, minutesAgo: 9 * 60 + 30)           // 23:30 yesterday
        try add(store, .passthrough, minutesAgo: 30)                // a script: not an impulse
        try add(store, .passthrough, minutesAgo: 20, reason: .outsideHours)
        try add(store, .passthrough, minutesAgo: 12, reason: .allowed)
        try add(store, .exit, minutesAgo: 5, program: "steam")
        let found = try #require(history(try begin(store, "now", at: now)))
        #expect(found.earlierToday == 3)
        #expect(found.lastAttempt == now.addingTimeInterval(-12 * 60))
        // In UTC the day began at 01:00 Berlin time, after the 00:30 pause.
        let utc = try #require(history(try begin(store, "utc", at: now.addingTimeInterval(1),
                                                  timeZone: TimeZone(identifier: "UTC")!)))
        #expect(utc.earlierToday == 3) // 08:00, the allowed opening, and "now"
    }

    @Test func the_first_launch_of_a_day_after_a_dst_change_counts_from_local_midnight() throws {
        // 2026-10-25, the night Berlin falls back: midnight was 22:00 UTC the day before.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        let morning = try #require(calendar.date(from: DateComponents(year: 2026, month: 10, day: 25, hour: 9)))
        let midnight = try #require(calendar.date(from: DateComponents(year: 2026, month: 10, day: 25)))
        #expect(LocalDay(morning, in: berlin).start(in: berlin) == midnight)
        let springMorning = try #require(calendar.date(from: DateComponents(year: 2026, month: 3, day: 29, hour: 9)))
        let springMidnight = try #require(calendar.date(from: DateComponents(year: 2026, month: 3, day: 29)))
        #expect(LocalDay(springMorning, in: berlin).start(in: berlin) == springMidnight)

        let store = try SessionStore(path: path)
        try store.insertMissing([
            SessionRecord(id: "before", program: "discord", startedAt: midnight.addingTimeInterval(-60),
                          endedAt: midnight, outcome: .exit),
            SessionRecord(id: "after", program: "discord", startedAt: midnight.addingTimeInterval(60),
                          endedAt: midnight.addingTimeInterval(120), outcome: .exit),
        ])
        #expect(history(try begin(store, "today", at: morning))?.earlierToday == 1)
    }

    // MARK: The escalation ladder

    @Test func the_ladder_counts_pauses_in_the_last_hour_since_the_last_exit() throws {
        let store = try SessionStore(path: path)
        try add(store, .proceed, minutesAgo: 90)   // outside the hour
        try add(store, .abandoned, minutesAgo: 50)
        try add(store, .proceed, minutesAgo: 30)
        try add(store, .passthrough, minutesAgo: 20, reason: .allowed) // an allowed opening is no pause
        try add(store, .proceed, minutesAgo: 10, program: "steam")
        #expect(history(try begin(store, "third", at: now))?.recentPauses == 2)
        // The pause just opened is a rung for the next one.
        #expect(history(try begin(store, "fourth", at: now.addingTimeInterval(5)))?.recentPauses == 3)
    }

    @Test func an_exit_to_focus_resets_the_ladder() throws {
        let store = try SessionStore(path: path)
        try add(store, .proceed, minutesAgo: 40)
        try add(store, .abandoned, minutesAgo: 30)
        try add(store, .exit, minutesAgo: 20) // ended 19 minutes ago
        #expect(history(try begin(store, "after-exit", at: now))?.recentPauses == 0)
        try add(store, .proceed, minutesAgo: 10)
        #expect(history(try begin(store, "next", at: now.addingTimeInterval(1)))?.recentPauses == 2)
    }

    // MARK: Only what happened here shapes the protection

    /// A session as `miga import` brings it: from an export of this machine's or another's.
    func imported(_ outcome: SessionOutcome, minutesAgo: Double, from device: String, local: String) throws -> SessionRecord {
        let start = now.addingTimeInterval(-minutesAgo * 60)
        return Exchange.imported(SessionRecord(id: "imported-\(outcome)-\(minutesAgo)-\(device)", program: "discord", startedAt: start,
                                               endedAt: start.addingTimeInterval(60), outcome: outcome, device: device),
                                 localDevice: local)
    }

    @Test func an_imported_or_future_proceed_opens_no_allowance_and_ends_no_pause() throws {
        let store = try SessionStore(path: path)
        let local = try store.deviceID()
        // From an export of this very machine, from another's, and one dated ahead of this clock.
        try store.insertMissing([try imported(.proceed, minutesAgo: 1, from: local, local: local),
                                 try imported(.proceed, minutesAgo: 2, from: "other-machine", local: local),
                                 try imported(.proceed, minutesAgo: -60, from: local, local: local)])
        #expect(try !allowedWithoutTerminal(store, "none", at: now))
        if case .decided = try begin(store, "pause", at: now, allowance: 600) { Issue.record("an imported Proceed opened the allowance") }
        #expect(try store.allowanceBegan(for: "discord", since: now.addingTimeInterval(-300), now: now) == nil)
        // A Proceed of this machine's dated ahead (a clock stepped back) waits for its time too.
        try add(store, .proceed, minutesAgo: -30)
        #expect(try !allowedWithoutTerminal(store, "still-none", at: now))
        // One that happened here a moment ago does open it.
        try add(store, .proceed, minutesAgo: 2)
        #expect(try allowedWithoutTerminal(store, "inside", at: now))
    }

    @Test func an_exit_from_elsewhere_or_ahead_of_this_clock_leaves_the_ladder_as_it_is() throws {
        let store = try SessionStore(path: path)
        let local = try store.deviceID()
        try add(store, .proceed, minutesAgo: 40)
        try add(store, .abandoned, minutesAgo: 30)
        try add(store, .proceed, minutesAgo: 20)
        try add(store, .exit, minutesAgo: 10, device: "other-machine")                   // synced
        try store.insertMissing([try imported(.exit, minutesAgo: 5, from: local, local: local),   // imported
                                 try imported(.exit, minutesAgo: -600, from: "x", local: local)])  // dated ahead
        try add(store, .exit, minutesAgo: -120)                                          // this machine's, ahead of the clock
        #expect(history(try begin(store, "fourth", at: now))?.recentPauses == 3)
    }

    @Test func a_session_imported_without_a_device_is_never_this_machines() throws {
        // An export is a file anyone can write: one whose device is empty is not "here".
        let store = try SessionStore(path: path)
        let local = try store.deviceID()
        let nameless = try imported(.proceed, minutesAgo: 1, from: "", local: local)
        #expect(nameless.origin == Exchange.importedOrigin)
        #expect(nameless.device.isEmpty)
        try store.insertMissing([nameless])
        #expect(try !allowedWithoutTerminal(store, "none", at: now))
        if case .decided = try begin(store, "pause", at: now, allowance: 600) { Issue.record("a nameless import opened the allowance") }
    }

    @Test func only_what_happened_here_is_today_on_the_pause() throws {
        // "2nd time today · the last was 2 minutes ago" speaks of this machine's launches.
        let store = try SessionStore(path: path)
        let local = try store.deviceID()
        try add(store, .exit, minutesAgo: 60)
        try add(store, .proceed, minutesAgo: 3, device: "other-machine")                       // synced
        try store.insertMissing([try imported(.proceed, minutesAgo: 2, from: local, local: local),   // imported
                                 try imported(.exit, minutesAgo: 1, from: "", local: local)])
        let found = try #require(history(try begin(store, "now", at: now)))
        #expect(found.earlierToday == 1)
        #expect(found.lastAttempt == now.addingTimeInterval(-60 * 60))
    }
}
