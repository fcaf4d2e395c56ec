import MIGATerminal

extension PauseScreen {
    /// One frame's layout: what every arrangement shares, worked out once,
    /// and the frame each arrangement makes, top to bottom.
    struct Layout {
        let session: PauseSession
        let size: TerminalSize
        let look: PauseLook
        let width: Int
        /// The quote's measure, and the quote wrapped to it.
        let measure: Int
        let quote: [String]
        /// Room for the quote, reserved by the window's size alone, so that
        /// Deepen never moves the countdown, the status or the actions: a
        /// longer quote is shortened with "…", and `w` shows it whole.
        let usualHeight: Int
        let actions: [Line]
        let context: [Line]
        let maxRing: Int
        let arrangements: [Arrangement]

        init(_ session: PauseSession, size: TerminalSize, look: PauseLook) {
            self.session = session
            self.size = size
            self.look = look
            let width = size.columns
            let measure = max(12, min(width - 8, 60))
            self.width = width
            self.measure = measure
            quote = PauseScreen.quoteLines(session.quote, measure: measure)
            usualHeight = min(max(2, size.rows / 3), min(8, (PauseScreen.longestQuote * 11 / 10 + measure - 1) / measure))
            actions = PauseScreen.bottomLines(session, width: width)
            context = look.context.map { Line.centered(TextWrap.truncate($0, width: width - 2), .muted, in: width) }
            maxRing = max(5, size.rows * 2 / 5)
            arrangements = PauseScreen.arrangements(usualHeight: usualHeight)
        }

        /// The rows `arrangement` leaves for the countdown with `noticeRows` of notices.
        func room(_ arrangement: Arrangement, noticeRows: Int) -> Int {
            let (header, gap, margin, reserved) = arrangement
            return size.rows - (header ? 1 + context.count + gap : 0) - reserved - gap - 1 - gap - gap - 1 - gap - actions.count
                - (noticeRows == 0 ? 0 : gap + noticeRows) - 2 * margin
        }

        /// The most rows of notices any arrangement has room for beside the
        /// smallest ring, or beside the bar.
        func noticeRoom(ring: Bool) -> Int {
            let timer = ring ? PauseScreen.ringSizes.last! : 1
            guard !ring || 2 * timer + 4 <= width else { return 0 }
            return arrangements.map { room($0, noticeRows: 0) - $0.gap - timer }.max() ?? 0
        }

        /// Notices whole if the rows allow, with a bar for the countdown if
        /// need be. Once they must be cut, the ring stays (the bar only where
        /// no ring fits with two rows of them) and they get the rows beside
        /// it: each cut (with …, its place kept), and more notices than rows
        /// end in a row that counts the rest. Only the first rows' worth is
        /// ever read, so a frame costs the same for 40 notices or 4000.
        func noticeLines(work: inout LayoutWork) -> [Line] {
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
                        + [PauseScreen.moreNotices(look.notices.count - shown, afterSome: shown > 0, width: noticeWidth)]
            }
            return noticeRows.map { Line.centered($0, .notice, in: width) }
        }

        /// The first arrangement that fits with `notices`, the ring or a bar.
        func arranged(wantsRing: Bool, notices: [Line], work: inout LayoutWork) -> Frame? {
            for arrangement in arrangements {
                work.arrangementsTried += 1
                let room = self.room(arrangement, noticeRows: notices.count)
                let ring = wantsRing ? PauseScreen.ringSizes.first { $0 <= room && $0 <= maxRing && 2 * $0 + 4 <= width }
                                     : (room >= 1 ? 0 : nil)
                guard let ring else { continue }
                return frame(arrangement, room: room, ring: ring, notices: notices)
            }
            return nil
        }

        /// The frame in `arrangement`, with a ring of `ring` rows (0: the bar).
        func frame(_ arrangement: Arrangement, room: Int, ring: Int, notices: [Line]) -> Frame {
            let (header, gap, margin, reserved) = arrangement
            let timer = ring > 0 ? PauseScreen.ringLines(session, rows: ring, width: width, look: look)
                                 : [PauseScreen.barLine(session, width: width)]
            let leftover = room - timer.count
            let aroundRing = min(2, leftover / 6)
            let top = (leftover - 2 * aroundRing) * 2 / 5

            var lines = blanks(margin + top)
            if header {
                lines.append(Line.centered(TextWrap.truncate(session.header, width: width - 2), .faint, in: width))
                lines += context
                lines += blanks(gap)
            }
            let shortened = quote.count > reserved
            // `w` shows a shortened quote whole; a quote shown whole already stays as it is.
            let showsWhole = session.showsWholeQuote && shortened
            if showsWhole {
                // The quote and the ring, or the whole quote in their place: the same rows either way.
                lines += wholeQuote(rows: reserved + gap + 1 + 2 * (gap + aroundRing) + timer.count, gap: gap)
            } else {
                lines += quoteAndRing(reserved: reserved, gap: gap, shortened: shortened, aroundRing: aroundRing, timer: timer)
            }
            lines.append(PauseScreen.statusLine(session, width: width, longerBecause: look.longerBecause,
                                                drawsRing: ring > 0 && !showsWhole))
            lines += blanks(gap)
            lines += actions
            // The quiet key, a row under the actions, only in a row that is free anyway: it never moves the rest.
            if let hint = PauseScreen.declineHint(session, width: width),
               size.rows - lines.count - 2 - (notices.isEmpty ? 0 : notices.count + gap) >= 0 {
                lines += blanks(1) + [hint]
            }
            if !notices.isEmpty {
                lines += blanks(max(gap, size.rows - lines.count - notices.count - gap))
                lines += notices
            }
            return Frame(size: size, lines: lines)
        }

        /// The quote in its reserved rows, centred in them, its source under
        /// it, then the ring with room around it.
        func quoteAndRing(reserved: Int, gap: Int, shortened: Bool, aroundRing: Int, timer: [Line]) -> [Line] {
            let shown = PauseScreen.fitted(quote, maxLines: reserved, width: measure)
            let above = (reserved - shown.count) / 2
            var lines = blanks(above)
            lines += shown.map { Line.centered($0, .quote, in: width) }
            lines += blanks(reserved - shown.count - above + gap)
            lines.append(PauseScreen.attributionLine(session.quote, hint: shortened ? "w: the whole quote" : nil, width: width))
            lines += blanks(gap + aroundRing)
            lines += timer
            lines += blanks(gap + aroundRing)
            return lines
        }

        /// The whole quote in the `rows` of the quote and the ring; the
        /// countdown stays in view as a bar, a row above the status.
        func wholeQuote(rows: Int, gap: Int) -> [Line] {
            let countdown = [PauseScreen.barLine(session, width: width)] + blanks(gap)
            let room = rows - countdown.count
            let whole = PauseScreen.fitted(quote, maxLines: max(1, room - 2), width: measure)
            let above = max(0, (room - whole.count - 2) / 2)
            var lines = blanks(above)
            lines += whole.map { Line.centered($0, .quote, in: width) }
            lines.append(.blank)
            lines.append(PauseScreen.attributionLine(session.quote, hint: "w: back", width: width))
            lines += blanks(max(0, room - above - whole.count - 2))
            lines += countdown
            return lines
        }

        func blanks(_ count: Int) -> [Line] { Array(repeating: .blank, count: count) }
    }
}

extension PauseScreen {
    /// "Ctrl-N: not this kind for Discord", faint; once pressed, what it did.
    static func declineHint(_ session: PauseSession, width: Int) -> Line? {
        guard let kind = session.declinableKind else { return nil }
        let name = session.programName
        let phrasings = session.declinesKind
            ? ["Noted: no more \(kind.rawValue) pauses for \(name) (miga protect --kinds brings them back)",
               "Noted: no more \(kind.rawValue) pauses for \(name)", "Noted"]
            : ["Ctrl-N: not this kind for \(name)", "Ctrl-N: not this kind", "^N"]
        let text = phrasings.first { CellWidth.of($0) <= width - 2 } ?? phrasings[phrasings.count - 1]
        return Line.centered(text, .faint, in: width)
    }
}
