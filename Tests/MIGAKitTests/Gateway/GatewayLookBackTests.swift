import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGAConfig
@testable import MIGATestSupport

/// The weekly look back from the gateway: started once its pause is over,
/// when the week's look back may be unsent; never on a pass-through. The
/// look back itself is run here in place of `miga look-back`.
@Suite struct GatewayLookBackTests {
    let home = TemporaryDirectory()
    /// Friday 2027-01-15, 08:00 UTC: the week to look back on ended as Monday 2027-01-11 began.
    let time = ManualTime(wall: Date(timeIntervalSince1970: 1_800_000_000))
    let utc = TimeZone(identifier: "UTC")!
    let notifier = RecordingNotifier()
    private let started = Box(0)

    init() throws {
        try home.write("#!/bin/sh\nexit 0\n", to: "bin/fake")
        chmod(home.path + "/bin/fake", 0o755)
    }

    var store: SessionStore { get throws { try SessionStore(path: home.path + "/data/miga/miga.sqlite") } }

    @discardableResult
    func launch(_ script: [ScriptedTerminal.Step]?) -> GateDecision {
        let (box, notifier, time, utc, path) = (started, notifier, time, utc, home.path + "/data/miga/miga.sqlite")
        let context = GatewayContext(
            environment: ["HOME": home.path, "LANG": "C.UTF-8", "XDG_CONFIG_HOME": home.path + "/config",
                          "XDG_DATA_HOME": home.path + "/data", "PATH": home.path + "/bin", "NO_COLOR": "1"],
            time: time, timeZone: LocalZone(utc), generator: SeededGenerator(seed: 7),
            terminal: script.map { ScriptedTerminal(time: time, script: $0) }, notifier: RecordingNotifier(),
            messages: { _ in }, gatewayIdentity: nil, processID: 4242, gatewayPath: "/opt/miga/bin/miga", remind: { _ in },
            lookBack: {
                // What `miga look-back` does, in this process.
                box.value += 1
                WeeklyLookBack.sendIfDue(config: Config(), store: try! SessionStore(path: path), now: time.now(), timeZone: LocalZone(utc),
                                         notifier: notifier)
            })
        return Gateway(context: context).run(GateRequest(command: "fake", pause: 5))
    }

    /// Last week's sessions, and the week before's look back already sent.
    func lastWeek() throws {
        let store = try store
        try store.insertMissing((1...6).map { day in
            let end = time.now().addingTimeInterval(-Double(day + 4) * 86_400)
            return SessionRecord(id: "w\(day)", program: "fake", startedAt: end - 30, endedAt: end, outcome: day < 3 ? .exit : .proceed)
        })
        try store.setMeta(WeeklyLookBack.metaKey, String(LocalDay(year: 2027, month: 1, day: 4).number))
    }

    @Test func a_pause_in_the_weeks_first_run_sends_the_look_back_once_it_is_over() throws {
        _ = launch(nil)  // creates the store (a pass-through: no look back)
        try lastWeek()
        #expect(launch([.wait(1), ScriptedTerminal.keys("e")]) == .finish(0))
        #expect(started.value == 1)
        #expect(notifier.notifications.map(\.summary) == [WeeklyReview.title])
        #expect(notifier.notifications.first?.body == "6 attempts, 2 conscious exits")
        // The week is claimed: the next pause does not even start it.
        launch([.wait(6), ScriptedTerminal.keys("p")])
        #expect(started.value == 1)
        #expect(notifier.notifications.count == 1)
    }

    @Test func a_pass_through_never_starts_it() throws {
        _ = launch(nil)
        try lastWeek()
        #expect(launch(nil) != .finish(0))
        #expect(started.value == 0)
    }

    @Test func without_notifications_or_the_look_back_it_is_not_started() throws {
        _ = launch(nil)
        try lastWeek()
        for setting in ["notifications = false", "weekly_review = false"] {
            try home.write(setting + "\n", to: "config/miga/config.toml")
            launch([.wait(1), ScriptedTerminal.keys("e")])
        }
        #expect(started.value == 0)
    }

    @Test func a_new_histories_first_pause_starts_it_to_claim_the_week_and_nothing_is_sent() throws {
        launch([.wait(1), ScriptedTerminal.keys("e")])
        #expect(started.value == 1)
        #expect(notifier.notifications.isEmpty)
        launch([.wait(1), ScriptedTerminal.keys("e")])
        #expect(started.value == 1)
    }
}
