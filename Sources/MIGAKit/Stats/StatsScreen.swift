import FoundationEssentials
import MIGACore
import MIGATerminal

/// `miga stats` as lines of styled text (seed S-006): three cards, the
/// streak, a 30-day chart, and a table per program. Everything is measured in
/// terminal cells and fits 80 columns; wider terminals get roomier cards.
public enum StatsScreen {
    public static func lines(_ report: StatsReport, width: Int) -> [Line] {
        if report.totals.sessions == 0 && report.filter == StatsFilter() { return firstRun(report, width: width) }
        var lines: [Line] = [.blank]
        lines += cards(report, width: width)
        lines.append(.blank)
        lines += streakLines(report.streak, width: width)
        lines += leakLines(report, width: width)
        lines.append(.blank)
        lines += chart(report.days, width: width)
        if !report.programs.isEmpty {
            lines.append(.blank)
            lines += table(report.programs, width: width)
        }
        lines += effectLines(report, width: width)
        lines.append(.blank)
        return lines
    }

    /// The effect card (of the program under --program, else overall), and
    /// the kinds table once more than one kind is in use or has been shown, or one is left out.
    static func effectLines(_ report: StatsReport, width: Int) -> [Line] {
        var lines: [Line] = []
        let room = max(20, width - margin.count)
        if let effect = report.effectShown?.overall {
            let card = EffectCard(effect, title: report.filter.program.map { "The effect on \(printable(Protected.shownName(of: $0))), as the field measures it" }
                                  ?? EffectCard.defaultTitle)
            lines.append(.blank)
            lines += card.lines(width: room).enumerated().map { index, text in
                Line([Span(margin + text, index == 0 ? .body : .muted)])
            }
        }
        if let kinds = report.kinds, kinds.comparesKinds {
            lines.append(.blank)
            lines += kinds.text(width: room).enumerated().map { index, text in
                Line([Span(margin + text, index == 0 ? .body : .muted)])
            }
        }
        // What MIGA learns from, and the field's figures, are of the whole history: said when the rest is narrowed.
        if !lines.isEmpty, report.filter.days != nil || report.filter.device != nil {
            lines.append(.blank)
            lines += TextWrap.lines(allTimeNote, width: room).map { Line([Span(margin + $0, .muted)]) }
        }
        return lines
    }

    static let allTimeNote = "The effect and the kinds of pause cover all time on every device: --days and --device narrow the figures above them."

    static let margin = "  "

    // MARK: Cards

    static func cards(_ report: StatsReport, width: Int) -> [Line] {
        let totals = report.totals
        let (week, before) = (report.thisWeek, report.lastWeek)
        // Arrows compare this week with the week before, so they sit on the
        // week's line; under --days of less than a week, those days with as many before.
        let span = report.weekWords
        let exitsCard = Card(title: "Conscious exits", value: "\(totals.exits)", captions: [
            [Span("\(span) \(week.exits) ", .muted)] + trend(week.exits, before.exits),
            [Span("of \(totals.sessions) pause\(totals.sessions == 1 ? "" : "s")", .muted)],
        ])
        let hoursCard = Card(title: "Hours reclaimed", value: duration(totals.pausedSeconds), captions: [
            [Span("\(span) \(duration(week.pausedSeconds)) ", .muted)] + trend(week.pausedSeconds, before.pausedSeconds),
            [Span("spent in pauses", .muted)],
        ])
        let band = StatsReport.hopedForBand
        let aim = "\(band.lowerBound)–\(band.upperBound) %"
        // Reference points, never a verdict: the seed's aim and what one sec's users reached.
        let standing = switch totals.intentionalityScore {
        case nil: "after a first pause"
        case .some(let value) where band.contains(value): "in the \(aim) aim"
        case .some(let value) where value < band.lowerBound: "every exit counts"
        default: "above the \(aim) aim"
        }
        let scoreCard = Card(title: "Intentionality", value: totals.intentionalityScore.map { "\($0) %" } ?? "—", captions: [
            [Span(standing, .muted)],
            [Span("one sec users: \(StatsReport.fieldStudyShare) %", .muted)],
        ])
        let all = [exitsCard, hoursCard, scoreCard]
        let room = width - margin.count
        if room >= 3 * 20 + 2 {
            let cardWidth = min(30, (room - 2) / 3)
            let rendered = all.map { $0.lines(width: cardWidth) }
            return (0..<rendered[0].count).map { row -> Line in
                var spans: [Span] = [Span(margin)]
                for (index, card) in rendered.enumerated() {
                    if index > 0 { spans.append(Span(" ")) }
                    spans += card[row]
                }
                return Line(spans)
            }
        }
        let cardWidth = max(16, min(34, room))
        return all.flatMap { $0.lines(width: cardWidth).map { Line([Span(margin)] + $0) } }
    }

    struct Card {
        let title: String
        let value: String
        let captions: [[Span]]

        func lines(width: Int) -> [[Span]] {
            let inner = width - 4
            func row(_ spans: [Span]) -> [Span] {
                let used = spans.reduce(0) { $0 + $1.width }
                return [Span("│ ", .accent(glow: 0))] + spans + [Span(String(repeating: " ", count: max(0, inner - used))), Span(" │", .accent(glow: 0))]
            }
            let bar = String(repeating: "─", count: width - 2)
            func fitted(_ spans: [Span]) -> [Span] {
                var room = inner
                return spans.map { span in
                    let text = TextWrap.truncate(span.text, width: max(0, room))
                    room -= CellWidth.of(text)
                    return Span(text, span.tone)
                }
            }
            return [[Span("╭" + bar + "╮", .accent(glow: 0))],
                    row(fitted([Span(title, .muted)])),
                    row(fitted([Span(value, .quote)]))]
                + captions.map { row(fitted($0)) }
                + [[Span("╰" + bar + "╯", .accent(glow: 0))]]
        }
    }

    /// An arrow for this week against the week before: up in teal, otherwise quiet.
    static func trend<Value: Comparable>(_ now: Value, _ before: Value) -> [Span] {
        if now > before { return [Span("↑", .accentDeep)] }
        if now < before { return [Span("↓", .muted)] }
        return [Span("→", .muted)]
    }

    /// Seconds as a person says them: "45 s", "12 min", "1.5 h", "31 h".
    static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return "\(wholeNumber(seconds)) s" }
        if seconds < 3600 { return "\(wholeNumber(seconds / 60)) min" }
        let hours = seconds / 3600
        return hours < 10 ? decimal(hours, places: 1) + " h" : "\(wholeNumber(hours)) h"
    }

    // MARK: Streak

    /// "3 launches went around the pause this week (2 at login, 1 from /snap/bin/firefox)": said, never scolded.
    static func leakLines(_ report: StatsReport, width: Int) -> [Line] {
        guard !report.leaks.isEmpty else { return [] }
        let count = report.leaks.count
        let span = report.weekWords
        let routes = report.leakRoutes.map { "\($0.count) \($0.route)" }.joined(separator: ", ")
        return wrapped("\(count) launch\(count == 1 ? "" : "es") went around the pause \(span) (\(routes))", width: width, tone: .muted)
    }

    static func streakLines(_ streak: Streak, width: Int) -> [Line] {
        let best = streak.best > 0 ? "  ·  best \(streak.best) day\(streak.best == 1 ? "" : "s")" : ""
        if streak.current > 0 {
            let line = Line([Span(margin + Streak.mark + " "), Span("\(streak.current)-day streak", .accentDeep), Span(best, .muted)])
            return line.width <= width ? [line] : [Line(Array(line.spans.dropLast()))] + wrapped(best.trimmingWhitespace(), width: width, tone: .muted)
        }
        if streak.best > 0 {
            let line = Line([Span(margin + "No streak today yet: one conscious exit starts one", .muted), Span(best, .muted)])
            return line.width <= width ? [line]
                : wrapped("No streak today yet: one conscious exit starts one", width: width, tone: .muted)
                    + wrapped(best.trimmingWhitespace(), width: width, tone: .muted)
        }
        return wrapped("Your first conscious exit starts a streak.", width: width, tone: .muted)
    }

    /// `text` wrapped inside the margin, so a narrow terminal gets whole words on more lines.
    static func wrapped(_ text: String, width: Int, tone: Tone = .body) -> [Line] {
        TextWrap.lines(text, width: max(10, width - margin.count)).map { Line([Span(margin + $0, tone)]) }
    }

    // MARK: Chart

    static let chartHeight = 4

    /// Conscious exits and proceeds per day as two small charts on one scale,
    /// side by side when there is room: readable without colour.
    static func chart(_ days: [DayCount], width: Int) -> [Line] {
        let peak = max(1, days.map { max($0.exits, $0.proceeds) }.max() ?? 1)
        let span = days.count == StatsReport.chartDays ? "last \(days.count) days" : "last \(days.count) day\(days.count == 1 ? "" : "s")"
        let exits = panel(title: "Conscious exits · \(span)", values: days.map(\.exits), peak: peak, tone: .accent(glow: 0), days: days)
        let proceeds = panel(title: "Proceeds · \(span)", values: days.map(\.proceeds), peak: peak, tone: .muted, days: days)
        let panelWidth = exits.map(\.width).max() ?? 0
        if margin.count + 2 * panelWidth + 4 <= width {
            return zip(exits, proceeds).map { left, right in
                Line([Span(margin)] + left.spans + [Span(String(repeating: " ", count: panelWidth - left.width + 4))] + right.spans)
            }
        }
        return exits.map { Line([Span(margin)] + $0.spans) } + [.blank] + proceeds.map { Line([Span(margin)] + $0.spans) }
    }

    static func panel(title: String, values: [Int], peak: Int, tone: Tone, days: [DayCount]) -> [Line] {
        let label = String(peak)
        let gutter = label.count + 1
        let levels = Array(" ▁▂▃▄▅▆▇█")
        var lines = [Line([Span(title, .muted)])]
        for row in 0..<chartHeight {
            let axis = row == 0 ? label.leftPadded(to: gutter - 1) + " ┤" : String(repeating: " ", count: gutter) + "│"
            let bars = values.map { value -> Character in
                let eighths = wholeNumber(Double(value) / Double(peak) * Double(chartHeight * 8))
                return levels[max(0, min(8, eighths - (chartHeight - 1 - row) * 8))]
            }
            lines.append(Line([Span(axis, .muted), Span(String(bars), tone)]))
        }
        lines.append(Line([Span("0".leftPadded(to: gutter - 1) + " └" + String(repeating: "─", count: values.count), .muted)]))
        let first = days.first.map { shortDate($0.day) } ?? ""
        let gap = max(1, values.count - first.count - "today".count)
        lines.append(Line([Span(String(repeating: " ", count: gutter + 1) + first + String(repeating: " ", count: gap) + "today", .muted)]))
        return lines
    }

    static func shortDate(_ day: LocalDay) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let (_, month, date) = day.components
        return "\(months[month - 1]) \(date)"
    }

    // MARK: Table

    static func table(_ programs: [ProgramCount], width: Int) -> [Line] {
        let header = ["program", "pauses", "exits", "exit rate", "time paused"]
        // Every program: the hub's stats scroll, and a terminal's output does too.
        let rows = programs.map { program -> [String] in
            let totals = program.totals
            return [Protected.shownName(of: program.program), "\(totals.sessions)", "\(totals.exits)",
                    totals.intentionalityScore.map { "\($0) %" } ?? "—", duration(totals.pausedSeconds)]
        }
        let nameWidth = min(24, max(header[0].count, rows.map { CellWidth.of($0[0]) }.max() ?? 0))
        var widths = [nameWidth] + (1..<header.count).map { column in
            ([header] + rows).map { CellWidth.of($0[column]) }.max() ?? 0
        }
        // In a narrow terminal the last columns give way, whole.
        while widths.count > 2 && margin.count + widths.reduce(0, +) + 3 * (widths.count - 1) > width {
            widths.removeLast()
        }
        func cells(_ values: [String]) -> String {
            values.prefix(widths.count).enumerated().map { index, value in
                index == 0 ? TextWrap.truncate(value, width: nameWidth).rightPadded(to: nameWidth)
                           : value.leftPadded(to: widths[index])
            }.joined(separator: "   ")
        }
        var lines = [Line([Span(margin + cells(header), .muted)])]
        lines += rows.map { Line([Span(margin + cells($0))]) }
        return lines
    }

    // MARK: First run

    static func firstRun(_ report: StatsReport, width: Int) -> [Line] {
        let measure = max(20, min(72, width - 4))
        var lines: [Line] = [.blank, Line([Span(margin + "No pauses yet.", .quote)]), .blank]
        let text = "The next time a protected program opens, MIGA pauses it and counts your choice here: conscious exits, hours reclaimed and your streak."
        lines += TextWrap.lines(text, width: measure).map { Line([Span(margin + $0)]) }
        if report.totals.passThroughs > 0 {
            lines.append(.blank)
            let passes = "\(report.totals.passThroughs) launch\(report.totals.passThroughs == 1 ? "" : "es") went straight through without a terminal; they are not counted as pauses."
            lines += TextWrap.lines(passes, width: measure).map { Line([Span(margin + $0, .muted)]) }
        }
        let leaks = leakLines(report, width: width)
        if !leaks.isEmpty { lines += [.blank] + leaks }
        let protect = Line([Span(margin + "Protect a program with:  "), Span("miga protect firefox", .accentDeep)])
        lines += [.blank] + (protect.width <= width ? [protect]
            : [Line([Span(margin + "Protect a program with:")]), Line([Span(margin + "  "), Span("miga protect firefox", .accentDeep)])])
        lines.append(.blank)
        return lines
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - CellWidth.of(self))) + self
    }

    func rightPadded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - CellWidth.of(self)))
    }
}
