import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal

/// `miga history`'s lines: what each pause was and what was chosen, calmly,
/// within the terminal's width.
@Suite struct HistoryTableTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func line(_ outcome: SessionOutcome, kind: PauseKind?, typed: Bool? = nil, alternative: String? = nil,
              intention: String? = nil, width: Int? = nil) -> String {
        let record = SessionRecord(id: "s", program: "discord", startedAt: start, endedAt: start + 12, outcome: outcome,
                                   pausedSeconds: 12, intention: intention, kind: kind, typed: typed, alternative: alternative)
        return HistoryTable.lines([record], width: width).map(\.text).joined()
    }

    @Test func an_alternative_chosen_is_said_beside_the_exit() {
        #expect(line(.exit, kind: .instead, alternative: "read ten pages").hasSuffix("exit to focus   12 s  · read ten pages instead"))
        #expect(line(.proceed, kind: .instead).hasSuffix("proceeded       12 s  · a pause with an alternative"))
    }

    @Test func the_kind_is_said_where_it_is_not_breathe() {
        #expect(line(.proceed, kind: .type, typed: true).hasSuffix("proceeded       12 s  · a typed pause, the line typed"))
        #expect(line(.exit, kind: .type, typed: false).hasSuffix("exit to focus   12 s  · a typed pause"))
        #expect(line(.proceed, kind: .intention, intention: "reply to Sam")
                    .hasSuffix("proceeded       12 s  · an intention pause  for “reply to Sam”"))
        #expect(line(.exit, kind: .breathe).hasSuffix("exit to focus   12 s"))
        #expect(line(.exit, kind: nil).hasSuffix("exit to focus   12 s"))
    }

    @Test func a_line_keeps_within_the_width_given() {
        let long = String(repeating: "a walk around the block ", count: 3).trimmingWhitespace()
        for width in [40, 60, 80] {
            let text = line(.exit, kind: .instead, alternative: long, width: width)
            #expect(CellWidth.of(text) <= width, "\(width): \(text)")
            #expect(text.hasSuffix("…"), "\(width): \(text)")
        }
        // Without a width (a pipe), nothing is cut.
        #expect(line(.exit, kind: .instead, alternative: long).hasSuffix(long + " instead"))
    }
}
