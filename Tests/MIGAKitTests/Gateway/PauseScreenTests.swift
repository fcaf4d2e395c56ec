import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGATestSupport

@Suite struct PauseScreenTests {
    let quote = Quote(id: "stoicism-002", text: "Thoughts arrive uninvited. You still get to decide which ones are offered a chair.",
                      source: "inspired by Epictetus", tags: ["Stoicism", "Courage"])
    let still = PauseLook(motion: false, showTrack: true)

    func session(elapsed: Double = 0, length: Int = 90) -> PauseSession {
        var session = PauseSession(programName: "Firefox", length: length, quote: quote, at: 0)
        session.advance(to: elapsed)
        return session
    }

    @Test func snapshot_at_80_by_24() throws {
        let frame = PauseScreen.frame(session(elapsed: 22.5), size: TerminalSize(columns: 80, rows: 24), look: still)
        try assertSnapshot(frame.text, named: "pause-80x24")
    }

    @Test func snapshot_at_120_by_40() throws {
        let frame = PauseScreen.frame(session(elapsed: 60), size: TerminalSize(columns: 120, rows: 40), look: still)
        try assertSnapshot(frame.text, named: "pause-120x40")
    }

    @Test func snapshot_ready_to_proceed() throws {
        let frame = PauseScreen.frame(session(elapsed: 95), size: TerminalSize(columns: 80, rows: 24), look: still)
        try assertSnapshot(frame.text, named: "pause-80x24-ready")
    }

    @Test func the_screen_shows_quote_source_countdown_and_actions() {
        let text = PauseScreen.frame(session(elapsed: 30), size: TerminalSize(columns: 80, rows: 24), look: still).text
        #expect(text.contains("Thoughts arrive uninvited."))
        #expect(text.contains("— inspired by Epictetus · Stoicism · Courage"))
        #expect(text.contains("1:00"))
        #expect(text.contains("[E] Exit to Focus"))
        #expect(text.contains("[D] Deepen the Pause"))
        #expect(text.contains("[P] Proceed to Firefox"))
    }

    @Test func nothing_is_cut_off_or_overflows_at_any_size() {
        for columns in stride(from: 20, through: 220, by: 7) {
            for rows in stride(from: 6, through: 70, by: 5) {
                let size = TerminalSize(columns: columns, rows: rows)
                let frame = PauseScreen.frame(session(elapsed: 10), size: size, look: PauseLook(notices: ["config.toml:3:1: a problem"]))
                #expect(frame.lines.count == rows)
                for line in frame.lines {
                    #expect(line.width <= columns, "a line overflows at \(size): \(line.text)")
                }
                if rows >= 14 && columns >= 40 {
                    #expect(frame.text.contains("Exit to Focus"), "no exit action at \(size)")
                    #expect(frame.text.contains("uninvited"), "no quote at \(size)")
                }
            }
        }
    }

    @Test func the_ring_holds_still_when_deepen_brings_a_shorter_quote() {
        let size = TerminalSize(columns: 80, rows: 24)
        var pause = session(elapsed: 10)
        let before = PauseScreen.frame(pause, size: size, look: still)
        pause.deepen(with: Quote.sample("short", "Breathe."), at: 11)
        pause.advance(to: 21) // the same time left as before
        let after = PauseScreen.frame(pause, size: size, look: still)
        let ringRows = { (frame: Frame) in frame.lines.indices.filter { frame.lines[$0].text.contains("⣿") || frame.lines[$0].text.contains("1:20") } }
        #expect(!ringRows(before).isEmpty)
        #expect(ringRows(before) == ringRows(after))
    }

    static let long = Quote.sample("long", "There is a kind of tiredness that sleep does not reach, the kind that comes from "
        + "living at the pace of other people's urgency. It eases when you choose, deliberately and more than once a day, "
        + "to do one thing slowly and to do it all the way to its quiet and unremarkable end.")

    /// Rows of the countdown's figure, the status and the actions.
    func anchors(_ frame: Frame) -> [Int?] {
        let lines = frame.lines.map(\.text)
        return [lines.firstIndex { $0.range(of: #"\d+:\d\d"#, options: .regularExpression) != nil },
                lines.firstIndex { $0.contains("Proceed opens") },
                lines.firstIndex { $0.contains("Exit to Focus") }]
    }

    @Test func the_ring_is_drawn_whenever_it_fits_and_the_words_match_what_is_drawn() {
        let ring = PauseScreen.frame(session(elapsed: 10), size: TerminalSize(columns: 80, rows: 20), look: still).text
        #expect(ring.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }, "no ring at 80×20:\n\(ring)")
        #expect(ring.contains("when the ring is empty"))
        let bar = PauseScreen.frame(session(elapsed: 10), size: TerminalSize(columns: 80, rows: 9), look: still).text
        #expect(!bar.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
        #expect(!bar.contains("ring"), "a bar spoken of as a ring:\n\(bar)")
    }

    @Test(arguments: [(80, 24), (80, 20), (60, 20), (200, 60), (40, 12)])
    func deepen_never_moves_the_countdown_the_status_or_the_actions(columns: Int, rows: Int) {
        let size = TerminalSize(columns: columns, rows: rows)
        var pause = session(elapsed: 10)
        let before = anchors(PauseScreen.frame(pause, size: size, look: still))
        for next in [Self.long, Quote.sample("short", "Breathe."), quote] {
            pause.deepen(with: next, at: pause.now)
            #expect(anchors(PauseScreen.frame(pause, size: size, look: still)) == before, "\(next.id) at \(size)")
        }
        #expect(before.allSatisfy { $0 != nil } || rows < 20)
    }

    @Test func a_long_quote_is_shortened_and_w_shows_it_whole_in_the_same_rows() {
        let size = TerminalSize(columns: 80, rows: 20)
        var pause = PauseSession(programName: "Firefox", length: 90, quote: Self.long, at: 0)
        pause.advance(to: 10)
        let shortened = PauseScreen.frame(pause, size: size, look: still)
        #expect(shortened.text.contains("…") && shortened.text.contains("w: the whole quote"))
        #expect(!shortened.text.contains("unremarkable end"))
        pause.showsWholeQuote = true
        let whole = PauseScreen.frame(pause, size: size, look: still)
        #expect(whole.text.contains("unremarkable end"), "\(whole.text)")
        #expect(whole.text.contains("w: back"))
        #expect(anchors(whole).dropFirst() == anchors(shortened).dropFirst())
        #expect(!whole.text.contains("ring"), "the ring is hidden, so the status speaks of zero")
        // A quote shown whole already: w changes nothing.
        var short = session(elapsed: 10)
        let plain = PauseScreen.frame(short, size: TerminalSize(columns: 80, rows: 24), look: still)
        short.showsWholeQuote = true
        #expect(PauseScreen.frame(short, size: TerminalSize(columns: 80, rows: 24), look: still) == plain)
    }

    /// `w` shows a long quote whole in the rows of the quote and the ring,
    /// and the countdown stays in view as a bar with its time: the status
    /// still says Proceed opens at zero.
    @Test(arguments: [(80, 24), (80, 20), (60, 20), (200, 60), (40, 12), (40, 16)])
    func the_whole_quote_keeps_the_countdown_in_view(columns: Int, rows: Int) {
        let size = TerminalSize(columns: columns, rows: rows)
        var pause = PauseSession(programName: "Firefox", length: 90, quote: Self.long, at: 0)
        pause.advance(to: 10)
        pause.showsWholeQuote = true
        let whole = PauseScreen.frame(pause, size: size, look: still)
        #expect(whole.text.contains("w: back"), "\(size):\n\(whole.text)")
        let bar = whole.lines.firstIndex { $0.text.contains("1:20") && $0.text.contains("━") }
        let status = whole.lines.firstIndex { $0.text.contains("Proceed opens at zero") }
        #expect(bar != nil && status != nil && bar! < status!, "no countdown above the status at \(size):\n\(whole.text)")
    }

    /// In a window too short for any arrangement, the order holds (quote,
    /// countdown, status, actions) and the least important rows go first:
    /// more quote lines, then the status, then the quote, then the countdown.
    @Test(arguments: [(40, 8), (40, 7), (30, 6), (20, 6), (80, 5), (80, 4), (80, 3), (80, 2), (80, 1)])
    func a_very_short_window_keeps_the_order_and_drops_the_least_important_rows(columns: Int, rows: Int) {
        let size = TerminalSize(columns: columns, rows: rows)
        for quote in [Self.long, quote] {
            var pause = PauseSession(programName: "Firefox", length: 90, quote: quote, at: 0)
            pause.advance(to: 10)
            let frame = PauseScreen.frame(pause, size: size, look: still)
            let lines = frame.lines.map(\.text)
            #expect(lines.count == rows)
            let quoteRows = frame.lines.indices.filter { frame.lines[$0].spans.contains { $0.tone == .quote } }
            let bar = lines.firstIndex { $0.contains("1:20") }
            let status = lines.firstIndex { $0.contains("Proceed opens") }
            let actions = lines.firstIndex { $0.contains("Exit to Focus") }
            let order = [quoteRows.last, bar, status, actions].compactMap { $0 }
            #expect(order == order.sorted() && Set(order).count == order.count, "out of order at \(size):\n\(frame.text)")
            #expect(actions != nil, "no Exit to Focus at \(size)")
            let actionRows = lines.filter { $0.contains("[E]") || $0.contains("[D]") || $0.contains("[P]") }.count
            if rows >= actionRows + 1 { #expect(bar != nil, "no countdown at \(size):\n\(frame.text)") }
            if rows >= actionRows + 2 { #expect(!quoteRows.isEmpty, "no quote at \(size):\n\(frame.text)") }
            if rows >= actionRows + 3 { #expect(status != nil, "no status at \(size):\n\(frame.text)") }
            // A quote cut short says so.
            let shown = quoteRows.map { lines[$0].trimmingWhitespace() }.joined(separator: " ")
            if !shown.isEmpty && !shown.hasSuffix("”") { #expect(shown.hasSuffix("…"), "cut mid-sentence at \(size): \(shown)") }
        }
    }

    /// The header and its context come before the quote's room for the
    /// longest quote: a long quote is shortened (w shows it) before the
    /// header goes, and the ring still fits.
    @Test(arguments: [(60, 20), (70, 20), (79, 20), (60, 24), (80, 24), (200, 60)])
    func the_header_shows_whenever_the_rows_allow(columns: Int, rows: Int) {
        let look = PauseLook(motion: false, showTrack: true, context: ["3rd time today"])
        let frame = PauseScreen.frame(session(elapsed: 10), size: TerminalSize(columns: columns, rows: rows), look: look)
        #expect(frame.text.contains("a pause before Firefox") && frame.text.contains("3rd time today"), "\(columns)x\(rows):\n\(frame.text)")
        #expect(frame.text.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }, "no ring at \(columns)x\(rows)")
    }

    @Test func an_emptied_ring_leaves_its_track_in_every_colour_mode() {
        for showTrack in [true, false] {
            let cells = CountdownRing.cells(rows: 9, remaining: 0, thickness: 2.6, showTrack: showTrack).joined()
            #expect(!cells.contains { $0.kind == .arc })
            #expect(cells.contains { $0.kind == .track }, "showTrack \(showTrack): 0:00 is a hole")
        }
        let frame = PauseScreen.frame(session(elapsed: 95), size: TerminalSize(columns: 80, rows: 24),
                                      look: PauseLook(motion: false, colors: .none))
        #expect(frame.lines.flatMap(\.spans).contains { $0.tone == .track && $0.text.contains { $0 != " " } })
    }

    @Test func proceed_is_dim_until_zero_then_offered() {
        let size = TerminalSize(columns: 80, rows: 24)
        let counting = PauseScreen.frame(session(elapsed: 10), size: size, look: still)
        let ready = PauseScreen.frame(session(elapsed: 90), size: size, look: still)
        let proceedSpans = { (frame: Frame) in frame.lines.flatMap(\.spans).filter { $0.text.contains("Proceed to") } }
        #expect(proceedSpans(counting).allSatisfy { $0.tone == .inert })
        #expect(proceedSpans(ready).allSatisfy { $0.tone == .body })
        #expect(ready.text.contains("the choice is yours"))
    }

    @Test func the_ring_empties_as_the_countdown_runs() {
        let dots = { (elapsed: Double) -> Int in
            CountdownRing.cells(rows: 9, remaining: 1 - elapsed / 90, thickness: 2.6, showTrack: false)
                .joined().filter { $0.kind == .arc }.map { $0.character.unicodeScalars.first!.value - 0x2800 }
                .reduce(0) { $0 + $1.nonzeroBitCount }
        }
        let full = dots(0), half = dots(45), none = dots(90)
        #expect(full > half && half > none)
        #expect(none == 0)
        #expect(abs(Double(half) / Double(full) - 0.5) < 0.06)
    }

    /// Where the part still to run meets the emptied part, the cell keeps
    /// every dot (in one colour or the other): the ring stays whole, never notched.
    @Test(arguments: [5, 7, 9, 11, 13])
    func the_ring_stays_whole_as_it_empties(rows: Int) {
        func dots(_ remaining: Double) -> Int {
            CountdownRing.cells(rows: rows, remaining: remaining, thickness: 2.6, showTrack: true).joined()
                .map { Int($0.character.unicodeScalars.first!.value) - 0x2800 }.filter { $0 > 0 }
                .reduce(0) { $0 + $1.nonzeroBitCount }
        }
        let whole = dots(1)
        for step in 0...40 {
            let remaining = Double(step) / 40
            #expect(dots(remaining) == whole, "rows \(rows), \(remaining) left: \(dots(remaining)) dots of \(whole)")
        }
    }

    /// The word inside the ring keeps a cell of space from the ring on each
    /// side; a word that cannot is left out rather than touching it.
    @Test(arguments: [7, 9, 11, 13])
    func the_word_in_the_ring_never_touches_it(rows: Int) {
        for motion in [true, false] {
            for elapsed in stride(from: 0.0, through: 90, by: 2.5) {
                let look = PauseLook(motion: motion, showTrack: true)
                let lines = PauseScreen.ringLines(session(elapsed: elapsed), rows: rows, width: 80, look: look)
                for line in lines {
                    let cells = Array(line.text)
                    guard let first = cells.firstIndex(where: { $0.isLetter }),
                          let last = cells.lastIndex(where: { $0.isLetter }) else { continue }
                    let before = cells[first - 1], after = cells[last + 1]
                    #expect((before == " " || before == "⠀") && (after == " " || after == "⠀"),
                            "rows \(rows) at \(elapsed): \(line.text)")
                }
            }
        }
    }

    @Test func the_ring_is_round() {
        let cells = CountdownRing.cells(rows: 9, remaining: 1, thickness: 2.6, showTrack: false)
        #expect(cells.count == 9)
        #expect(cells.allSatisfy { $0.count == 18 })
        // Symmetric left to right and top to bottom.
        let pattern = cells.map { $0.map { $0.kind == .arc } }
        #expect(pattern == pattern.reversed())
        #expect(pattern == pattern.map { $0.reversed() })
    }

    @Test func breathing_moves_the_ring_and_reduced_motion_holds_it() {
        let size = TerminalSize(columns: 80, rows: 24)
        let moving = PauseLook(motion: true, showTrack: true)
        let inhaled = PauseScreen.frame(session(elapsed: 4), size: size, look: moving)
        let exhaled = PauseScreen.frame(session(elapsed: 9.9), size: size, look: moving)
        #expect(["breathe", "inhale", "exhale"].contains { inhaled.text.contains($0) }, "\(inhaled.text)")
        #expect(inhaled.lines.flatMap(\.spans).map(\.tone) != exhaled.lines.flatMap(\.spans).map(\.tone))
        // A ring with room for it says which way.
        let roomy = PauseScreen.frame(session(elapsed: 4), size: TerminalSize(columns: 120, rows: 40), look: moving)
        #expect(roomy.text.contains("breathe out") || roomy.text.contains("breathe in"), "\(roomy.text)")
        let stillA = PauseScreen.frame(session(elapsed: 4.0), size: size, look: still)
        let stillB = PauseScreen.frame(session(elapsed: 4.5), size: size, look: still)
        #expect(stillA == stillB)
        #expect(stillA.text.contains("breathe"))
    }

    @Test func notices_are_shown_calmly_at_the_bottom() {
        let look = PauseLook(motion: false, showTrack: true,
                             notices: ["config.toml:3:9: expected a value; using the defaults until it is fixed"])
        let frame = PauseScreen.frame(session(), size: TerminalSize(columns: 80, rows: 24), look: look)
        let lastWords = frame.lines.last { !$0.text.allSatisfy { $0 == " " } }
        #expect(lastWords?.text.contains("⚠ config.toml:3:9") == true)
        #expect(frame.text.contains("Exit to Focus"))
    }

    /// A notice wraps within the rows the pause has, cause first and its
    /// place after it; cut with … only when the rows truly run out.
    @Test(arguments: [(40, 12), (40, 16), (60, 20), (80, 24), (30, 10)])
    func a_notice_wraps_within_the_rows_it_has(columns: Int, rows: Int) {
        let look = PauseLook(motion: false, showTrack: true, notices: [HubFitTests.problem])
        let frame = PauseScreen.frame(session(elapsed: 10), size: TerminalSize(columns: columns, rows: rows), look: look)
        let said = frame.lines.map { $0.text.trimmingWhitespace() }.joined(separator: " ")
        // (A path wider than the window is broken where it must be.)
        let place = frame.lines.map { $0.text.trimmingWhitespace() }.joined()
        #expect(said.contains("`pause` must be"), "\(columns)x\(rows):\n\(frame.text)")
        if rows >= 12 { #expect(place.contains("config.toml:1:1)"), "no place at \(columns)x\(rows):\n\(frame.text)") }
        if rows >= 16 { #expect(said.contains("using the default"), "cut with rows to spare at \(columns)x\(rows):\n\(frame.text)") }
        #expect(frame.text.contains("Exit to Focus") && frame.lines.count == rows)
    }

    static func problems(_ count: Int) -> [String] {
        (1...count).map { "`pause` must be a whole number of seconds, not \"ten\"; using the default (/tmp/review/home/config/miga/config.toml:\($0))" }
    }

    /// More notices than rows: as many as fit, each on a row with its place,
    /// then a row that counts the rest and says where to read them; the
    /// ring, the countdown, the status and the actions all stay.
    @Test(arguments: [(100, 30, 30), (80, 24, 400), (60, 20, 12), (40, 16, 30), (200, 60, 400)])
    func more_notices_than_rows_end_in_a_count_of_the_rest(columns: Int, rows: Int, count: Int) {
        let size = TerminalSize(columns: columns, rows: rows)
        let frame = PauseScreen.frame(session(elapsed: 10), size: size, look: PauseLook(motion: false, notices: Self.problems(count)))
        let texts = frame.lines.map { $0.text.trimmingWhitespace() }
        let shown = texts.filter { $0.hasPrefix("⚠ `pause`") }
        let rest = texts.last { !$0.isEmpty } ?? ""
        #expect(frame.lines.count == rows && frame.lines.allSatisfy { $0.width <= columns })
        #expect(!shown.isEmpty && shown.allSatisfy { $0.contains("config.toml:") }, "\(size):\n\(frame.text)")
        #expect(rest.hasPrefix("⚠ \(count - shown.count) more") && rest.contains("miga doctor"), "\(size):\n\(frame.text)")
        #expect(frame.text.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }, "no ring at \(size):\n\(frame.text)")
        #expect(frame.text.contains("1:20") && frame.text.contains("Proceed opens") && frame.text.contains("Exit to Focus"))
    }

    /// Notices that fit a row each are all shown, without a count.
    @Test func notices_that_fit_are_all_shown() {
        let frame = PauseScreen.frame(session(elapsed: 10), size: TerminalSize(columns: 100, rows: 30),
                                      look: PauseLook(motion: false, notices: Self.problems(4)))
        #expect(frame.text.components(separatedBy: "⚠ `pause`").count == 5 && !frame.text.contains("more"), "\(frame.text)")
    }

    /// However many notices there are, a frame is laid out with the same
    /// bounded work: a few arrangements tried, no more notices read than rows.
    @Test func many_notices_cost_a_bounded_layout() {
        for count in [1, 30, 400, 4000] {
            var work = PauseScreen.LayoutWork()
            _ = PauseScreen.frame(session(elapsed: 10), size: TerminalSize(columns: 100, rows: 30),
                                  look: PauseLook(motion: false, notices: Self.problems(count)), work: &work)
            #expect(work.arrangementsTried <= 2 * PauseScreen.arrangements(usualHeight: 4).count && work.noticesRead <= 30, "\(count): \(work)")
        }
    }

    @Test func two_line_quotes_are_balanced() {
        let lines = TextWrap.balancedLines("Thoughts arrive uninvited. You still get to decide which ones are offered a chair.", measure: 60)
        #expect(lines.count == 2)
        #expect(abs(CellWidth.of(lines[0]) - CellWidth.of(lines[1])) <= 10)
    }

    @Test func a_new_streak_is_new_once_a_day_and_later_exits_are_counted() {
        #expect(CelebrationWords(program: "Steam", streak: 1, exitsToday: 1).detail == "Steam can wait · day 1 of a new streak")
        #expect(CelebrationWords(program: "Steam", streak: 1, exitsToday: 2).detail == "Steam can wait · 2nd conscious exit today")
        #expect(CelebrationWords(program: "Steam", streak: 1, exitsToday: 3).summary == "You chose yourself — 3rd conscious exit today")
        #expect(CelebrationWords(program: "Steam", streak: 5, exitsToday: 3).detail == "Steam can wait · 5-day streak")
    }

    @Test func poems_keep_their_line_breaks() {
        let poem = Quote(id: "poetry-004", text: "Somewhere a heron / stands in cold water all day / and calls it enough.", tags: ["Poetry"])
        #expect(PauseScreen.quoteLines(poem, measure: 60) == ["“Somewhere a heron", "stands in cold water all day", "and calls it enough.”"])
    }

    @Test func the_celebration_names_the_program_and_the_streak() {
        let words = CelebrationWords(program: "Firefox", streak: 4)
        #expect(words.summary == "You chose yourself — 4-day streak")
        #expect(words.body.contains("Firefox"))
        #expect(CelebrationWords(program: "Steam", streak: 1).summary.contains("day 1"))
        let frame = Celebration.frame(progress: 1, size: TerminalSize(columns: 80, rows: 24), headline: words.headline,
                                      detail: words.detail, motion: true)
        #expect(frame.text.contains("You chose yourself."))
        #expect(frame.text.contains("Firefox can wait · 4-day streak"))
        let still = Celebration.frame(progress: 0, size: TerminalSize(columns: 80, rows: 24), headline: words.headline,
                                      detail: words.detail, motion: false)
        #expect(still.text.contains("You chose yourself."))
        #expect(!still.text.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
    }

    /// MIGA's own window in an emulator whose font it cannot choose: the ring in ASCII, as in a C locale.
    @Test func a_window_without_the_rings_font_draws_in_ascii_whatever_the_locale() {
        let window = TerminalCapabilities.detect(environment: ["TERM": "xterm", "LANG": "C.UTF-8", "MIGA_GLYPHS": "ascii"])
        #expect(!window.unicode)
        #expect(TerminalCapabilities.detect(environment: ["TERM": "xterm", "LANG": "C.UTF-8", "MIGA_GLYPHS": ""]).unicode)
        let ring = CountdownRing.cells(rows: 5, remaining: 0.6, thickness: 2, showTrack: true).flatMap { $0 }
        let drawn = ring.filter { $0.kind != .empty }.map { Palette(window).glyphs(String($0.character), tone: $0.kind == .arc ? .accent(glow: 0) : .track) }
        #expect(!drawn.isEmpty && drawn.allSatisfy { $0 == "o" || $0 == "." }, "\(drawn)")
    }
}
