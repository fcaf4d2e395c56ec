import FoundationEssentials
import MIGACore
import MIGATerminal
import MIGAStore

/// The lines `miga history` prints.
public enum HistoryTable {
    /// `width`: the terminal's, which no line goes past; nil (a pipe, a file) cuts nothing.
    public static func lines(_ sessions: [SessionRecord], changes: [ProtectionChange] = [], width: Int? = nil) -> [Line] {
        func subjects(_ change: ProtectionChange) -> String {
            change.subjects.isEmpty ? "miga" : change.subjects.map(Protected.shownName(of:)).joined(separator: ", ")
        }
        let names = sessions.map { Protected.shownName(of: $0.program) } + changes.map(subjects)
        let nameWidth = min(20, names.map { CellWidth.of($0) }.max() ?? 0)
        func lead(_ date: Date, _ program: String) -> [Span] {
            let name = TextWrap.truncate(program, width: nameWidth)
            return [Span(LocalZone.system.minuteText(at: date) + "  ", .muted),
                    Span(name + String(repeating: " ", count: nameWidth - CellWidth.of(name)) + "  ")]
        }
        let rows = sessions.map { session in
            (session.endedAt ?? session.startedAt, line(session, lead(session.endedAt ?? session.startedAt, Protected.shownName(of: session.program))))
        } + changes.map { change in
            (change.at, line(change, lead(change.at, subjects(change))))
        }
        let sorted = rows.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
        return width.map { width in sorted.map { $0.truncated(to: width) } } ?? sorted
    }

    static func line(_ session: SessionRecord, _ lead: [Span]) -> Line {
        let (word, tone): (String, Tone) = switch session.outcome {
        case .exit: ("exit to focus", .accentDeep)
        case .proceed: ("proceeded", .body)
        case .abandoned: ("abandoned", .muted)
        case .passthrough: ("passed through", .muted)
        case .open: ("in progress", .muted)
        }
        var spans = lead + [Span(word, tone)]
        let padding = String(repeating: " ", count: 16 - word.count)
        if session.outcome != .passthrough {
            let seconds = wholeNumber(session.pausedSeconds)
            spans.append(Span(padding + (seconds < 60 ? "\(seconds) s" : "\(seconds / 60) min \(seconds % 60) s"), .muted))
        }
        switch session.reason {
        case .allowed: spans.append(Span(padding + "inside the allowance", .muted))
        case .outsideHours: spans.append(Span(padding + "outside focus hours", .muted))
        case .autostart: spans.append(Span(padding + "started at login", .muted))
        case .noWindow: spans.append(Span(padding + "the pause's window never opened", .muted))
        case nil: break
        }
        if let kind = kindWords(session) { spans.append(Span("  · " + kind, .muted)) }
        if session.deepenCount > 0 { spans.append(Span("  deepened \(session.deepenCount)×", .muted)) }
        if !session.happenedOn.isEmpty { spans.append(Span("  on \(session.happenedOn.prefix(8))", .muted)) }
        if let intention = session.intention { spans.append(Span("  for “\(intention)”", .body)) }
        if let words = session.stoppedAtOnce { spans.append(Span("  · it stopped at once: “\(words)”", .muted)) }
        return Line(spans)
    }

    /// What the pause was, where it was not the breathing one, and the
    /// alternative chosen: "read ten pages instead", "a typed pause, the line typed".
    static func kindWords(_ session: SessionRecord) -> String? {
        if let alternative = session.alternative { return alternative + " instead" }
        guard let kind = session.kind, kind != .breathe else { return nil }
        return kind.described + (kind == .type && session.typed == true ? ", the line typed" : "")
    }

    static func line(_ change: ProtectionChange, _ lead: [Span]) -> Line {
        let word = switch (change.action, change.outcome) {
        case (.unprotect, .done): "unprotected"
        case (.unprotect, .kept): "kept protected"
        case (.uninstall, .done): "uninstalled"
        case (.uninstall, .kept): "kept installed"
        }
        return Line(lead + [Span(word, change.outcome == .kept ? .accentDeep : .body)])
    }
}
