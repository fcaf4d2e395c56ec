import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGATestSupport

/// The per-program rules as the gateway applies them: a scripted terminal,
/// a manual clock, a real store, and the config file as a person writes it.
@Suite struct GatewayRulesTests {
    let home = TemporaryDirectory()
    /// Friday 2027-01-15, 08:00 UTC.
    let time = ManualTime(wall: Date(timeIntervalSince1970: 1_800_000_000))
    let notifier = RecordingNotifier()
    private let reminderBox = Box<[AllowanceReminder]>([])

    init() throws {
        try home.write("#!/bin/sh\nexit 0\n", to: "bin/fake")
        chmod(home.path + "/bin/fake", 0o755)
    }

    func configure(_ rules: String) throws {
        try home.write("[programs.fake]\n\(rules)\n", to: "config/miga/config.toml")
    }

    /// Runs one gateway; nil `script` means no terminal.
    @discardableResult
    func launch(_ script: [ScriptedTerminal.Step]?, pause: Int = 5) -> (GateDecision, ScriptedTerminal?) {
        let terminal = script.map { ScriptedTerminal(time: time, script: $0) }
        let box = reminderBox
        let context = GatewayContext(
            environment: ["HOME": home.path, "LANG": "C.UTF-8", "XDG_CONFIG_HOME": home.path + "/config", "XDG_DATA_HOME": home.path + "/data",
                          "PATH": home.path + "/bin", "NO_COLOR": "1"],
            time: time, timeZone: .utc, generator: SeededGenerator(seed: 7), terminal: terminal,
            notifier: notifier, messages: { _ in }, gatewayIdentity: nil, processID: 4242,
            gatewayPath: "/opt/miga/bin/miga", remind: { box.value.append($0) })
        return (Gateway(context: context).run(GateRequest(command: "fake", pause: pause)), terminal)
    }

    var store: SessionStore { get throws { try SessionStore(path: home.path + "/data/miga/miga.sqlite") } }

    func isLaunch(_ decision: GateDecision) -> Bool {
        if case .launch = decision { true } else { false }
    }

    // MARK: Allowance

    @Test func after_a_proceed_the_next_launch_inside_the_allowance_opens_at_once() throws {
        try configure("allow_minutes = 15")
        let (first, _) = launch([.wait(6), ScriptedTerminal.keys("p")])
        #expect(isLaunch(first))
        let proceededAt = time.now()
        #expect(reminderBox.value == [AllowanceReminder(programName: "Fake", minutes: 15,
                                                        due: proceededAt.addingTimeInterval(15 * 60), processID: 4242,
                                                        executable: home.path + "/bin/fake")])
        time.advance(14 * 60)
        let (second, terminal) = launch([ScriptedTerminal.keys("e")])
        #expect(isLaunch(second))
        #expect(terminal?.enterCount == 0) // no pause was drawn
        time.advance(2 * 60)
        let (third, _) = launch([ScriptedTerminal.keys("e")])
        #expect(third == .finish(0)) // the allowance is over: the pause again
        let rows = try store.sessions()
        #expect(rows.map(\.outcome) == [.proceed, .passthrough, .exit])
        #expect(rows[1].reason == .allowed)
        // Only a Proceed leaves a reminder.
        #expect(reminderBox.value.count == 1)
    }

    @Test func with_notifications_off_no_reminder_is_left() throws {
        try home.write("notifications = false\n[programs.fake]\nallow_minutes = 15\n", to: "config/miga/config.toml")
        launch([.wait(6), ScriptedTerminal.keys("p")])
        #expect(reminderBox.value.isEmpty)
    }

    @Test func a_pause_gives_way_when_another_launch_proceeds_meanwhile() throws {
        try configure("allow_minutes = 15")
        let otherProceeds: ScriptedTerminal.Step = .meanwhile { [home, time] in
            // Another gateway's pause for the same program, ended by Proceed.
            let other = try! SessionStore(path: home.path + "/data/miga/miga.sqlite")
            try! other.insertMissing([SessionRecord(id: "other", program: "fake", startedAt: time.now() - 30,
                                                    endedAt: time.now(), outcome: .proceed)])
        }
        let (decision, terminal) = launch([.wait(2), otherProceeds, .wait(3), ScriptedTerminal.keys("e")], pause: 60)
        #expect(isLaunch(decision))
        #expect(terminal?.leaveCount == 1)
        let mine = try #require(try store.sessions().first { $0.id != "other" })
        #expect(mine.outcome == .passthrough)
        #expect(mine.reason == .allowed)
    }

    @Test func without_a_terminal_a_terminal_policy_opens_inside_the_allowance() throws {
        try configure("allow_minutes = 15\nnon_interactive = \"deny\"")
        #expect(launch(nil).0 == .finish(ExitStatus.denied))
        launch([.wait(6), ScriptedTerminal.keys("p")])
        #expect(isLaunch(launch(nil).0))
        #expect(try store.sessions().last?.reason == .allowed)
    }

    // MARK: Focus hours

    @Test func outside_focus_hours_the_program_opens_without_a_pause() throws {
        try configure("hours = \"Mon-Fri 09:00-17:00\"")
        let (early, terminal) = launch([ScriptedTerminal.keys("e")])
        #expect(isLaunch(early))
        #expect(terminal?.enterCount == 0)
        time.advance(3600) // 09:00: protected
        #expect(launch([ScriptedTerminal.keys("e")]).0 == .finish(0))
        time.advance(2 * 86_400) // Sunday 09:00: outside again
        #expect(isLaunch(launch([ScriptedTerminal.keys("e")]).0))
        let rows = try store.sessions()
        #expect(rows.map(\.outcome) == [.passthrough, .exit, .passthrough])
        #expect(rows.map(\.reason) == [.outsideHours, nil, .outsideHours])
    }

    // MARK: The impulse and the ladder

    @Test func the_pause_says_how_often_today_and_why_it_is_longer() throws {
        try configure("escalate = true\nescalate_step = 60")
        let (_, first) = launch([.events([.signal(SIGTERM)])])
        #expect(first?.written.contains("first time today") == true)
        #expect(first?.written.contains("A longer pause") == false)
        time.advance(12 * 60)
        let (_, second) = launch([.events([.signal(SIGTERM)])])
        #expect(second?.written.contains("2nd time today · the last was 12 minutes ago") == true)
        #expect(second?.written.contains("1:05") == true) // 5 s and one step of 60
        #expect(second?.written.contains("A longer pause (+1:00): the 2nd try within the hour") == true)
        time.advance(60)
        // An Exit to Focus starts the ladder again.
        launch([ScriptedTerminal.keys("e"), .wait(5)])
        time.advance(60)
        let (_, after) = launch([.events([.signal(SIGTERM)])])
        #expect(after?.written.contains("4th time today") == true)
        #expect(after?.written.contains("A longer pause") == false)
        #expect(after?.written.contains("0:05") == true)
    }

    @Test func escalation_stops_at_its_maximum() throws {
        try configure("escalate = true\nescalate_step = 60\nescalate_max = 90")
        for _ in 0..<3 { launch([.events([.signal(SIGTERM)])]) }
        let (_, terminal) = launch([.events([.signal(SIGTERM)])])
        #expect(terminal?.written.contains("1:30") == true)
        #expect(terminal?.written.contains("A longer pause (+1:25)") == true)
    }

    // MARK: Looking away

    @Test func the_countdown_holds_while_the_window_is_unfocused() throws {
        try configure("hold_when_unfocused = true")
        let (decision, terminal) = launch([
            .wait(2), .events([.key(.focusOut)]), .wait(30), .events([.key(.focusIn)]), .wait(2),
            ScriptedTerminal.keys("p"), // 4 s counted of 5: not yet
            .wait(1.5), ScriptedTerminal.keys("p"),
        ])
        #expect(isLaunch(decision))
        #expect(terminal?.reportsFocus == true)
        #expect(terminal?.written.contains("Held while you look away — it resumes when you return") == true)
        #expect(terminal?.written.contains("Not yet") == true || terminal?.written.contains("no hurry") == true)
        // Time looking away is still time in the pause.
        #expect(try store.sessions().first?.pausedSeconds == 35.5)
    }

    @Test func without_the_rule_focus_reports_change_nothing() throws {
        let (decision, terminal) = launch([.wait(2), .events([.key(.focusOut)]), .wait(4), ScriptedTerminal.keys("p")])
        #expect(isLaunch(decision))
        #expect(terminal?.reportsFocus == false)
    }

    // MARK: Intention

    @Test func proceed_asks_what_for_and_the_answer_is_kept() throws {
        try configure("ask_intention = true")
        let (decision, terminal) = launch([
            .wait(6), ScriptedTerminal.keys("p"),
            .events([.key(.enter)]),                      // nothing typed: not yet
            ScriptedTerminal.keys("to watch"), .events([.key(.control("w"))]),
            ScriptedTerminal.keys("reply"), .events([.key(.space)]), ScriptedTerminal.keys("to Sam, kindly"),
            .events([.key(.enter)]),
        ])
        #expect(isLaunch(decision))
        #expect(terminal?.written.contains("What are you opening Fake for?") == true)
        #expect(terminal?.written.contains("A few words first") == true)
        let row = try #require(try store.sessions().first)
        #expect(row.outcome == .proceed)
        #expect(row.intention == "to reply to Sam, kindly")
    }

    @Test func esc_steps_back_from_the_question_and_keys_act_again() throws {
        try configure("ask_intention = true")
        let (decision, _) = launch([.wait(6), ScriptedTerminal.keys("p"), ScriptedTerminal.keys("ee"),
                                    .events([.key(.escape)]), ScriptedTerminal.keys("e"), .wait(5)])
        // "ee" were typed into the answer; after Esc, e is Exit to Focus again.
        #expect(decision == .finish(0))
        let row = try #require(try store.sessions().first)
        #expect(row.outcome == .exit)
        #expect(row.intention == nil)
    }
}
