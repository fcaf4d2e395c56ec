import MIGACore
import MIGATerminal

/// The rows under the countdown: the status, then the actions, or what is
/// being typed in their place.
extension PauseScreen {
    /// `drawsRing`: the countdown is the ring, not the bar, and the words say so.
    static func statusLine(_ session: PauseSession, width: Int, longerBecause: String? = nil, drawsRing: Bool = true) -> Line {
        let emptied = drawsRing ? "when the ring is empty" : "at zero"
        // Each with a shorter form for narrow windows, so it is never cut.
        let (phrasings, tone): ([String], Tone) =
            session.isTyping
                ? session.pasteRefused ? (["Pasted text does not count — type it, a key at a time", "Type it, a key at a time"], .accentDeep)
                : session.typingMistake ? (["Not quite — the cursor shows where to go on", "Not quite — go on from the cursor"], .accentDeep)
                : session.isNudging ? (["The whole line first — there is no hurry", "The whole line first"], .accentDeep)
                : session.needsTyping ? (["Type the line to open \(session.programName)", "Type the line"], .body)
                : (["Typed — Enter opens \(session.programName)", "Typed — Enter opens it"], .body)
            : session.isAskingIntention
                ? session.isNudging && session.answeredIntention != nil && !session.canProceed
                    ? (["Proceed opens \(emptied) — there is no hurry", "Not yet — no hurry"], .accentDeep)
                : session.isNudging ? (["A few words first — or Esc to go back", "A few words first"], .accentDeep)
                                    : ([PauseState.question(for: session.programName), "What for?"], .body)
            : session.isHeld && !session.canProceed
                ? (["Held while you look away — it resumes when you return", "Held while you look away"], .muted)
            : session.canProceed ? (["The pause is complete — the choice is yours", "The choice is yours"], .muted)
            : session.kind == .intention && !session.isNudging
                ? (["While \(drawsRing ? "the ring empties" : "it counts down"): what are you opening \(session.programName) for?", "What is it for?"], .muted)
            : session.needsTyping && !session.isNudging
                ? (["Proceed opens at zero, after a short line typed back", "Then a line to type"], .muted)
            : !session.isNudging && longerBecause != nil ? ([longerBecause!, "A longer pause this time"], .muted)
            : session.isNudging ? (["Proceed opens \(emptied) — there is no hurry", "Not yet — no hurry"], .accentDeep)
            : (["Proceed opens \(emptied)", "Proceed opens at zero"], .muted)
        let text = phrasings.first { CellWidth.of($0) <= width - 2 } ?? TextWrap.truncate(phrasings[1], width: width - 2)
        return Line.centered(text, tone, in: width)
    }

    /// The actions, or the answer being typed; a session that will ask keeps
    /// room for both, so nothing moves when the question opens.
    static func bottomLines(_ session: PauseSession, width: Int) -> [Line] {
        let actions = actionLines(session, width: width) + insteadLines(session, width: width)
        guard session.asksIntention || session.typingTarget != nil else { return actions }
        let shown = session.isTyping ? typingLines(session, width: width)
            : session.isAskingIntention ? intentionLines(session, width: width) : actions
        return shown + Array(repeating: .blank, count: max(actions.count, 2) - shown.count)
    }

    /// The alternative on offer, under the actions: one quiet line.
    static func insteadLines(_ session: PauseSession, width: Int) -> [Line] {
        guard let alternative = session.alternative else { return [] }
        let label = TextWrap.truncate("Instead: " + printable(alternative), width: max(8, width - 6))
        return [Line.centered([Span("[I]", .accentDeep), Span(" " + label)], in: width)]
    }

    /// The line to type, what is typed so far bright and the rest faint,
    /// the cursor where the next character goes; and the keys that matter.
    static func typingLines(_ session: PauseSession, width: Int) -> [Line] {
        let target = Array(session.typingTarget ?? "")
        let done = TypedLine.clustersDone(session.typed, of: session.typingTarget ?? "")
        let measure = max(10, min(width - 4, 64))
        // A line wider than the window scrolls with the cursor.
        var start = 0
        while CellWidth.of(String(target[start..<max(start, done)])) > measure * 2 / 3 { start += 1 }
        var end = start
        while end < target.count && CellWidth.of(String(target[start...end])) <= measure - 1 { end += 1 }
        let typedPart = String(target[start..<min(done, end)])
        let rest = String(target[min(done, end)..<end])
        let field = [Span(typedPart, .quote), Span("▏", .accent(glow: 2)), Span(rest, .faint)]
        let hints = session.needsTyping
            ? ["[Esc] Back  ·  [Ctrl-C] Exit to Focus", "[Esc] · [Ctrl-C]"]
            : ["[Enter] \(session.proceedLabel)  ·  [Esc] Back  ·  [Ctrl-C] Exit to Focus", "[Enter] Proceed  ·  [Esc] Back", "[Enter] · [Esc]"]
        let hint = hints.first { CellWidth.of($0) <= width - 2 } ?? hints[hints.count - 1]
        return [Line.centered(field, in: width), Line.centered(hint, .faint, in: width)]
    }

    /// The answer as typed, its end kept in view, and the keys that matter now.
    static func intentionLines(_ session: PauseSession, width: Int) -> [Line] {
        let measure = max(10, min(width - 6, 44))
        var text = session.intention ?? ""
        while CellWidth.of(text) > measure - 3 { text.removeFirst() }
        let field = [Span("› ", .accentDeep), Span(text, .quote), Span("▏", .accent(glow: 2))]
        let padding = Span(String(repeating: " ", count: max(0, measure - CellWidth.of(text) - 3)))
        guard !session.asksWhileCounting else {
            return [Line.centered(field + [padding], in: width), questionActions(session, width: width)]
        }
        let hints = ["[Enter] \(session.proceedLabel)  ·  [Esc] Back  ·  [Ctrl-C] Exit to Focus",
                     "[Enter] Proceed  ·  [Esc] Back", "[Enter] · [Esc]"]
        let hint = hints.first { CellWidth.of($0) <= width - 2 } ?? hints[2]
        return [Line.centered(field + [padding], in: width), Line.centered(hint, .faint, in: width)]
    }

    /// The actions under a question that is the pause's own: the same three
    /// as ever on keys that do not type, Exit to Focus first and never dropped.
    static func questionActions(_ session: PauseSession, width: Int) -> Line {
        let exit = [Span(" [Esc] Exit to Focus ", .primary)]
        let ready = session.canProceed && session.answeredIntention != nil
        let proceed = { (label: String) in ready ? [Span("[Enter]", .accentDeep), Span(" " + label)] : [Span("[Enter] " + label, .faint)] }
        let gap = [Span("    ")]
        let rows = [
            exit + gap + [Span("[Tab]", .accentDeep), Span(" Deepen the Pause")] + gap + proceed(session.proceedLabel),
            exit + [Span("  ")] + [Span("[Tab]", .accentDeep), Span(" Deepen")] + [Span("  ")] + proceed("Proceed"),
            exit + [Span("  ")] + [Span("[Tab]", .accentDeep), Span(" Deepen")],
            exit,
        ]
        let row = rows.first { $0.reduce(0) { $0 + $1.width } <= width - 2 } ?? exit
        return Line.centered(row, in: width)
    }

    static func actionLines(_ session: PauseSession, width: Int) -> [Line] {
        let exit = [Span(" [E] Exit to Focus ", .primary)]
        let deepen = [Span("[D]", .accentDeep), Span(" Deepen the Pause")]
        let proceedLabel = TextWrap.truncate(session.proceedLabel, width: max(8, width - 6))
        let proceed = session.canProceed
            ? [Span("[P]", .accentDeep), Span(" " + proceedLabel)]
            : [Span("[P] " + proceedLabel, .inert)]
        let gap = [Span("    ")]
        let row = exit + gap + deepen + gap + proceed
        if row.reduce(0, { $0 + $1.width }) <= width - 2 {
            return [Line.centered(row, in: width)]
        }
        return [exit, deepen, proceed].map { Line.centered($0, in: width) }
    }
}
