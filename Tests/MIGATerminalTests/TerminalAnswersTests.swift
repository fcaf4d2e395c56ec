import Testing
import MIGACore
@testable import MIGATerminal
@testable import MIGATestSupport

/// Whatever a terminal answers (a colour, a capability, an image protocol's
/// status, in 7-bit or 8-bit controls), none of it is keys: "dede" in an
/// answer neither deepens nor exits. And however an answer goes wrong (it
/// never ends, or its Esc comes apart from the rest), Exit to Focus is never
/// held back for long.
@Suite struct TerminalAnswersTests {
    static let escape: UInt8 = 0x1B

    /// Each holds d (Deepen), e and q (Exit) and p (Proceed).
    static let answers: [(String, [UInt8])] = [
        ("DCS, ended by ST", Array("\u{1B}P1$r0;dede;pq\u{1B}\\".utf8)),
        ("DCS, ended by BEL", Array("\u{1B}P>|xterm(dede)p\u{07}".utf8)),
        ("APC", Array("\u{1B}_Gi=1;dedeqp\u{1B}\\".utf8)),
        ("PM", Array("\u{1B}^deep quiet\u{1B}\\".utf8)),
        ("SOS", Array("\u{1B}Xdeep quiet\u{1B}\\".utf8)),
        ("OSC led by a letter (the window title)", Array("\u{1B}]ldeep quiet\u{1B}\\".utf8)),
        // ✜ is E2 9C 9C: a 0x9C inside a character is no 8-bit ST.
        ("a title holding a character with 0x9C in it", Array("\u{1B}]l✜ deep quiet\u{1B}\\".utf8)),
        ("8-bit DCS", [0x90] + Array("1$r0;dede;pq".utf8) + [0x9C]),
        ("8-bit OSC", [0x9D] + Array("11;rgb:dede/dede/dede".utf8) + [0x07]),
        ("8-bit OSC, ended by 8-bit ST", [0x9D] + Array("11;rgb:dede/dede/dede".utf8) + [0x9C]),
        ("8-bit PM", [0x9E] + Array("deep quiet".utf8) + [0x9C]),
        ("8-bit APC", [0x9F] + Array("Gi=1;dedeqp".utf8) + [0x9C]),
        ("8-bit SOS", [0x98] + Array("deep quiet".utf8) + [0x9C]),
        ("8-bit CSI (DA1)", [0x9B] + Array("?62;22c".utf8)),
        ("UTF-8 coded OSC and ST", [0xC2, 0x9D] + Array("11;rgb:dede/dede/dede".utf8) + [0xC2, 0x9C]),
    ]

    @Test(arguments: answers)
    func an_answer_of_any_kind_is_no_keys(name: String, answer: [UInt8]) {
        // Whole, with a key typed after it (which shows where it ended).
        #expect(KeyDecoder().decode(answer + Array("w".utf8)) == [.character("w")], "\(name)")
        // Cut anywhere, the rest a while later.
        for cut in 1..<answer.count {
            var input = TerminalInput()
            input.asked(at: 0)
            let first = input.take(Array(answer[..<cut]), at: 0.01)
            let meanwhile = input.expire(at: 0.3)
            let second = input.take(Array(answer[cut...]) + Array("w".utf8), at: 0.4)
            #expect(first.keys + meanwhile + second.keys == [.character("w")], "\(name), cut at \(cut)")
        }
    }

    /// An answer that never ends: Ctrl-C and Esc get through at once, and an
    /// e or q typed in it counts within a second, on its own (nothing else
    /// need come); no other key in it ever does.
    @Test(arguments: [
        ("OSC", Array("\u{1B}]11;rgb:dede/".utf8)), ("DCS", Array("\u{1B}P1$rde".utf8)),
        ("APC", Array("\u{1B}_Gde".utf8)), ("8-bit OSC", [0x9D] + Array("11;rgb:de".utf8)),
    ])
    func an_answer_that_never_ends_lets_exit_through(name: String, open: [UInt8]) {
        var input = TerminalInput()
        #expect(input.take(open, at: 0).keys.isEmpty, "\(name)")
        #expect(input.take([0x03], at: 0.1).keys == [.control("c")], "\(name)")

        for exit in ["e", "q"] {
            var input = TerminalInput()
            #expect(input.take(open + Array("d\(exit)p".utf8), at: 0).keys.isEmpty, "\(name)")
            #expect(input.expire(at: 0.2).isEmpty, "\(name)")
            let deadline = input.deadline ?? .infinity
            #expect(deadline <= 1, "\(name): waits until \(deadline)")
            let held = input.expire(at: max(deadline, 0.2))
            #expect(held.count == 1 && held.compactMap(PauseAction.init) == [.exitToFocus], "\(name): \(held)")
            // Typed later while it still goes on: Exit at once, nothing else.
            #expect(input.take(Array("dp\(exit)".utf8), at: 1.5).keys == [.character(Character(exit))], "\(name)")
        }

        var escaped = TerminalInput()
        _ = escaped.take(open, at: 0)
        #expect(escaped.take([Self.escape], at: 0.2).keys.isEmpty, "\(name)")
        let deadline = escaped.deadline ?? .infinity
        #expect(deadline <= 1.2, "\(name): Esc waits until \(deadline)")
        #expect(escaped.expire(at: max(deadline, 0.2)) == [.escape], "\(name)")
    }

    /// Past the cap, dropped: an e typed into it still counts within a second.
    @Test func exit_gets_through_an_answer_past_the_cap() {
        var input = TerminalInput()
        let endless = Array("\u{1B}P".utf8) + Array(repeating: UInt8(ascii: "d"), count: 300)
        #expect(input.take(endless, at: 0).keys.isEmpty)
        #expect(input.take(Array("ded".utf8), at: 0.2).keys.isEmpty)
        let deadline = input.deadline ?? .infinity
        #expect(deadline <= 1, "waits until \(deadline)")
        #expect(input.expire(at: max(deadline, 0.2)) == [.character("e")])
        // Typed later while it still goes on: each exit key at once, nothing else.
        #expect(input.take(Array("dedq".utf8), at: 1.1).keys == [.character("e"), .character("q")])
        // Its end, then keys again.
        #expect(input.take([0x1B, UInt8(ascii: "\\")] + Array("d".utf8), at: 1.2).keys == [.character("d")])
    }

    /// The Esc of a late answer, its rest later still (past the brief wait
    /// for the rest of a sequence) while the answers are awaited: the start
    /// of the answer, not the Escape key and keys.
    @Test func an_answer_cut_after_its_escape_while_awaited_is_no_keys() {
        let rest = Array("]11;rgb:dede/dede/dede\u{07}".utf8)
        for late in [0.0, 2.0, 30.0] {
            var input = TerminalInput()
            input.asked(at: 0)
            #expect(input.take([Self.escape], at: late + 0.1).keys.isEmpty)
            #expect(input.expire(at: late + 0.25).isEmpty, "asked \(late) s before")
            let taken = input.take(rest, at: late + 0.3)
            #expect(taken == TerminalInput.Taken(background: .light), "asked \(late) s before")
        }
        // An 8-bit-free DCS, and a CSI answer, cut the same way.
        for answer in ["P1$r0;dede;q\u{1B}\\", "[?62;c"] {
            var input = TerminalInput()
            input.asked(at: 0)
            _ = input.take([Self.escape], at: 5)
            #expect(input.expire(at: 5.2).isEmpty)
            #expect(input.take(Array(answer.utf8), at: 5.3).keys.isEmpty, "\(answer.debugDescription)")
        }
    }

    /// Awaited or not, Esc is Exit one key away: at once with any key after
    /// it, and within half a second alone.
    @Test func escape_alone_is_still_the_escape_key_while_answers_are_awaited() {
        var input = TerminalInput()
        input.asked(at: 0)
        #expect(input.take([Self.escape] + Array("e".utf8), at: 3).keys == [.escape, .character("e")])
        _ = input.take([Self.escape], at: 4)
        let deadline = input.deadline ?? .infinity
        #expect(deadline <= 4.5, "Esc waits until \(deadline)")
        #expect(input.expire(at: max(deadline, 4.01)) == [.escape])
        // Once answered, only the brief wait.
        _ = input.take(Array("\u{1B}[?62;c".utf8), at: 5)
        _ = input.take([Self.escape], at: 6)
        #expect(input.expire(at: 6 + TerminalInput.escapeWait) == [.escape])
    }
}
