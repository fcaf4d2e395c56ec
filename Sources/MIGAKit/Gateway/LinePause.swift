import MIGACore
import MIGATerminal

/// The pause for a terminal that obeys no control sequences (`TERM=dumb`:
/// Emacs's shell, an IDE's output pane, a CI log): the same model
/// (`PauseFlow`) and the same endings as the full-screen pause, told in plain
/// lines. What is its own: lines read as choices, and the words printed.
///
/// The terminal stays in its normal line mode, so a choice is a letter and
/// Enter. Nothing written is anything but printable text and "\n": no
/// escape, no carriage return redrawing a line, no colour. Every word from a
/// file or a config (quote, alternative, program name, typed line) passes
/// through `printable(_:)`.
public enum LinePause {
    /// Widest line of the quote, its indent included.
    static let measure = 72
    static let indent = "  "
    /// Longest alternative shown in the prompt, in cells: a reminder, not a paragraph.
    static let alternativeWidth = 48

    /// Shows the pause as lines until the person chooses, input ends, a
    /// signal arrives or another launch proceeded.
    ///
    /// - Parameters:
    ///   - input: read a line at a time (canonical mode); end of input is `.hangup`.
    ///   - signals: the read end of a self-pipe carrying signal numbers as
    ///     bytes (`SignalRouting.install()`), or -1 to leave signals alone.
    ///   - output: receives every piece of text, in order.
    ///   - world: carries out the pause's work (Deepen's quote, giving way).
    ///   - width: the terminal's width: every line is wrapped to it, between words.
    ///   - tick: seconds between the lines that say how long is left.
    public static func run(_ session: inout PauseSession, input: Int32, signals: Int32 = -1,
                           output write: (String) -> Void, time: TimeSource, width: Int = 80,
                           world: PauseWorld, tick: Double = 10) -> PauseEnding {
        // The conversation keeps the writer only while it runs.
        withoutActuallyEscaping(write) { write in
            var conversation = LineConversation(
                flow: PauseFlow(session: session, checksYield: world.checksYield),
                reader: LineReader(input: input, signals: signals), time: time,
                tick: tick.isFinite && tick > 0 ? tick : 10,
                write: { write(wrapped($0, width: max(10, width))) }, world: world)
            defer { session = conversation.flow.session }
            return conversation.run()
        }
    }

    /// A lone `e` or `q` (the keys of Exit to Focus), any case, spaces aside.
    static func isExit(_ line: String) -> Bool {
        let choice = line.trimmingWhitespace()
        return choice.count == 1 && PauseAction(key: .character(choice.first!)) == .exitToFocus
    }

    // MARK: Words

    /// The quote in “…” as the screen shows it, verse by verse, then its source and tags.
    static func quoteBlock(_ quote: Quote) -> String {
        // Room for the indent and the quotation marks, so no line passes `measure`.
        let width = measure - indent.count - 1
        var lines = quote.verses.flatMap { TextWrap.lines(printable($0), width: width) }
        if !lines.isEmpty {
            lines[0] = "“" + lines[0]
            lines[lines.count - 1] += "”"
        }
        let tags = quote.tags.map(printable).joined(separator: " · ")
        let attribution = quote.source.map { "— \(printable($0)) · \(tags)" } ?? tags
        if !attribution.isEmpty { lines += TextWrap.lines(attribution, width: width) }
        return lines.map { indent + $0 + "\n" }.joined() + "\n"
    }

    /// The full time, what Proceed waits for, and the keys that work now.
    static func countdownStart(_ session: PauseSession) -> String {
        let program = printable(session.programName)
        let status = session.kind == .intention ? "while it counts: what are you opening \(program) for?"
            : session.needsTyping ? "Proceed opens at zero, after a short line typed back."
            : "Proceed opens at zero."
        return "Pause: \(session.clock) — \(status)\n" + keysLine(session) + "\n"
    }

    /// The keys before zero: Exit to Focus always first.
    static func keysLine(_ session: PauseSession) -> String {
        glued(exitChoices(session) + ["d Deepen the Pause"]) + " " + glued(["(then Enter)"])
    }

    /// The choice at zero, waiting on the same line for the answer.
    static func prompt(_ session: PauseSession) -> String {
        let proceed = "p " + printable(session.proceedLabel)
        return glued(exitChoices(session) + ["d Deepen the Pause", proceed]) + " " + glued(["(then Enter):"]) + " "
    }

    private static func exitChoices(_ session: PauseSession) -> [String] {
        guard let alternative = session.alternative else { return ["e Exit to Focus"] }
        return ["e Exit to Focus", "i Instead: " + TextWrap.truncate(printable(alternative), width: alternativeWidth)]
    }

    // MARK: Wrapping

    /// Joins a choice's words so that wrapping keeps it whole on a line
    /// where it fits ("d Deepen the Pause", never "d Deepen the" and "Pause").
    private static let glue: Character = "\u{00A0}"

    /// `items` joined by " · ", each glued whole.
    private static func glued(_ items: [String]) -> String {
        items.map { $0.replacingOccurrences(of: " ", with: String(glue)) }.joined(separator: " · ")
    }

    /// `text` with every line wider than `width` broken between words (its
    /// indent kept), a prompt's last space kept, and the glue made spaces again.
    static func wrapped(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let line = String(line)
            guard CellWidth.of(line) > width else { return line.replacingOccurrences(of: String(glue), with: " ") }
            let indent = String(line.prefix { $0 == " " })
            let trailing = line.hasSuffix(" ") ? " " : ""
            return TextWrap.lines(String(line.dropFirst(indent.count)), width: max(1, width - indent.count - trailing.count))
                .map { (indent + $0).replacingOccurrences(of: String(glue), with: " ") }
                .joined(separator: "\n") + trailing
        }.joined(separator: "\n")
    }
}
