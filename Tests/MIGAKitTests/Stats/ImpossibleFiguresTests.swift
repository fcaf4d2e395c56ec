import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGAKit
@testable import MIGATestSupport

/// Figures outside what is possible are refused where they come in (import,
/// sync), and a bad row already in a store is shown, never fatal.
@Suite struct ImpossibleFiguresTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000) // 2026-09-21

    func record(started: String = "2026-09-20T10:00:00.000Z", ended: String? = "2026-09-20T10:01:30.000Z",
                paused: Double = 90, deepens: Int = 0) -> String {
        let end = ended.map { "\"\($0)\"" } ?? "null"
        return """
            {"format": "miga-sessions", "version": 1, "sessions": [{"id": "a", "program": "firefox", "started_at": "\(started)",
             "ended_at": \(end), "outcome": "exit", "paused_seconds": \(paused), "deepen_count": \(deepens), "quotes": [], "device": "d"}]}
            """
    }

    func refusal(_ text: String) -> String? {
        do {
            _ = try Exchange.decode(text, localDevice: "here", now: now)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func a_possible_session_is_taken() {
        #expect(refusal(record()) == nil)
        #expect(refusal(record(started: "2026-09-21T23:00:00.000Z", ended: "2026-09-21T23:01:00.000Z", paused: 60)) == nil,
                "a clock a few hours ahead is fine")
    }

    @Test(arguments: [
        (started: "9999-01-01T00:00:00.000Z", ended: "9999-01-01T00:01:30.000Z", paused: 90.0, why: "in the future"),
        (started: "1999-12-31T00:00:00.000Z", ended: "1999-12-31T00:01:30.000Z", paused: 90.0, why: "before 2000"),
        (started: "2026-09-20T10:00:00.000Z", ended: "2026-09-20T09:00:00.000Z", paused: 0.0, why: "before started_at"),
        (started: "2026-09-20T10:00:00.000Z", ended: "2026-09-20T10:01:30.000Z", paused: 1e308, why: "longer than the session lasted"),
        (started: "2026-09-20T10:00:00.000Z", ended: "2026-09-20T10:01:30.000Z", paused: 90_000.0, why: "longer than the session lasted"),
    ])
    func an_impossible_session_is_refused_saying_why(started: String, ended: String, paused: Double, why: String) {
        #expect(refusal(record(started: started, ended: ended, paused: paused))?.contains(why) == true)
    }

    @Test func a_deepen_count_beyond_reason_is_refused() {
        #expect(refusal(record(deepens: 1_000_000))?.contains("deepen_count") == true)
    }

    @Test func a_bad_row_already_in_a_store_is_shown_not_fatal() throws {
        let folder = TemporaryDirectory()
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        let start = Date(timeIntervalSince1970: 1_789_990_000)
        try store.insertMissing([
            SessionRecord(id: "huge", program: "firefox", startedAt: start, endedAt: start + 60, outcome: .exit, pausedSeconds: 1e308),
            SessionRecord(id: "huger", program: "firefox", startedAt: start, endedAt: start + 60, outcome: .proceed, pausedSeconds: 9.3e18),
            SessionRecord(id: "infinite", program: "steam", startedAt: start, endedAt: start + 60, outcome: .exit, pausedSeconds: 1.7e308),
        ])
        let report = try StatsReport.compute(from: store, now: now, timeZone: .utc)
        let screen = StatsScreen.lines(report, width: 80).map(\.text).joined(separator: "\n")
        #expect(screen.contains("Conscious exits"))
        let json = report.json(now: now, timeZone: .utc)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
        #expect(parsed["conscious_exits"] as? Int == 2)
        let history = HistoryTable.lines(try store.sessions()).map(\.text)
        #expect(history.count == 3)
        #expect(wholeNumber(.nan) == 0 && wholeNumber(1e308) == .max && wholeNumber(-1e308) == .min && wholeNumber(2.5) == 3)
        #expect(Date(timeIntervalSince1970: 1e300).milliseconds == Int64.max)
    }
}
