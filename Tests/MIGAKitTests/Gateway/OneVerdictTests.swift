import Foundation
import Testing
@testable import MIGACore
@testable import MIGAConfig
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGATestSupport

/// One verdict decides every launch and visit: a program launched from a
/// terminal and a site visited in the browser, with the same settings and
/// the same history, are decided alike, through the real gateway and the
/// real browser's host, over one real store.
@Suite struct OneVerdictTests {
    let home = TemporaryDirectory()
    /// Friday 2027-01-15, 08:00 UTC.
    let time = ManualTime(wall: Date(timeIntervalSince1970: 1_800_000_000))
    static let rules = "allow_minutes = 15\nhours = \"Fri 07:00-09:00\"\npause = 5\n"

    init() throws {
        try home.write("#!/bin/sh\nexit 0\n", to: "bin/fake")
        chmod(home.path + "/bin/fake", 0o755)
        try home.write("[programs.fake]\n\(Self.rules)[sites.\"example.org\"]\n\(Self.rules)", to: "config/miga/config.toml")
    }

    func context(_ terminal: TerminalDevice?) -> GatewayContext {
        GatewayContext(
            environment: ["HOME": home.path, "LANG": "C.UTF-8", "XDG_CONFIG_HOME": home.path + "/config",
                          "XDG_DATA_HOME": home.path + "/data", "PATH": home.path + "/bin", "NO_COLOR": "1"],
            time: time, timeZone: .utc, generator: SeededGenerator(seed: 7), terminal: terminal,
            notifier: RecordingNotifier(), messages: { _ in }, gatewayIdentity: nil, processID: 4242,
            gatewayPath: "/opt/miga/bin/miga", remind: { _ in })
    }

    var store: SessionStore { get throws { try SessionStore(path: home.path + "/data/miga/miga.sqlite") } }

    /// What a launch of the program from a terminal came to: "pause", or
    /// why it opened without one, as its row says.
    func launchProgram() throws -> String {
        let before = Set(try store.sessions().map(\.id))
        let terminal = ScriptedTerminal(time: time, script: [ScriptedTerminal.keys("e")])
        _ = Gateway(context: context(terminal)).run(GateRequest(command: "fake"))
        if terminal.enterCount > 0 { return "pause" }
        let row = try #require(try store.sessions().first { $0.program == "fake" && !before.contains($0.id) })
        return row.reason?.rawValue ?? row.outcome.rawValue
    }

    /// What a visit of the site came to, as the host answers the tab, and
    /// the allowance's end it gives.
    func visitSite() throws -> (String, until: Double?) {
        let host = NativeHost(context: context(nil), browser: .chromium)
        defer { host.finish() }
        let answer = try #require(try JSONSerialization.jsonObject(
            with: Data(host.answer(Array(#"{"type":"pause","url":"https://example.org/"}"#.utf8)))) as? [String: Any])
        if answer["type"] as? String == "state" { return ("pause", nil) }
        return (answer["reason"] as? String ?? "?", answer["allowedUntil"] as? Double)
    }

    func proceeded(minutesAgo: Double) throws {
        let end = time.now().addingTimeInterval(-minutesAgo * 60)
        try store.insertMissing(["fake", "site:example.org"].map {
            SessionRecord(id: "proceed-\($0)-\(minutesAgo)", program: $0, startedAt: end - 30, endedAt: end, outcome: .proceed)
        })
    }

    @Test func a_program_and_a_site_with_the_same_settings_give_the_same_facts() throws {
        let config = ConfigLoader.load(from: home.path + "/config/miga/config.toml").config
        let program = config.settings(for: "fake"), site = try #require(config.sites["example.org"])
        #expect(program.command != site.command)
        let now = time.now()
        #expect(GateFacts(program, now: now, zone: .utc, front: .here) == GateFacts(site, now: now, zone: .utc, front: .here))
    }

    @Test func a_program_and_a_site_with_the_same_history_are_decided_alike() throws {
        // Nothing yet: a pause for each.
        #expect(try launchProgram() == "pause")
        #expect(try visitSite().0 == "pause")
        // A Proceed of each five minutes ago: both open inside the allowance, the site until its end.
        try proceeded(minutesAgo: 5)
        #expect(try launchProgram() == "allowed")
        let (visit, until) = try visitSite()
        #expect(visit == "allowed")
        #expect(until == Double(time.now().addingTimeInterval(10 * 60).milliseconds))
        // Eleven minutes on, the allowance is over for both.
        time.advance(11 * 60)
        #expect(try launchProgram() == "pause")
        #expect(try visitSite().0 == "pause")
        // At 09:30 both are outside their focus hours.
        time.advance(3600 - 11 * 60 + 30 * 60)
        #expect(try launchProgram() == "outside-hours")
        #expect(try visitSite().0 == "outside-hours")
        let rows = try store.sessions()
        for program in ["fake", "site:example.org"] {
            let reasons = rows.filter { $0.program == program && $0.outcome == .passthrough }.compactMap(\.reason?.rawValue)
            #expect(reasons.sorted() == ["allowed", "outside-hours"], "\(program)")
        }
    }
}
