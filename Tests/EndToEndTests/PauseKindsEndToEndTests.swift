import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore

/// The kinds of pause through the built binary in tmux: a typed line typed
/// key by key (a paste refused, bracketed or not), an alternative chosen and
/// celebrated through a real notification server, the kind recorded; the
/// weekly look back reaching the server once.
@Suite(.serialized, .endToEnd) struct PauseKindsEndToEndTests {
    let sandbox = Sandbox()

    func miga(_ arguments: String..., environment: [String: String]? = nil) throws -> (status: Int32, output: String, error: String) {
        try run(migaBinary, arguments, environment: environment ?? sandbox.environment)
    }

    @Test func a_typed_pause_opens_the_program_only_after_the_line_of_the_quote_on_screen_is_typed_key_by_key() throws {
        // Two quotes of the test's own, the only ones drawn: each one sentence to type.
        let quotes = ["I choose my evening.", "The river does not hurry."]
        try sandbox.config("pause_kinds = [\"type\"]\ninterests = [\"Testing\"]\n")
        try FileManager.default.createDirectory(atPath: sandbox.root + "/config/miga/quotes", withIntermediateDirectories: true)
        try quotes.enumerated().map { "testing-\($0.offset + 1) | Testing | | \($0.element)" }.joined(separator: "\n")
            .write(toFile: sandbox.root + "/config/miga/quotes/testing.txt", atomically: true, encoding: .utf8)
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "3", "argv-dump", "--", "opened"]), environment: sandbox.environment)
        let first = try tmux.waitForScreen("the pause, saying a line comes") { $0.contains("after a short line typed back") }
        #expect(try sandbox.sessions().first?.kind == .type)
        // Deepen: the other quote, and the line to type is now one of its sentences.
        let before = try #require(quotes.first { first.contains($0) })
        let line = try #require(quotes.first { $0 != before })
        try tmux.send("d")
        try tmux.waitForScreen("the new quote") { $0.contains(line) && !$0.contains(before) }
        try tmux.waitForScreen("the end of the countdown") { $0.contains("the choice is yours") }
        try tmux.send("p")
        try tmux.waitForScreen("the line to type") { $0.contains("▏" + line) && $0.contains("Type the line to open Argv-dump") }
        // Pasted, all at once: it does not count.
        try tmux.send("-l", String(line.prefix(8)))
        try tmux.waitForScreen("the paste refused") { $0.contains("Pasted text does not count") && $0.contains("▏" + line) }
        // Pasted in brackets, as a terminal pastes: nothing either.
        _ = try tmux.tmux(["set-buffer", line])
        _ = try tmux.tmux(["paste-buffer", "-p"])
        try tmux.waitForScreen("the bracketed paste refused") { $0.contains("Pasted text does not count") && $0.contains("▏" + line) }
        // Keys as a hand types them: tens of milliseconds apart, never in a burst.
        func type(_ text: Substring) throws {
            for character in text {
                usleep(40_000)
                try tmux.send("-l", String(character))
            }
        }
        // A mistake is forgiven: the cursor waits at it.
        try type(line.prefix(1) + "x")
        try tmux.waitForScreen("a gentle not quite") { $0.contains("Not quite") && $0.contains(line.prefix(1) + "▏" + line.dropFirst()) }
        try type(line.dropFirst())
        try tmux.waitForScreen("the line typed") { $0.contains("Typed — Enter opens Argv-dump") }
        #expect(sandbox.read("argv") == nil)
        try tmux.send("Enter")
        #expect(try sandbox.status() == 7)
        #expect(sandbox.read("argv") == "opened\0")
        let row = try #require(try sandbox.sessions().first)
        #expect(row.outcome == .proceed && row.kind == .type && row.typed == true && row.deepenCount == 1)
    }

    @Test func own_lines_in_persian_and_devanagari_with_joiners_are_typed_a_code_point_at_a_time_and_open_the_program() throws {
        // "I want to read a book today", with the non-joiner of می‌خواهم, typed with it (a
        // Persian layout has the key); "I trust my ability", with the joiner that asks for the
        // half form of क in क्‍षमता, typed without it (an input method that does not send it).
        let persian = (line: "من می\u{200C}خواهم امروز کتاب بخوانم.", keys: "من می\u{200C}خواهم امروز کتاب بخوانم.",
                       typedUpTo: "من می\u{200C}")
        let hindi = (line: "मैं अपनी क्\u{200D}षमता पर भरोसा करता हूँ।", keys: "मैं अपनी क्षमता पर भरोसा करता हूँ।",
                     typedUpTo: "मैं अपनी क्\u{200D}ष")
        // The only quote drawn has no sentence to type: the line is the person's own.
        try sandbox.config("pause_kinds = [\"type\"]\ninterests = [\"Testing\"]\n")
        try FileManager.default.createDirectory(atPath: sandbox.root + "/config/miga/quotes", withIntermediateDirectories: true)
        try "testing-1 | Testing | | Be still.\n".write(toFile: sandbox.root + "/config/miga/quotes/testing.txt", atomically: true, encoding: .utf8)
        // Code points as a keyboard sends them, one at a time, a hand's pause apart.
        func type(_ keys: some Sequence<Unicode.Scalar>, into tmux: Tmux) throws {
            for scalar in keys {
                usleep(40_000)
                try tmux.send("-l", String(scalar))
            }
        }
        for (index, own) in [persian, hindi].enumerated() {
            // One line of the person's own at a time, so that it is the one asked for.
            if index > 0 { #expect(try miga("quotes", "remove", "mine-00\(index)").status == 0) }
            #expect(try miga("quotes", "add", own.line, "--tag", "mine").status == 0)
            let script = "run\(index).sh"
            let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "3", "argv-dump", "--", "opened"], named: script),
                                environment: sandbox.environment)
            try tmux.waitForScreen("the end of the countdown") { $0.contains("the choice is yours") }
            try tmux.send("p")
            // The whole line, its joiner kept, the cursor before it; at 80 by 24.
            try tmux.waitForScreen("the line to type") { $0.contains("▏" + own.line) && $0.contains("Type the line to open Argv-dump") }
            // Half typed: the cursor after the clusters typed, the rest of the line still there.
            let rest = String(own.line.unicodeScalars.dropFirst(own.typedUpTo.unicodeScalars.count))
            let upTo = own.keys.unicodeScalars.count - rest.unicodeScalars.count
            try type(own.keys.unicodeScalars.prefix(upTo), into: tmux)
            try tmux.waitForScreen("the cursor after \(own.typedUpTo)") { $0.contains(own.typedUpTo + "▏" + rest) }
            try type(own.keys.unicodeScalars.dropFirst(upTo), into: tmux)
            let typed = try tmux.waitForScreen("the line typed") { $0.contains("Typed — Enter opens Argv-dump") }
            #expect(typed.contains(own.line + "▏") && !typed.contains("Not quite"), "\(typed)")
            try tmux.send("Enter")
            #expect(try sandbox.status(of: script) == 7)
            #expect(sandbox.read("argv") == "opened\0")
        }
        let rows = try sandbox.sessions()
        #expect(rows.count == 2 && rows.allSatisfy { $0.outcome == .proceed && $0.kind == .type && $0.typed == true })
    }

    @Test func a_quiet_key_takes_the_kind_on_screen_out_of_the_programs_draw_until_protect_brings_it_back() throws {
        // Two kinds, the first always shown: the key is offered, faintly, under the actions.
        try sandbox.config("[programs.argv-dump]\npause_kinds = [\"breathe\", \"type\"]\nrotate = \"off\"\n")
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "30", "argv-dump", "--", "opened"]), environment: sandbox.environment)
        let screen = try tmux.waitForScreen("the quiet key at 80x24") { $0.contains("Ctrl-N: not this kind for Argv-dump") }
        // It takes a row that was free: the actions are all there, on one row, and nothing is pushed off.
        #expect(screen.contains("[E] Exit to Focus") && screen.contains("[P] Proceed to Argv-dump"))
        #expect(screen.contains("a pause before Argv-dump") && screen.contains("Proceed opens"))
        try tmux.send("C-n")
        try tmux.waitForScreen("what it did") { $0.contains("Noted: no more breathe pauses for Argv-dump") }
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
        // Recorded, and out of the program's kinds: the next pause is a typed one.
        #expect(try SessionStore(path: sandbox.root + "/data/miga/miga.sqlite").declinedKinds(program: "argv-dump") == [.breathe])
        #expect(sandbox.read("config/miga/config.toml")?.contains("pause_kinds = [\"type\"]") == true)
        // `protect --kinds` brings it back.
        let back = try miga("protect", "argv-dump", "--kinds", "breathe,type")
        #expect(back.status == 0, "\(back)")
        #expect(sandbox.read("config/miga/config.toml")?.contains("pause_kinds = [\"breathe\", \"type\"]") == true)
        // A single kind, nothing to choose among: no key offered. And wide, the key still fits on its row.
        try sandbox.config("[programs.argv-dump]\npause_kinds = [\"breathe\"]\n")
        let alone = try Tmux(columns: 160, rows: 40, command: try sandbox.gateScript(["--pause", "30", "argv-dump"], named: "alone.sh"),
                             environment: sandbox.environment)
        let plain = try alone.waitForScreen("a pause of one kind") { $0.contains("[E] Exit to Focus") }
        #expect(!plain.contains("Ctrl-N"))
        try alone.send("e")
        #expect(try sandbox.status(of: "alone.sh") == 0)
    }

    @Test func a_kind_with_nothing_to_show_is_named_as_left_out_by_stats_and_doctor() throws {
        // The only quote in use has no sentence long enough to type, and there is no line of the person's own.
        try sandbox.config("interests = [\"Testing\"]\n[programs.argv-dump]\npause_kinds = [\"breathe\", \"type\"]\n")
        try FileManager.default.createDirectory(atPath: sandbox.root + "/config/miga/quotes", withIntermediateDirectories: true)
        try "testing-1 | Testing | | Be still.\n".write(toFile: sandbox.root + "/config/miga/quotes/testing.txt",
                                                              atomically: true, encoding: .utf8)
        let said = "type is left out of Argv-dump's draw: no line to type"
        // A pause already, so that the stats show their kinds.
        let end = Date().addingTimeInterval(-3_600)
        try SessionStore(path: sandbox.root + "/data/miga/miga.sqlite").insertMissing([
            SessionRecord(id: "one", program: "argv-dump", startedAt: end - 30, endedAt: end, outcome: .exit, pausedSeconds: 30, kind: .breathe),
        ])
        let stats = try miga("stats")
        #expect(stats.status == 0 && stats.output.contains(said), "\(stats)")
        let doctor = try miga("doctor")
        #expect(doctor.output.contains("· " + said), "\(doctor)")
    }

    @Test func the_learner_starts_afresh_only_when_the_person_confirms_it() throws {
        try sandbox.config("[programs.discord]\npause_kinds = [\"breathe\", \"type\"]\n")
        let store = { try SessionStore(path: self.sandbox.root + "/data/miga/miga.sqlite") }
        // Without a terminal to ask in: refused, and nothing recorded, unless --yes says it was meant.
        let refused = try miga("stats", "--program", "discord", "--reset-learning")
        #expect(refused.status == ExitStatus.usage && refused.error.contains("needs --yes"), "\(refused)")
        #expect(try store().learningReset(program: "discord") == nil)
        let meant = try miga("stats", "--program", "discord", "--reset-learning", "--yes")
        #expect(meant.status == 0 && meant.output.contains("learns afresh"), "\(meant)")
        let first = try #require(try store().learningReset(program: "discord"))
        // In a terminal it asks for a word typed first; anything else changes nothing.
        let tmux = try Tmux(command: try sandbox.migaScript(["stats", "--program", "discord", "--reset-learning"]),
                            environment: sandbox.environment)
        try tmux.waitForScreen("the question") { $0.contains("Type reset to go on") }
        try tmux.send("-l", "no")
        try tmux.send("Enter")
        try tmux.waitForScreen("nothing done") { $0.contains("Nothing was changed.") }
        #expect(try sandbox.status() == 0)
        #expect(try store().learningReset(program: "discord") == first)
        let again = try Tmux(command: try sandbox.migaScript(["stats", "--program", "discord", "--reset-learning"], named: "again.sh"),
                             environment: sandbox.environment)
        try again.waitForScreen("the question") { $0.contains("Type reset to go on") }
        try again.send("-l", "reset")
        try again.send("Enter")
        try again.waitForScreen("the reset said") { $0.contains("learns afresh") }
        #expect(try sandbox.status(of: "again.sh") == 0)
        #expect(try #require(try store().learningReset(program: "discord")) > first)
    }

    @Test func an_intention_pause_takes_the_answer_while_it_counts_and_keeps_it_with_the_session() throws {
        try sandbox.config("pause_kinds = [\"intention\"]\n")
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "3", "argv-dump", "--", "opened"]), environment: sandbox.environment)
        try tmux.waitForScreen("the question, open from the first frame, and the way out") {
            $0.contains("What are you opening Argv-dump for?") && $0.contains("[Esc] Exit to Focus")
        }
        #expect(try sandbox.sessions().first?.kind == .intention)
        // Letters that are keys elsewhere (e, d, p) type the answer here.
        try tmux.send("-l", "to reply to Sam, deeply")
        try tmux.waitForScreen("the answer typed") { $0.contains("› to reply to Sam, deeply▏") }
        try tmux.waitForScreen("the end of the countdown") { $0.contains("0:00") && $0.contains("[Enter] Proceed") }
        #expect(sandbox.read("argv") == nil)
        try tmux.send("Enter")
        #expect(try sandbox.status() == 7)
        #expect(sandbox.read("argv") == "opened\0")
        let row = try #require(try sandbox.sessions().first)
        #expect(row.outcome == .proceed && row.kind == .intention && row.intention == "to reply to Sam, deeply")
    }

    @Test func an_intention_pause_is_left_for_focus_with_one_key() throws {
        try sandbox.config("pause_kinds = [\"intention\"]\n")
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: sandbox.environment)
        try tmux.waitForScreen("the question and the way out") { $0.contains("What are you opening") && $0.contains("[Esc] Exit to Focus") }
        try tmux.send("-l", "email")
        try tmux.waitForScreen("the answer begun") { $0.contains("› email▏") }
        try tmux.send("Escape")
        #expect(try sandbox.status() == 0)
        #expect(sandbox.read("argv") == nil)
        let row = try #require(try sandbox.sessions().first)
        #expect(row.outcome == .exit && row.kind == .intention && row.intention == nil)
    }

    @Test func with_nothing_to_type_or_offer_the_pause_breathes_and_says_so() throws {
        try sandbox.config("pause_kinds = [\"instead\"]\n")
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "30", "argv-dump"]), environment: sandbox.environment)
        try tmux.waitForScreen("the pause, saying why") { $0.contains("A breathing pause: no alternatives yet") }
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
        #expect(try sandbox.sessions().first?.kind == .breathe)
    }

    @Test func an_alternative_chosen_is_an_exit_recorded_with_it_and_celebrated() throws {
        let server = try NotificationServer(folder: sandbox.root + "/server")
        let environment = sandbox.environment.merging(["DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress]) { $1 }
        try sandbox.config("pause_kinds = [\"instead\"]\n")
        #expect(try miga("instead", "add", "read ten pages").output == "Added: read ten pages\n")
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: environment)
        try tmux.waitForScreen("the alternative on offer") { $0.contains("[I] Instead: read ten pages") }
        try tmux.send("i")
        #expect(try sandbox.status() == 0)
        let row = try #require(try sandbox.sessions().first)
        #expect(row.outcome == .exit && row.kind == .instead && row.alternative == "read ten pages")
        let log = try eventually("the Notify call") { server.notifyCalls > 0 ? server.monitorLog : nil }
        // (dbus-monitor prints the string as it is, inner quotes unescaped.)
        #expect(log.contains("string \"You chose \"read ten pages\" over Argv-dump. This moment is yours.\""), "\(log)")
        #expect(sandbox.read("argv") == nil)
        // Carried by the export.
        let export = try miga("export", "--format", "json").output
        #expect(export.contains("\"alternative\" : \"read ten pages\"") && export.contains("\"kind\" : \"instead\""), "\(export)")
    }

    /// Three weeks of a history, one exit and one proceed a day, and last week's look back already sent.
    func historyDueForTheLookBack() throws {
        let now = Date()
        var records: [SessionRecord] = []
        for day in 1...21 {
            let end = now.addingTimeInterval(-Double(day) * 86_400)
            records.append(SessionRecord(id: "e\(day)", program: "discord", startedAt: end - 60, endedAt: end, outcome: .exit, kind: .breathe))
            records.append(SessionRecord(id: "p\(day)", program: "discord", startedAt: end - 30, endedAt: end, outcome: .proceed, kind: .breathe))
        }
        try FileManager.default.createDirectory(atPath: sandbox.root + "/data/miga", withIntermediateDirectories: true)
        let store = try SessionStore(path: sandbox.storePath)
        try store.insertMissing(records)
        let thisWeek = WeeklyLookBack.due(before: now, in: .utc).monday
        try store.setMeta(WeeklyLookBack.metaKey, String(thisWeek.number - 7))
    }

    @Test func the_weekly_look_back_reaches_the_notification_server_once_a_week() throws {
        let server = try NotificationServer(folder: sandbox.root + "/server")
        let environment = sandbox.environment.merging(["DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress]) { $1 }
        try historyDueForTheLookBack()
        // A command that acts (one that only looks, as `miga list`, notifies nobody; see `Upkeep`).
        #expect(try miga("refresh", environment: environment).status == 0)
        let log = try eventually("the Notify call") { server.notifyCalls > 0 ? server.monitorLog : nil }
        #expect(log.contains("string \"Your week with MIGA\""), "\(log)")
        #expect(log.contains("string \"14 attempts, 7 conscious exits"), "\(log)")
        // Once a week: the next run sends nothing more.
        #expect(try miga("refresh", environment: environment).status == 0)
        #expect(try server.settledCalls(summary: WeeklyReview.title) == 1)
    }

    @Test func a_pause_ended_in_the_weeks_first_run_sends_the_look_back_once() throws {
        // Someone who opens programs only through MIGA, without the sync timer.
        let server = try NotificationServer(folder: sandbox.root + "/server")
        let environment = sandbox.environment.merging(["DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress]) { $1 }
        try historyDueForTheLookBack()
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: environment)
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
        let log = try eventually("the look back's Notify call") { server.monitorLog.contains("string \"\(WeeklyReview.title)\"") ? server.monitorLog : nil }
        #expect(log.contains("string \"14 attempts, 7 conscious exits"), "\(log)")
        // The next pause of the week sends nothing more.
        let again = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"], named: "again.sh"), environment: environment)
        try again.waitForScreen("the second pause") { $0.contains("Exit to Focus") }
        try again.send("e")
        #expect(try sandbox.status(of: "again.sh") == 0)
        #expect(try server.settledCalls(summary: WeeklyReview.title) == 1)
    }
}
