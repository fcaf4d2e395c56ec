import Testing
@testable import MIGAKit
@testable import MIGAConfig

/// The choice between a pause and a direct start, with plain values.
@Suite struct GateVerdictTests {
    func settings(_ policy: NonInteractivePolicy = .pass, allow: Double? = nil) -> ProgramSettings {
        var settings = ProgramSettings(command: "discord", nonInteractive: policy)
        settings.allowMinutes = allow
        return settings
    }

    func decide(hops: Int = 0, _ settings: ProgramSettings, inHours: Bool = true, terminal: Bool,
                allowance: Bool = false, asked: inout Bool) -> GateVerdict {
        GateVerdict.decide(hops: hops, settings: settings, insideFocusHours: inHours, hasTerminal: terminal,
                           insideAllowance: { asked = true; return allowance })
    }

    @Test func a_terminal_gets_the_pause_and_a_second_gateway_of_the_same_launch_none() {
        var asked = false
        #expect(decide(settings(), terminal: true, asked: &asked) == .pause)
        #expect(decide(hops: 1, settings(.deny), inHours: false, terminal: false, asked: &asked) == .launch)
        #expect(!asked)
    }

    @Test func outside_focus_hours_the_program_passes_with_or_without_a_terminal() {
        var asked = false
        #expect(decide(settings(.deny), inHours: false, terminal: true, asked: &asked) == .passThrough(.outsideHours))
        #expect(decide(settings(.deny), inHours: false, terminal: false, asked: &asked) == .passThrough(.outsideHours))
    }

    @Test(arguments: [(NonInteractivePolicy.pass, GateVerdict.passThrough(nil)), (.terminal, .pauseInWindow), (.deny, .deny)])
    func without_a_terminal_the_policy_decides(policy: NonInteractivePolicy, verdict: GateVerdict) {
        var asked = false
        #expect(decide(settings(policy), terminal: false, asked: &asked) == verdict)
        #expect(!asked, "no allowance set: the store is not asked")
    }

    @Test func without_a_terminal_an_allowance_opens_it_but_only_a_policy_other_than_pass_asks() {
        var asked = false
        #expect(decide(settings(.deny, allow: 15), terminal: false, allowance: true, asked: &asked) == .allowed)
        #expect(asked)
        asked = false
        #expect(decide(settings(.terminal, allow: 15), terminal: false, allowance: false, asked: &asked) == .pauseInWindow)
        asked = false
        #expect(decide(settings(.pass, allow: 15), terminal: false, allowance: true, asked: &asked) == .passThrough(nil))
        #expect(!asked, "a pass-through is recorded as one, allowance or not")
    }

    @Test(arguments: [(LoginPolicy.pause, GateVerdict.pauseInWindow), (.skip, .skipAtLogin), (.pass, .passThrough(.autostart))])
    func at_login_decides_a_login_start(policy: LoginPolicy, verdict: GateVerdict) {
        var settings = ProgramSettings(command: "steam")
        settings.atLogin = policy
        #expect(GateVerdict.decide(hops: 0, settings: settings, insideFocusHours: true, hasTerminal: false,
                                   wantsWindow: true, loginStart: true, insideAllowance: { false }) == verdict)
        // Outside focus hours the program is not protected, at login or not.
        #expect(GateVerdict.decide(hops: 0, settings: settings, insideFocusHours: false, hasTerminal: false,
                                   wantsWindow: true, loginStart: true, insideAllowance: { false }) == .passThrough(.outsideHours))
    }

    @Test func a_menu_launch_pauses_in_a_window_whatever_the_policy_without_a_terminal() {
        for policy in NonInteractivePolicy.allCases {
            var settings = ProgramSettings(command: "steam")
            settings.nonInteractive = policy
            #expect(GateVerdict.decide(hops: 0, settings: settings, insideFocusHours: true, hasTerminal: false,
                                       wantsWindow: true, insideAllowance: { false }) == .pauseInWindow)
        }
    }

    @Test func without_a_window_a_start_the_person_is_there_for_refuses_only_under_deny() {
        for policy in NonInteractivePolicy.allCases {
            let refuses = policy == .deny
            #expect(GateVerdict.withoutWindow(settings(policy), wantsWindow: true, loginStart: false) == (refuses ? .deny : .passThrough(nil)))
            #expect(GateVerdict.withoutWindow(settings(policy), wantsWindow: false, loginStart: true) == (refuses ? .deny : .passThrough(nil)))
            // Neither from the menu nor at login: nobody waits for a window, so the program starts.
            #expect(GateVerdict.withoutWindow(settings(policy), wantsWindow: false, loginStart: false) == .passThrough(nil))
        }
    }
}
