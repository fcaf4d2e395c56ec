import Foundation
import Testing
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGATestSupport

/// Where the line pause once kept its own rules at the typed line and the
/// question, and now follows the pause's one model, as the full screen does.
@Suite struct LinePauseFollowsTheModelTests {
    enum Step: String, CaseIterable {
        case typedLine, question

        /// The words that end the step's prompt, and a session that reaches it at zero
        /// (its line, or an answer: "slow").
        var prompt: String { self == .typedLine ? "› " : "for? " }

        func session(at time: ManualTime) -> PauseSession {
            var session = PauseSession(programName: "Firefox", length: 30, quote: LinePauseTests.hostile, at: time.monotonic())
            if self == .typedLine { session.typingTarget = "slow" } else { session.asksIntention = true }
            return session
        }
    }

    /// The question of giving way goes on being asked after Proceed, as on the full screen.
    @Test(arguments: Step.allCases)
    func another_launch_proceeding_ends_the_pause_at_the_typed_line_or_the_question(_ step: Step) {
        let script = LineScript([reply(after: LinePauseTests.atZero, send: "p\n"), reply(after: step.prompt),
                                 reply(after: "never")])
        var session = step.session(at: script.time)
        let ending = script.run(&session, shouldYield: {
            script.time.advance(1)
            return script.written.hasSuffix(step.prompt)
        })
        #expect(ending == .yielded)
        #expect(script.isPlainText)
    }

    /// A stop (Ctrl-Z and `fg`, or SIGSTOP and SIGCONT from outside) is time
    /// away at the typed line and the question too: it is not counted as time paused.
    @Test(arguments: Step.allCases)
    func time_stopped_at_the_typed_line_or_the_question_does_not_count(_ step: Step) {
        let signals = makePipe()
        defer {
            close(signals.read)
            close(signals.write)
        }
        // Once the pause waits for the line: five minutes stopped, then the
        // continue signal, then the line.
        let stopped: (LineScript) -> Void = { script in
            let (time, input, signal) = (script.time, script.input, signals.write)
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
                time.advance(300)
                var byte = UInt8(SIGCONT)
                _ = write(signal, &byte, 1)
                input.write("slow\n")
            }
        }
        let script = LineScript([reply(after: LinePauseTests.keys, wait: 30), reply(after: LinePauseTests.atZero, send: "p\n"),
                                 LineScript.Reply(after: step.prompt, wait: 0, send: nil, before: stopped),
                                 reply(after: "never")])
        var session = step.session(at: script.time)
        #expect(script.run(&session, signals: signals.read) == .proceed)
        #expect(session.pausedSeconds == 30)
        #expect(script.isPlainText)
    }
}
