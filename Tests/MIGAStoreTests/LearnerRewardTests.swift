import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGATestSupport

/// What the learner counts as a success, read from a real store: a conscious
/// exit that held. An exit followed within 15 minutes by a launch of the
/// program (through the pause or around it), or by a switch-off of its
/// protection the same day, is none; the person's own counts keep every exit.
@Suite struct LearnerRewardTests {
    let folder = TemporaryDirectory()
    let utc = TimeZone(identifier: "UTC")!
    /// 01:00 UTC on a day: every exit below ends the same day.
    let base = Date(timeIntervalSince1970: Double(20_800) * 86_400 + 3_600)

    func exit(_ id: String, after hours: Double, program: String = "discord") -> SessionRecord {
        let end = base.addingTimeInterval(hours * 3_600)
        return SessionRecord(id: id, program: program, startedAt: end - 30, endedAt: end, outcome: .exit, pausedSeconds: 30,
                             kind: .breathe)
    }

    func launch(_ id: String, after hours: Double, minutes: Double) -> SessionRecord {
        let at = base.addingTimeInterval(hours * 3_600 + minutes * 60)
        return SessionRecord(id: id, program: "discord", startedAt: at, endedAt: at, outcome: .passthrough, pausedSeconds: 0)
    }

    @Test func an_exit_undone_within_a_quarter_hour_or_by_a_switch_off_that_day_is_no_success_for_the_learner() throws {
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        try store.insertMissing([
            exit("held", after: 0),
            exit("relaunched", after: 1), launch("again", after: 1, minutes: 5),
            exit("leaked", after: 3),
            exit("relaunched-later", after: 9), launch("later", after: 9, minutes: 20),
            // The next two days: a switch-off undoes every exit of its day before it.
            exit("switched-off", after: 29),
            exit("switched-off-next-day", after: 55),
            // Another program's launch right after is not this one's.
            exit("other", after: 11), exit("steam", after: 11.05, program: "steam"),
        ])
        try store.queue.withConnection { db in
            try db.execute(sql: "INSERT INTO leaks (process, program, seen_at) VALUES ('boot/1/2', 'discord', ?)",
                           arguments: [base.addingTimeInterval(3 * 3_600 + 600).milliseconds])
        }
        try store.record(ProtectionChange(at: base.addingTimeInterval(31 * 3_600), action: .unprotect,
                                          subjects: ["steam", "discord"], outcome: .done))
        // Thought better of: protection stayed, and so does the exit.
        try store.record(ProtectionChange(at: base.addingTimeInterval(55 * 3_600 + 60), action: .unprotect,
                                          subjects: ["discord"], outcome: .kept))
        // The next day: the exit had held all its day.
        try store.record(ProtectionChange(at: base.addingTimeInterval(75 * 3_600), action: .unprotect,
                                          subjects: ["discord"], outcome: .done))

        let journal = try store.kindJournal(program: "discord", now: base.addingTimeInterval(5 * 86_400),
                                            halfLifeDays: .infinity, timeZone: LocalZone(utc))
        let breathe = try #require(journal.evidence[.breathe])
        #expect(breathe.pauses == 7 && breathe.shown == 7)
        // held, switched-off-next-day, relaunched-later, other.
        #expect(breathe.successes == 4, "\(breathe)")
        // The person's own count: every exit is an exit.
        #expect(try store.kindRecords(program: "discord")[.breathe] == KindRecord(shown: 7, exits: 7))
        // The favourite and the kinds table count the same successes, one pause at a time, in the order they ended.
        let now = base.addingTimeInterval(5 * 86_400)
        let pauses = try store.learnedPauses(program: "discord", now: now, timeZone: LocalZone(utc))
        #expect(pauses.map(\.succeeded) == [true, false, false, true, true, false, true], "\(pauses)")
        let held = try store.heldExitsByProgram(now: now, timeZone: LocalZone(utc))
        #expect(held == ["discord": [.breathe: 4], "steam": [.breathe: 1]], "\(held)")
    }

    @Test func after_a_reset_the_learner_counts_only_the_pauses_that_followed() throws {
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        try store.insertMissing([exit("before", after: 0), exit("steam", after: 0, program: "steam")])
        try store.resetLearning(program: "discord", at: base.addingTimeInterval(3_600))
        try store.insertMissing([exit("after", after: 2)])
        let now = base.addingTimeInterval(86_400)
        #expect(try store.kindJournal(program: "discord", now: now, halfLifeDays: .infinity, timeZone: LocalZone(utc)).evidence[.breathe]?.pauses == 1)
        #expect(try store.kindJournal(program: "steam", now: now, halfLifeDays: .infinity, timeZone: LocalZone(utc)).evidence[.breathe]?.pauses == 1)
        #expect(try store.learningReset(program: "discord") == base.addingTimeInterval(3_600))
        // The person's own numbers keep every pause; the favourite, like the learner, only the later one.
        #expect(try store.kindRecords(program: "discord")[.breathe] == KindRecord(shown: 2, exits: 2))
        #expect(try store.heldExitsByProgram(now: now, timeZone: LocalZone(utc))["discord"] == [.breathe: 2])
        #expect(try store.learnedPauses(program: "discord", now: now, timeZone: LocalZone(utc)) == [LearnedPause(kind: .breathe, succeeded: true)])
    }
}
