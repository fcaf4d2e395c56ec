import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGADesktop

/// Setup's last question when browsers are found: "Sites in your browser".
@Suite struct SetupBrowsersTests {
    let size = TerminalSize(columns: 80, rows: 24)

    func flow(browsers: [String], hook: HookOffer? = SetupFlowTests.hook, sitesProtected: Bool = true) -> SetupFlow {
        SetupFlow(firstRun: false, programs: SetupFlowTests.programs, sites: sitesProtected ? ["youtube.com"] : [],
                  tags: SetupFlowTests.tags, hook: hook, browsers: browsers, check: { _ in nil })
    }

    func press(_ keys: [Key], on flow: inout SetupFlow) -> SetupFlow.Result? {
        var result: SetupFlow.Result?
        for key in keys { result = flow.handle(key) ?? result }
        return result
    }

    @Test func with_browsers_found_the_last_question_offers_to_equip_them() {
        var setup = flow(browsers: ["Firefox ESR", "Chromium"])
        _ = press([.space, .enter, .enter, .enter, .character("y")], on: &setup)
        #expect(setup.step == .browsers)
        let page = setup.frame(size: size).text
        #expect(page.contains("Sites in your browser"))
        #expect(page.contains("Firefox ESR and Chromium"))
        _ = press([.character("n")], on: &setup)
        #expect(setup.step == .ready)
        #expect(setup.answers.equipBrowsers == false)
        #expect(setup.frame(size: size).text.contains("not now (see miga browser setup)"))
        _ = press([.backspace], on: &setup)
        #expect(setup.step == .browsers)
        _ = press([.character("y")], on: &setup)
        #expect(setup.frame(size: size).text.contains("equip Firefox ESR, Chromium"))
        let finished = press([.enter], on: &setup)
        guard case .finished(let answers)? = finished else { Issue.record("setup did not finish"); return }
        #expect(answers.equipBrowsers)
        #expect(answers.addHook)
    }

    @Test func without_a_hook_to_offer_the_browsers_follow_the_pause_and_backspace_returns() {
        var setup = flow(browsers: ["Brave"], hook: nil)
        _ = press([.space, .enter, .enter, .enter], on: &setup)
        #expect(setup.step == .browsers)
        _ = press([.backspace], on: &setup)
        #expect(setup.step == .pause)
    }

    @Test(arguments: [(["Chromium"], false), ([], true)])
    func with_no_browser_found_or_no_site_protected_there_is_no_such_question(browsers: [String], sitesProtected: Bool) {
        var setup = flow(browsers: browsers, sitesProtected: sitesProtected)
        _ = press([.space, .enter, .enter, .enter, .character("y")], on: &setup)
        #expect(setup.step == .ready)
        #expect(!setup.frame(size: size).text.contains("Browsers"))
        #expect(setup.answers.equipBrowsers == false)
        _ = press([.backspace], on: &setup)
        #expect(setup.step == .hook)
    }
}
