import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal

/// How the rules show on the pause: the impulse under the header, the reason
/// for a longer pause, the held countdown, the intention question.
@Suite struct PauseRulesScreenTests {
    let quote = Quote(id: "stoicism-002", text: "Thoughts arrive uninvited. You still get to decide which ones are offered a chair.",
                      source: "inspired by Epictetus", tags: ["Stoicism", "Courage"])
    let size = TerminalSize(columns: 80, rows: 24)

    func session(length: Int = 90, elapsed: Double = 0, asks: Bool = false) -> PauseSession {
        var session = PauseSession(programName: "Discord", length: length, quote: quote, at: 0)
        session.asksIntention = asks
        session.advance(to: elapsed)
        return session
    }

    @Test func snapshot_of_an_escalated_pause_with_its_context() throws {
        let look = PauseLook(motion: false, context: ["3rd time today · the last was 12 minutes ago"],
                             longerBecause: "A longer pause (+1:00): the 3rd try within the hour")
        let frame = PauseScreen.frame(session(length: 150, elapsed: 20), size: size, look: look)
        try assertSnapshot(frame.text, named: "pause-80x24-escalated")
        #expect(frame.text.contains("3rd time today"))
        #expect(frame.text.contains("A longer pause (+1:00)"))
        #expect(frame.text.contains("2:10"))
    }

    @Test func snapshot_of_the_intention_question() throws {
        var asking = session(elapsed: 95, asks: true)
        asking.beginIntention(at: 96)
        for character in "to reply to Sam" { asking.typeIntention(character) }
        let frame = PauseScreen.frame(asking, size: size, look: PauseLook(motion: false))
        try assertSnapshot(frame.text, named: "pause-80x24-intention")
        #expect(frame.text.contains("What are you opening Discord for?"))
        #expect(frame.text.contains("› to reply to Sam▏"))
    }

    @Test func the_question_opens_without_moving_anything_above_it() {
        let ready = session(elapsed: 95, asks: true)
        var asking = ready
        asking.beginIntention(at: 95)
        let before = PauseScreen.frame(ready, size: size, look: PauseLook(motion: false)).text.split(separator: "\n", omittingEmptySubsequences: false)
        let after = PauseScreen.frame(asking, size: size, look: PauseLook(motion: false)).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(before.count == after.count)
        // Quote, ring and status row stay where they were; only the bottom rows change.
        let ringRows = before.indices.filter { before[$0].contains("ready") }
        #expect(!ringRows.isEmpty)
        #expect(ringRows.allSatisfy { after[$0] == before[$0] })
    }

    @Test func a_held_countdown_says_so_and_stands_still() {
        var held = session(length: 60, elapsed: 10)
        held.hold(at: 10)
        held.advance(to: 100)
        #expect(held.secondsLeft == 50)
        #expect(held.pausedSeconds == 100)
        let frame = PauseScreen.frame(held, size: size, look: PauseLook(motion: false))
        #expect(frame.text.contains("Held while you look away — it resumes when you return"))
        #expect(frame.text.contains("held"))
        held.release(at: 100)
        held.advance(to: 150)
        #expect(held.canProceed)
    }

    @Test func narrow_windows_keep_every_rule_line_whole() {
        var asking = session(elapsed: 95, asks: true)
        asking.beginIntention(at: 96)
        for columns in [30, 40, 60] {
            let look = PauseLook(motion: false, context: ["3rd time today · the last was 12 minutes ago"],
                                 longerBecause: "A longer pause (+1:00): the 3rd try within the hour")
            for text in [PauseScreen.frame(session(length: 150, elapsed: 20), size: TerminalSize(columns: columns, rows: 24), look: look).text,
                         PauseScreen.frame(asking, size: TerminalSize(columns: columns, rows: 24), look: look).text] {
                for line in text.split(separator: "\n") { #expect(CellWidth.of(line) <= columns) }
            }
        }
    }
}

@Suite struct IntentionTypingTests {
    func asking() -> PauseSession {
        var session = PauseSession(programName: "Discord", length: 1, quote: Quote(id: "q", text: "Q", source: nil, tags: ["T"]), at: 0)
        session.asksIntention = true
        session.advance(to: 2)
        session.beginIntention(at: 2)
        return session
    }

    @Test func an_answer_is_one_line_of_printable_text_within_its_limit() {
        var session = asking()
        for character in "to\u{1B}[31m read\t\u{7F}" { session.typeIntention(character) }
        #expect(session.intention == "to[31m read")
        for _ in 0..<200 { session.typeIntention("x") }
        #expect(session.intention?.count == PauseSession.intentionLimit)
    }

    @Test func blank_answers_do_not_count_and_answers_are_trimmed() {
        var session = asking()
        session.typeIntention(" ")
        #expect(session.answeredIntention == nil)
        for character in "learn Swift  " { session.typeIntention(character) }
        #expect(session.answeredIntention == "learn Swift")
    }

    @Test func backspace_word_and_line_erasing() {
        var session = asking()
        for character in "check the news " { session.typeIntention(character) }
        session.eraseIntention(word: true)
        #expect(session.intention == "check the ")
        session.eraseIntention()
        #expect(session.intention == "check the")
        session.clearIntention()
        #expect(session.intention == "")
        session.cancelIntention(at: 3)
        #expect(session.isAskingIntention == false)
        session.clearIntention()
        #expect(session.intention == nil)
    }
}
