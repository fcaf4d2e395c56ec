import MIGACore

/// How the pause looks, beyond its state.
public struct PauseLook: Equatable, Sendable {
    /// Breathing and the bloom; off under reduced motion.
    public var motion: Bool
    /// Whether colours can tell the ring's faint track from its arc: when
    /// they cannot, the track is drawn thinner than the arc, so an emptied
    /// ring still shows where it was.
    public var showTrack: Bool
    /// Things the person should know (a broken config), shown calmly at the bottom.
    public var notices: [String]
    /// Quiet facts under the header: how often the program was reached for today.
    public var context: [String]
    /// Why this pause is longer than usual, said beside the ring while it counts.
    public var longerBecause: String?

    public init(motion: Bool = true, colors: ColorMode, notices: [String] = [], context: [String] = [],
                longerBecause: String? = nil) {
        self.init(motion: motion, showTrack: colors != .none, notices: notices, context: context, longerBecause: longerBecause)
    }

    public init(motion: Bool = true, showTrack: Bool = true, notices: [String] = [], context: [String] = [],
                longerBecause: String? = nil) {
        self.motion = motion
        self.showTrack = showTrack
        self.notices = notices
        self.context = context
        self.longerBecause = longerBecause
    }
}

/// The pause screen as a pure function of the session and the terminal size.
///
/// Top: the header and its context, then the quote, wrapped to a comfortable
/// measure, with its source and tags. Middle: the ring with the time left.
/// Bottom: the three actions (or the intention question, in their place). Space left
/// over goes to the margins, and the quote's area is reserved at its usual
/// height so the ring does not jump when Deepen brings a shorter quote.
public enum PauseScreen {
    /// Longest quote the built-in bank is written to (characters), used to
    /// reserve room for the quote so the layout holds still across quotes.
    static let longestQuote = 190
    static let ringSizes = [13, 11, 9, 7, 5]

    /// What laying out a frame took, for a test that it stays bounded however many notices there are.
    struct LayoutWork: Equatable {
        var arrangementsTried = 0
        var noticesRead = 0
    }

    /// The arrangements a frame is tried in, most generous first: header,
    /// gaps and margins; then without the margins; with the quote's room cut
    /// to three lines (a longer quote is shortened, and w shows it) before
    /// the header goes; without the header; without gaps; with the quote's
    /// room cut to two lines. Only when the ring fits none of them, the
    /// same again with a bar.
    typealias Arrangement = (header: Bool, gap: Int, margin: Int, reserved: Int)

    static func arrangements(usualHeight: Int) -> [Arrangement] {
        [(true, 1, 1, usualHeight), (true, 1, 0, usualHeight), (true, 1, 0, min(3, usualHeight)), (false, 1, 0, usualHeight),
         (false, 0, 0, usualHeight), (false, 0, 0, min(2, usualHeight))]
    }

    public static func frame(_ session: PauseSession, size: TerminalSize, look: PauseLook) -> Frame {
        var work = LayoutWork()
        return frame(session, size: size, look: look, work: &work)
    }

    static func frame(_ session: PauseSession, size: TerminalSize, look: PauseLook, work: inout LayoutWork) -> Frame {
        let width = size.columns
        let measure = max(12, min(width - 8, 60))
        let allLines = quoteLines(session.quote, measure: measure)
        // Room for the quote, reserved by the window's size alone, so that
        // Deepen never moves the countdown, the status or the actions: a
        // longer quote is shortened with "…", and `w` shows it whole.
        let usualHeight = min(max(2, size.rows / 3), min(8, (longestQuote * 11 / 10 + measure - 1) / measure))
        let actions = bottomLines(session, width: width)
        let context = look.context.map { Line.centered(TextWrap.truncate($0, width: width - 2), .muted, in: width) }
        let maxRing = max(5, size.rows * 2 / 5)
        let arrangements = arrangements(usualHeight: usualHeight)

        /// The rows `arrangement` leaves for the countdown with `noticeRows` of notices.
        func room(_ arrangement: Arrangement, noticeRows: Int) -> Int {
            let (header, gap, margin, reserved) = arrangement
            return size.rows - (header ? 1 + context.count + gap : 0) - reserved - gap - 1 - gap - gap - 1 - gap - actions.count
                - (noticeRows == 0 ? 0 : gap + noticeRows) - 2 * margin
        }
        /// The most rows of notices any arrangement has room for beside the
        /// smallest ring, or beside the bar.
        func noticeRoom(ring: Bool) -> Int {
            let timer = ring ? ringSizes.last! : 1
            guard !ring || 2 * timer + 4 <= width else { return 0 }
            return arrangements.map { room($0, noticeRows: 0) - $0.gap - timer }.max() ?? 0
        }

        // Notices whole if the rows allow, with a bar for the countdown if
        // need be. Once they must be cut, the ring stays (the bar only where
        // no ring fits with two rows of them) and they get the rows beside
        // it: each cut (with …, its place kept), and more notices than rows
        // end in a row that counts the rest. Only the first rows' worth is
        // ever read, so a frame costs the same for 40 notices or 4000.
        let noticeWidth = max(10, width - 4)
        let read = look.notices.prefix(max(0, size.rows)).map { "⚠ " + $0 }
        work.noticesRead = read.count
        let (besideRing, besideBar) = (noticeRoom(ring: true), noticeRoom(ring: false))
        let most = max(besideRing, besideBar)
        let whole = read.count == look.notices.count && read.reduce(0) { $0 + TextWrap.lines($1, width: noticeWidth).count } <= most
        let rows = whole || besideRing < 2 ? most : besideRing
        let noticeRows: [String]
        if look.notices.count <= rows {
            noticeRows = TextWrap.fitted(read, width: noticeWidth, lines: rows)
        } else {
            let shown = max(0, rows - 1)
            noticeRows = rows < 1 ? []
                : TextWrap.fitted(Array(read.prefix(shown)), width: noticeWidth, lines: shown)
                    + [moreNotices(look.notices.count - shown, afterSome: shown > 0, width: noticeWidth)]
        }
        let notices = noticeRows.map { Line.centered($0, .notice, in: width) }

        /// The first arrangement that fits with `notices`, the ring or a bar.
        func arranged(wantsRing: Bool) -> Frame? {
            for arrangement in arrangements {
                work.arrangementsTried += 1
                let (header, gap, margin, reserved) = arrangement
                let room = room(arrangement, noticeRows: notices.count)
                let ring = wantsRing ? ringSizes.first { $0 <= room && $0 <= maxRing && 2 * $0 + 4 <= width }
                                     : (room >= 1 ? 0 : nil)
                guard let ring else { continue }
                let timer = ring > 0 ? ringLines(session, rows: ring, width: width, look: look)
                                     : [barLine(session, width: width)]
                let leftover = room - timer.count
                let aroundRing = min(2, leftover / 6)
                let top = (leftover - 2 * aroundRing) * 2 / 5

                var lines: [Line] = Array(repeating: .blank, count: margin + top)
                if header {
                    lines.append(Line.centered(TextWrap.truncate(session.header, width: width - 2), .faint, in: width))
                    lines += context
                    lines += Array(repeating: .blank, count: gap)
                }
                let shortened = allLines.count > reserved
                // `w` shows a shortened quote whole; a quote shown whole already stays as it is.
                let showsWhole = session.showsWholeQuote && shortened
                // The quote and the ring, or the whole quote in their place: the same rows either way.
                let block = reserved + gap + 1 + 2 * (gap + aroundRing) + timer.count
                if showsWhole {
                    // The countdown stays in view as a bar, a row above the status.
                    let countdown = [barLine(session, width: width)] + Array(repeating: .blank, count: gap)
                    let room = block - countdown.count
                    let whole = fitted(allLines, maxLines: max(1, room - 2), width: measure)
                    let above = max(0, (room - whole.count - 2) / 2)
                    lines += Array(repeating: .blank, count: above)
                    lines += whole.map { Line.centered($0, .quote, in: width) }
                    lines.append(.blank)
                    lines.append(attributionLine(session.quote, hint: "w: back", width: width))
                    lines += Array(repeating: .blank, count: max(0, room - above - whole.count - 2))
                    lines += countdown
                } else {
                    let quote = fitted(allLines, maxLines: reserved, width: measure)
                    let above = (reserved - quote.count) / 2
                    lines += Array(repeating: .blank, count: above)
                    lines += quote.map { Line.centered($0, .quote, in: width) }
                    lines += Array(repeating: .blank, count: reserved - quote.count - above + gap)
                    lines.append(attributionLine(session.quote, hint: shortened ? "w: the whole quote" : nil, width: width))
                    lines += Array(repeating: .blank, count: gap + aroundRing)
                    lines += timer
                    lines += Array(repeating: .blank, count: gap + aroundRing)
                }
                lines.append(statusLine(session, width: width, longerBecause: look.longerBecause, drawsRing: ring > 0 && !showsWhole))
                lines += Array(repeating: .blank, count: gap)
                lines += actions
                if !notices.isEmpty {
                    lines += Array(repeating: .blank, count: max(gap, size.rows - lines.count - notices.count - gap))
                    lines += notices
                }
                return Frame(size: size, lines: lines)
            }
            return nil
        }
        return arranged(wantsRing: true) ?? arranged(wantsRing: false)
            ?? tiny(session, size: size, quote: allLines, measure: measure, actions: actions, longerBecause: look.longerBecause)
    }

    /// The row under notices cut short: how many more, and where to read
    /// them all (each is printed when the pause ends; `miga doctor` lists
    /// the config's problems).
    static func moreNotices(_ count: Int, afterSome: Bool, width: Int) -> String {
        let what = afterSome ? "\(count) more" : "\(count) notices"
        let phrasings = ["⚠ \(what) — each printed when the pause ends; miga doctor lists the config's problems",
                         "⚠ \(what) — miga doctor lists the config's problems", "⚠ \(what) — see miga doctor"]
        return phrasings.first { CellWidth.of($0) <= width } ?? TextWrap.truncate("⚠ \(what)", width: width)
    }

    /// Smaller than any arrangement: the usual order (quote, countdown,
    /// status, actions) with the least important rows left out first: the
    /// quote's further lines, then the status, then the quote, then the
    /// countdown. Exit to Focus stays whatever the size.
    static func tiny(_ session: PauseSession, size: TerminalSize, quote: [String], measure: Int, actions: [Line],
                     longerBecause: String?) -> Frame {
        let width = size.columns
        var left = max(0, size.rows - actions.count)
        func take() -> Bool {
            guard left > 0 else { return false }
            left -= 1
            return true
        }
        let bar = take() ? [barLine(session, width: width)] : []
        var quoteRows = take() ? 1 : 0
        let status = take() ? [statusLine(session, width: width, longerBecause: longerBecause, drawsRing: false)] : []
        while quoteRows > 0 && quoteRows < quote.count && take() { quoteRows += 1 }
        let shown = fitted(quote, maxLines: quoteRows, width: measure).map { Line.centered($0, .quote, in: width) }
        let lines = Array(repeating: .blank, count: left) + shown + bar + status + actions.prefix(size.rows)
        return Frame(size: size, lines: Array(lines.prefix(size.rows)))
    }

    /// The quote's source and tags; with a key's hint when there is more to see.
    static func attributionLine(_ quote: Quote, hint: String?, width: Int) -> Line {
        let text = attributionText(quote)
        guard let hint else { return Line.centered(TextWrap.truncate(text, width: width - 2), .muted, in: width) }
        let room = max(0, width - 2 - CellWidth.of(hint) - 3)
        let source = room >= 8 ? TextWrap.truncate(text, width: room) + " · " : ""
        return Line.centered([Span(source, .muted), Span(hint, .accentDeep)], in: width)
    }

    // MARK: Pieces

    static func quoteLines(_ quote: Quote, measure: Int) -> [String] {
        var lines = quote.verses.flatMap { TextWrap.balancedLines($0, measure: measure) }
        guard !lines.isEmpty else { return [] }
        lines[0] = "“" + lines[0]
        lines[lines.count - 1] += "”"
        return lines
    }

    /// At most `maxLines` lines, the last ending in "…" when the text goes on:
    /// an imported fortune may be far longer than a pause has room for.
    static func fitted(_ lines: [String], maxLines: Int, width: Int) -> [String] {
        guard lines.count > maxLines else { return lines }
        guard maxLines > 0 else { return [] }
        var kept = Array(lines.prefix(maxLines))
        kept[maxLines - 1] = TextWrap.truncate(kept[maxLines - 1] + " …", width: width)
        if !kept[maxLines - 1].hasSuffix("…") { kept[maxLines - 1] += "…" }
        return kept
    }

    static func attributionText(_ quote: Quote) -> String {
        let tags = quote.tags.joined(separator: " · ")
        guard let source = quote.source else { return tags }
        return "— \(source) · \(tags)"
    }

    static func ringLines(_ session: PauseSession, rows: Int, width: Int, look: PauseLook) -> [Line] {
        let breath = look.motion ? Breath.level(at: session.pausedSeconds) : 0.5
        let glow = look.motion ? Int((breath * 4).rounded()) : 0
        // Without motion the ring moves in whole seconds, with the number inside it.
        let remaining = look.motion ? session.remainingFraction : Double(session.secondsLeft) / Double(session.length)
        let cells = CountdownRing.cells(rows: rows, remaining: remaining,
                                        thickness: 2.2 + 1.2 * breath, showTrack: look.showTrack)
        let columns = rows * 2
        var overlays: [Int: [Span]] = [rows / 2: [Span(session.clock, .accentDeep)]]
        if rows >= 7 {
            let words = session.canProceed ? ["ready"]
                : session.isHeld ? ["held"]
                : !look.motion ? ["breathe"]
                : Breath.isInhaling(at: session.pausedSeconds) ? ["breathe in", "inhale"] : ["breathe out", "exhale"]
            // The first that keeps a cell of space from the ring on each side.
            let row = cells[rows / 2 + 1]
            let word = words.first { word in
                let start = (columns - CellWidth.of(word)) / 2
                return start >= 1 && (start - 1...start + CellWidth.of(word)).allSatisfy { $0 < columns && row[$0].kind == .empty }
            }
            if let word { overlays[rows / 2 + 1] = [Span(word, .muted)] }
        }
        let indent = String(repeating: " ", count: max(0, (width - columns) / 2))
        return cells.enumerated().map { index, row in
            var spans: [Span] = [Span(indent)]
            var overlay = overlays[index]
            let overlayWidth = overlay?.reduce(0) { $0 + $1.width } ?? 0
            let overlayStart = (columns - overlayWidth) / 2
            var column = 0
            while column < columns {
                if let spansToPlace = overlay, column == overlayStart {
                    spans += spansToPlace
                    column += overlayWidth
                    overlay = nil
                    continue
                }
                let cell = row[column]
                let tone: Tone = cell.kind == .arc ? .accent(glow: glow) : cell.kind == .track ? .track : .body
                if let last = spans.last, last.tone == tone, spans.count > 1 {
                    spans[spans.count - 1].text.append(cell.character)
                } else {
                    spans.append(Span(String(cell.character), tone))
                }
                column += 1
            }
            return Line(spans)
        }
    }

    /// The countdown as a bar, for terminals too small for the ring.
    static func barLine(_ session: PauseSession, width: Int) -> Line {
        let length = max(4, min(24, width - 12))
        let filled = Int((session.remainingFraction * Double(length)).rounded(.up))
        return Line.centered([
            Span(session.clock, .accentDeep), Span("  "),
            Span(String(repeating: "━", count: filled), .accent(glow: 0)),
            Span(String(repeating: "─", count: length - filled), .track),
        ], in: width)
    }

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
                                    : (["What are you opening \(session.programName) for?", "What for?"], .body)
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
        let done = session.typed.count
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
