import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGATestSupport

/// Where the clocks spring forward at midnight, the day begins at 01:00 and
/// a session at 23:30 the evening before belongs to the evening before, in
/// every figure the store counts by day.
@Suite struct MidnightSpringForwardTests {
    /// The zone, the day without a midnight, and two sessions: 23:30 the
    /// evening before and 01:30 on the day, local time, as UTC instants.
    static let cases: [(zone: String, day: String, evening: String, morning: String)] = [
        ("America/Santiago", "2026-09-06", "2026-09-06T03:30:00Z", "2026-09-06T04:30:00Z"),
        ("America/Havana", "2026-03-08", "2026-03-08T04:30:00Z", "2026-03-08T05:30:00Z"),
        ("Africa/Cairo", "2026-04-24", "2026-04-23T21:30:00Z", "2026-04-23T22:30:00Z"),
        ("Asia/Beirut", "2026-03-29", "2026-03-28T21:30:00Z", "2026-03-28T22:30:00Z"),
    ]

    @Test(arguments: cases.map(\.zone))
    func each_session_counts_on_its_own_local_day(zone: String) throws {
        let row = try #require(Self.cases.first { $0.zone == zone })
        let timeZone = try #require(TimeZone(identifier: zone))
        let day = try #require(LocalDay(parsing: row.day))
        let evening = try #require(ISO8601DateFormatter().date(from: row.evening))
        let morning = try #require(ISO8601DateFormatter().date(from: row.morning))
        #expect(LocalDay(evening, in: timeZone) == day.previous && LocalDay(morning, in: timeZone) == day, "the fixture's own times")

        let folder = TemporaryDirectory()
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        try store.insertMissing([evening, morning].enumerated().map { index, ended in
            SessionRecord(id: "s\(index)", program: "firefox", startedAt: ended - 30, endedAt: ended, outcome: .exit, pausedSeconds: 30)
        })
        // The effect's days: one attempt each.
        let counts = try store.effectCounts(in: LocalZone(timeZone))
        #expect(try counts.counts(nil, days: day.previous.number...day.previous.number).attempts == 1, "\(zone): the evening before")
        #expect(try counts.counts(nil, days: day.number...day.number).attempts == 1, "\(zone): the day itself")
        #expect(try counts.firstDay(nil, through: day) == day.previous)
        // The days as the chart and the streak read them.
        let tallies = try store.dayTallies(in: LocalZone(timeZone))
        #expect(tallies.map(\.day) == [day.previous, day], "\(zone): \(tallies)")
        #expect(try store.exitDays(in: LocalZone(timeZone), SessionStore.Scope()) == [day.previous, day], "\(zone): the streak's days")
        // `history --since` the day takes the sessions from its first instant: the morning only.
        let start = day.start(in: timeZone)
        #expect(try store.sessions().filter { $0.endedAt! >= start }.map(\.id) == ["s1"], "\(zone)")
    }
}
