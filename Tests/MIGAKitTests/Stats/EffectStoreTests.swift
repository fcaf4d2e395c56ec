import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGAKit
@testable import MIGATestSupport

/// The effect as the store answers it, from its indexes, is the effect of
/// the definitions (`TallyCounts`), launches around the pause included, in
/// zones whose clocks change at midnight and in plain ones.
@Suite struct EffectStoreTests {
    @Test(arguments: EffectFiguresTests.zones)
    func the_store_measures_as_the_definitions_do(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var generator = SeededGenerator(seed: 4242)
        // February to June 2026: every midnight change of the four zones that have one, and Berlin's.
        let first = try #require(calendar.date(from: DateComponents(year: 2026, month: 2, day: 1)))
        var records: [SessionRecord] = []
        var leaks: [(program: String, seenAt: Date)] = []
        var offset = 3
        while offset < 150 {
            let run = Int.random(in: 1...12, using: &generator)
            for day in offset..<(offset + run) {
                let date = try #require(calendar.date(byAdding: .day, value: day, to: first))
                for index in 0..<Int.random(in: 1...4, using: &generator) {
                    // The first hours of a day whose midnight is skipped, and the last minutes of one.
                    let (hour, minute) = [(1, 10), (1, 30), (9, 0), (23, 30), (23, 59)].randomElement(using: &generator)!
                    let end = try #require(calendar.date(bySettingHour: hour, minute: minute, second: 0, of: date))
                    let program = ["firefox", "discord", "steam"][(day / 40 + index) % 3]
                    records.append(SessionRecord(id: "\(day)-\(index)", program: program, startedAt: end - 30, endedAt: end,
                                                 outcome: [.exit, .proceed, .abandoned, .passthrough].randomElement(using: &generator)!))
                    if Int.random(in: 0..<5, using: &generator) == 0 { leaks.append((program, end + 60)) }
                }
            }
            offset += run + [0, 1, 3, 4, 9].randomElement(using: &generator)!
        }
        let folder = TemporaryDirectory()
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        try store.insertMissing(records)
        for (index, leak) in leaks.enumerated() {
            let process = ProcessIdentity(bootID: "boot", pid: Int32(index + 100), startTicks: 1)
            #expect(try store.recordLeaks([Leak(program: leak.program, process: process, route: .unknown)], at: leak.seenAt) == 1)
        }
        let tallies = DayTally.tallies(from: records, leaks: leaks, in: LocalZone(timeZone))
        #expect(try store.dayTallies(in: LocalZone(timeZone)) == tallies)
        var (changes, rebounds) = (0, 0)
        for daysIn in [10, 20, 31, 45, 60, 77, 100, 128, 160] {
            let today = LocalDay(number: LocalDay(first, in: timeZone).number + daysIn)
            let expected = Effect.measure(tallies, today: today)
            #expect(try store.measureEffect(in: LocalZone(timeZone), today: today) == expected, "\(zone), \(today)")
            if expected.overall.attempts?.change != nil { changes += 1 }
            if expected.overall.rebound != nil { rebounds += 1 }
        }
        // The history is one where the figures exist, not only one where both say nothing.
        #expect(changes >= 3 && rebounds >= 3, "\(zone): \(changes) changes, \(rebounds) rebounds")
    }
}
