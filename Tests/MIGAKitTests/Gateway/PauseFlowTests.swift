import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit

/// The pause's one model as a front end that is no terminal would drive it:
/// choices in, state out, both as JSON.
@Suite struct PauseFlowTests {
    let quote = Quote(id: "q1", text: "Be still / and know.", source: "Someone", tags: ["calm"])

    func flow(length: Int = 30, _ adjust: (inout PauseSession) -> Void = { _ in }) -> PauseFlow {
        var session = PauseSession(programName: "Firefox", length: length, quote: quote, at: 0)
        adjust(&session)
        return PauseFlow(session: session)
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func the_state_has_a_stable_json_shape() throws {
        var typed = flow { $0.kind = .type; $0.typingTarget = "slow" }
        _ = typed.tick(at: 12)
        #expect(try Self.json(typed.state) == """
            {"choices":["exitToFocus","deepen","proceed"],"deepenCount":0,"header":"a pause before Firefox",\
            "held":false,"kind":"type","length":30,"proceedLabel":"Proceed to Firefox","proceedOpen":false,\
            "program":"Firefox","quote":{"id":"q1","source":"Someone","tags":["calm"],"verses":["Be still","and know."]},\
            "secondsLeft":18,"typing":{"complete":false,"line":"slow","open":false,"typed":""}}
            """)

        var asking = flow(length: 5) { $0.kind = .intention; $0.asksIntention = true; $0.alternative = "a walk" }
        asking.session.beginIntention(at: 0)
        _ = asking.choose(.intention("mail"), at: 1)
        _ = asking.choose(.proceed, at: 2)
        #expect(try Self.json(asking.state) == """
            {"alternative":"a walk","choices":["exitToFocus","alternative","intention","deepen","proceed"],"deepenCount":0,\
            "header":"a pause before Firefox","held":false,"intention":{"answer":"mail",\
            "question":"What are you opening Firefox for?","whileCounting":true},"kind":"intention","length":5,\
            "notice":"notYet","proceedLabel":"Proceed to Firefox","proceedOpen":false,"program":"Firefox",\
            "quote":{"id":"q1","source":"Someone","tags":["calm"],"verses":["Be still","and know."]},"secondsLeft":3}
            """)
        #expect(try JSONDecoder().decode(PauseState.self, from: Data(Self.json(asking.state).utf8)) == asking.state)
    }

    @Test func the_state_carries_what_the_plan_says_beside_the_quote_when_given() throws {
        let breathing = flow { $0.kind = .breathe }
        var state = breathing.state
        (state.facts, state.longerBecause, state.problems) = (["3rd time today"], "longer pause (+0:30): the 4th try",
                                                              ["config.toml:3: pause is not a number"])
        #expect(state.facts == ["3rd time today"])
        #expect(state.longerBecause == "longer pause (+0:30): the 4th try")
        #expect(state.problems == ["config.toml:3: pause is not a number"])
        let json = try Self.json(state)
        #expect(json.contains(#""facts":["3rd time today"]"#) && json.contains(#""problems":["config.toml:3: pause is not a number"]"#), "\(json)")
        #expect(try JSONDecoder().decode(PauseState.self, from: Data(json.utf8)) == state)
        // Without them, the state is as before: no empty keys.
        #expect(!(try Self.json(breathing.state)).contains("facts"))
    }

    @Test func a_choice_is_read_from_its_json_and_written_back_the_same() throws {
        let choices: [(String, PauseChoice)] = [
            (#"{"choice":"exitToFocus"}"#, .exitToFocus), (#"{"choice":"deepen"}"#, .deepen),
            (#"{"choice":"proceed"}"#, .proceed), (#"{"choice":"alternative"}"#, .alternative),
            (#"{"choice":"typedLine","text":"I choose this."}"#, .typedLine("I choose this.")),
            (#"{"choice":"intention","text":"to reply to Ana"}"#, .intention("to reply to Ana")),
            (#"{"choice":"back"}"#, .back), (#"{"choice":"focus","focused":false}"#, .focus(false)),
        ]
        for (json, choice) in choices {
            #expect(try JSONDecoder().decode(PauseChoice.self, from: Data(json.utf8)) == choice)
            #expect(try Self.json(choice) == json)
        }
        #expect(Set(choices.map(\.1.name)) == Set(PauseChoice.Name.allCases))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PauseChoice.self, from: Data(#"{"choice":"launch"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PauseChoice.self, from: Data(#"{"choice":"typedLine"}"#.utf8)) }
    }

    /// The whole way to a typed pause's program, in choices alone.
    @Test func the_typed_line_and_the_question_are_choices_like_any_other() {
        var pause = flow(length: 5) { $0.typingTarget = "slow"; $0.asksIntention = true }
        #expect(pause.choose(.proceed, at: 1).isEmpty)
        #expect(pause.state.notice == .notYet)
        #expect(pause.choose(.typedLine("slow"), at: 2).isEmpty, "the field is not open before zero")
        #expect(pause.choose(.proceed, at: 5).isEmpty)
        #expect(pause.state.typing?.open == true)
        #expect(pause.state.choices == [.exitToFocus, .typedLine, .proceed, .back])
        _ = pause.choose(.typedLine("slow and more"), at: 6)
        #expect(pause.state.notice == .notQuite)
        #expect(pause.choose(.proceed, at: 6).isEmpty)
        #expect(pause.choose(.deepen, at: 6).isEmpty, "Deepen is not on offer in the field")
        _ = pause.choose(.typedLine("slow"), at: 7)
        #expect(pause.state.proceedOpen && pause.state.typing?.complete == true)
        #expect(pause.choose(.proceed, at: 7).isEmpty)
        #expect(pause.state.intention?.answer == "")
        #expect(pause.state.choices == [.exitToFocus, .intention, .proceed, .back])
        #expect(pause.choose(.proceed, at: 8).isEmpty)
        #expect(pause.state.notice == .fewWordsFirst)
        _ = pause.choose(.intention("  mail \u{07}"), at: 9)
        #expect(pause.choose(.proceed, at: 9) == [.finish(.proceed)])
        #expect(pause.session.answeredIntention == "mail")
        #expect(pause.session.progress.pausedSeconds == 9)
    }

    @Test func back_leaves_the_field_and_the_question_and_focus_holds_only_when_asked() {
        var pause = flow(length: 2) { $0.typingTarget = "slow" }
        _ = pause.choose(.proceed, at: 2)
        _ = pause.choose(.back, at: 3)
        #expect(pause.state.typing?.open == false)
        #expect(pause.state.choices == [.exitToFocus, .deepen, .proceed])
        #expect(pause.choose(.alternative, at: 3).isEmpty, "no alternative on offer")
        #expect(pause.choose(.deepen, at: 3) == [.perform(.deepen(at: 3))])

        var held = PauseSession(programName: "Firefox", length: 10, quote: quote, at: 0)
        held.holdsWhenUnfocused = true
        var holding = PauseFlow(session: held)
        _ = holding.choose(.focus(false), at: 1)
        _ = holding.tick(at: 6)
        #expect(holding.state.held && holding.state.secondsLeft == 9)
        _ = holding.choose(.focus(true), at: 6)
        _ = holding.tick(at: 7)
        #expect(holding.state.secondsLeft == 8)
    }
}
