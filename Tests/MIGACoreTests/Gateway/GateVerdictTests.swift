import Foundation
import Testing
@testable import MIGACore

/// Every rule of whether a launch or a visit pauses, with plain values: the
/// cases one by one, then every combination of the facts against the
/// promises the callers rely on.
@Suite struct GateVerdictTests {
    /// 2027-01-15 08:00 UTC, a Friday; 09:00 in Berlin.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { Self.now }
    static let allowance: TimeInterval = 15 * 60

    /// A launch from a script, a menu or a login, with no terminal.
    func elsewhere(_ policy: NonInteractivePolicy = .pass, allowance: TimeInterval? = nil,
                   store: GateFacts.StoreAnswer = .unread, window: GateFacts.WindowTry = .untried) -> GateFacts {
        GateFacts(now: now, front: .elsewhere(window: window), withoutTerminal: policy, allowance: allowance, store: store)
    }

    // MARK: One by one

    @Test func a_terminal_gets_the_pause_and_a_second_gateway_of_the_same_launch_none() {
        #expect(GateVerdict(GateFacts(now: now, front: .here)) == .pause)
        var later = elsewhere(.deny, allowance: Self.allowance)
        later.hops = 1
        later.focusHours = try! FocusHours("Sat 10:00-11:00")
        #expect(GateVerdict(later) == .launch)
    }

    @Test func outside_focus_hours_the_program_passes_with_or_without_a_terminal() throws {
        let hours = try FocusHours("Mon-Fri 09:00-17:00")
        var facts = GateFacts(now: now, focusHours: hours, front: .here, allowance: Self.allowance)
        #expect(GateVerdict(facts) == .passThrough(.outsideHours))
        facts.front = .elsewhere(window: .untried)
        facts.withoutTerminal = .deny
        #expect(GateVerdict(facts) == .passThrough(.outsideHours))
        // Read on the wall clock of the zone given: 09:00 in Berlin is inside.
        facts.zone = try #require(LocalZone(identifier: "Europe/Berlin"))
        #expect(GateVerdict(facts) == .askStore)
    }

    @Test(arguments: [(NonInteractivePolicy.pass, GateVerdict.passThrough(nil)), (.terminal, .pauseInWindow), (.deny, .deny)])
    func without_a_terminal_the_policy_decides(policy: NonInteractivePolicy, verdict: GateVerdict) {
        #expect(GateVerdict(elsewhere(policy)) == verdict, "no allowance set: the store is not asked")
    }

    @Test func without_a_terminal_an_allowance_opens_it_but_only_a_policy_other_than_pass_asks() {
        #expect(GateVerdict(elsewhere(.deny, allowance: Self.allowance)) == .askStore)
        let ended = now.addingTimeInterval(-60)
        #expect(GateVerdict(elsewhere(.deny, allowance: Self.allowance, store: .lastProceed(endedAt: ended)))
            == .allowed(until: ended + Self.allowance))
        #expect(GateVerdict(elsewhere(.terminal, allowance: Self.allowance, store: .lastProceed(endedAt: nil))) == .pauseInWindow)
        #expect(GateVerdict(elsewhere(.pass, allowance: Self.allowance)) == .passThrough(nil),
                "a pass-through is recorded as one, allowance or not")
    }

    @Test func with_a_terminal_or_in_the_tab_an_allowance_is_the_store_s_to_answer() {
        let facts = GateFacts(now: now, front: .here, allowance: Self.allowance)
        #expect(GateVerdict(facts) == .askStore)
        #expect(GateVerdict(facts.answered(lastProceedEndedAt: nil)) == .pause)
        // The allowance counts from the end of the Proceed, its last moment included.
        let edge = now.addingTimeInterval(-Self.allowance)
        #expect(GateVerdict(facts.answered(lastProceedEndedAt: edge)) == .allowed(until: now))
        #expect(GateVerdict(facts.answered(lastProceedEndedAt: edge.addingTimeInterval(-0.001))) == .pause)
        // Without an allowance, no Proceed opens anything and the store is not asked.
        var none = facts.answered(lastProceedEndedAt: now)
        none.allowance = nil
        #expect(GateVerdict(none) == .pause)
        #expect(GateVerdict(GateFacts(now: now, front: .here)) == .pause)
    }

    @Test(arguments: [(LoginPolicy.pause, GateVerdict.pauseInWindow), (.skip, .skipAtLogin), (.pass, .passThrough(.autostart))])
    func at_login_decides_a_login_start(policy: LoginPolicy, verdict: GateVerdict) throws {
        var facts = GateFacts(now: now, front: .elsewhere(window: .untried), wantsWindow: true, loginStart: true,
                              loginPolicy: policy)
        #expect(GateVerdict(facts) == verdict)
        // Outside focus hours the program is not protected, at login or not.
        facts.focusHours = try FocusHours("Sat 10:00-11:00")
        #expect(GateVerdict(facts) == .passThrough(.outsideHours))
    }

    @Test func a_menu_launch_pauses_in_a_window_whatever_the_policy_without_a_terminal() {
        for policy in NonInteractivePolicy.allCases {
            var facts = elsewhere(policy)
            facts.wantsWindow = true
            #expect(GateVerdict(facts) == .pauseInWindow)
        }
    }

    @Test func without_a_window_a_start_the_person_is_there_for_refuses_only_under_deny() {
        for policy in NonInteractivePolicy.allCases {
            let refuses = policy == .deny
            for window in [GateFacts.WindowTry.impossible, .neverOpened] {
                let passed = GateVerdict.passThrough(window == .neverOpened ? .noWindow : nil)
                var menu = elsewhere(policy, window: window)
                menu.wantsWindow = true
                #expect(GateVerdict(menu) == (refuses ? .deny : passed))
                var login = elsewhere(policy, window: window)
                (login.wantsWindow, login.loginStart) = (true, true)
                #expect(GateVerdict(login) == (refuses ? .deny : passed))
            }
        }
        // Neither from the menu nor at login, a window is tried only under the
        // terminal policy: nobody waits for it, so without one the program starts.
        #expect(GateVerdict(elsewhere(.terminal, window: .impossible)) == .passThrough(nil))
        #expect(GateVerdict(elsewhere(.terminal, window: .neverOpened)) == .passThrough(.noWindow))
    }

    // MARK: Every combination

    /// Every combination of the facts that tell verdicts apart.
    static let everyFacts: [GateFacts] = {
        let hours = [nil, try! FocusHours("Fri 07:00-09:00"), try! FocusHours("Sat 10:00-11:00")]
        let fronts: [GateFacts.Front] = [.here, .elsewhere(window: .untried), .elsewhere(window: .impossible),
                                         .elsewhere(window: .neverOpened)]
        let answers: [GateFacts.StoreAnswer] = [.unread, .lastProceed(endedAt: nil), .lastProceed(endedAt: now - 60),
                                                .lastProceed(endedAt: now - allowance - 60)]
        var all: [GateFacts] = []
        for hops in [0, 1] { for focus in hours { for front in fronts { for wantsWindow in [false, true] {
            for loginStart in [false, true] { for policy in NonInteractivePolicy.allCases { for login in LoginPolicy.allCases {
                for allowance in [nil, allowance] { for store in answers {
                    all.append(GateFacts(hops: hops, now: now, focusHours: focus, front: front, wantsWindow: wantsWindow,
                                         loginStart: loginStart, withoutTerminal: policy, loginPolicy: login,
                                         allowance: allowance, store: store))
                } }
            } } }
        } } } }
        return all
    }()

    @Test func the_combinations_are_all_there() {
        #expect(Self.everyFacts.count == 2 * 3 * 4 * 2 * 2 * 3 * 3 * 2 * 4)
    }

    @Test func the_store_is_asked_only_for_an_allowance_and_never_again_once_it_answered() {
        for facts in Self.everyFacts where GateVerdict(facts) == .askStore {
            #expect(facts.allowance != nil && facts.store == .unread, "\(facts)")
        }
    }

    /// What lets the gateway decide without the store when the verdict does
    /// not ask for it: the store's answer changes only a verdict that asked.
    @Test func the_store_s_answer_changes_no_verdict_that_did_not_ask_for_it() {
        for facts in Self.everyFacts where facts.store == .unread {
            let verdict = GateVerdict(facts)
            for ended in [nil, now - 60, now - Self.allowance - 60] {
                let answered = GateVerdict(facts.answered(lastProceedEndedAt: ended))
                if verdict == .askStore {
                    #expect(answered != .askStore, "\(facts)")
                } else {
                    #expect(answered == verdict, "\(facts)")
                }
            }
        }
    }

    @Test func an_allowance_opens_only_within_its_minutes_of_a_proceed_and_ends_at_their_end() {
        for facts in Self.everyFacts {
            guard case .allowed(let until) = GateVerdict(facts) else { continue }
            guard let allowance = facts.allowance, case .lastProceed(let ended?) = facts.store else {
                Issue.record("allowed without an allowance and a Proceed: \(facts)"); continue
            }
            #expect(until == ended + allowance && now <= until, "\(facts)")
        }
    }

    @Test func each_verdict_comes_only_from_the_facts_that_call_for_it() {
        for facts in Self.everyFacts {
            let verdict = GateVerdict(facts)
            #expect((verdict == .launch) == (facts.hops > 0), "\(facts)")
            switch verdict {
            case .pause: #expect(facts.front == .here, "\(facts)")
            case .pauseInWindow: #expect(facts.front == .elsewhere(window: .untried), "\(facts)")
            case .skipAtLogin: #expect(facts.loginStart && facts.loginPolicy == .skip, "\(facts)")
            case .passThrough(.outsideHours): #expect(facts.focusHours?.contains(now, in: facts.zone) == false, "\(facts)")
            case .passThrough(.autostart): #expect(facts.loginStart && facts.loginPolicy == .pass, "\(facts)")
            case .passThrough(.noWindow): #expect(facts.front == .elsewhere(window: .neverOpened), "\(facts)")
            case .deny: #expect(facts.front != .here && facts.withoutTerminal == .deny, "\(facts)")
            case .launch, .allowed, .askStore, .passThrough: break
            }
        }
    }

    /// A visit of a protected site is decided as a launch from a terminal:
    /// the tab is where its pause is shown. What is met there, the browser's
    /// host answers: a pause, an allowance, or outside its focus hours.
    @Test func a_pause_shown_here_depends_on_nothing_of_a_start_without_a_terminal() {
        for facts in Self.everyFacts where facts.front == .here && facts.hops == 0 && !facts.loginStart {
            let verdict = GateVerdict(facts)
            var other = facts
            other.wantsWindow.toggle()
            for policy in NonInteractivePolicy.allCases {
                other.withoutTerminal = policy
                #expect(GateVerdict(other) == verdict, "\(facts)")
            }
            switch verdict {
            case .pause, .askStore, .allowed, .passThrough(.outsideHours): break
            default: Issue.record("a visit met \(verdict): \(facts)")
            }
        }
    }
}
