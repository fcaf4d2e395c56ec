import FoundationEssentials
import MIGACore
import MIGATerminal

/// The effect as a calm plain-text card for `miga stats`: figures beside
/// one sec's, in neutral words ("higher", "lower"), never a verdict.
public struct EffectCard: Equatable, Sendable {
    public static let defaultTitle = "The effect, as the field measures it"
    public static let notEnoughData = "not enough data yet (two weeks of use are needed)"

    public let effect: Effect
    public let title: String

    public init(_ effect: Effect, title: String = EffectCard.defaultTitle) {
        self.effect = effect
        self.title = title
    }

    /// Lines of at most `width` cells: a label column beside the figures,
    /// or above them when the terminal is narrow.
    public func lines(width: Int) -> [String] {
        let width = max(1, width)
        var lines = TextWrap.lines(title, width: width)
        let margin = width > 10 ? "  " : ""
        guard effect.enoughData else {
            return lines + TextWrap.lines(Self.notEnoughData, width: width - margin.count).map { margin + $0 }
        }
        let sideBySide = width - margin.count - Self.labelWidth >= 36
        for row in rows() {
            let indent = sideBySide ? margin + String(repeating: " ", count: Self.labelWidth)
                : margin + (width > 12 ? "  " : "")
            let room = max(1, width - indent.count)
            let joined = row.segments.joined(separator: " · ")
            let values = CellWidth.of(joined) <= room ? [joined]
                : row.segments.flatMap { TextWrap.lines($0, width: room) }
            if sideBySide {
                let label = margin + row.label + String(repeating: " ", count: Self.labelWidth - row.label.count)
                lines.append(label + values[0])
                lines += values.dropFirst().map { indent + $0 }
            } else {
                lines += TextWrap.lines(row.label, width: max(1, width - margin.count)).map { margin + $0 }
                lines += values.map { indent + $0 }
            }
        }
        return lines
    }

    static let labelWidth = 18

    /// A row's label and its figures, which may go on lines of their own.
    func rows() -> [(label: String, segments: [String])] {
        let study = "one sec's study: \(Self.percent(Effect.fieldStudyDismissal)) %"
        let dismissed = effect.dismissal.map { ["\(Self.percent($0.rate)) % of pauses (\(study))", "\($0.days) days"] }
            ?? ["no pauses yet (\(study))", "\(effect.days) days"]
        return [
            ("dismissed", dismissed),
            ("attempts a day", comparison(effect.attempts, study: Effect.fieldStudyAttemptsChange, showsLeaks: true)),
            ("openings a day", comparison(effect.openings, study: Effect.fieldStudyOpeningsChange)),
            ("after a break", rebound()),
        ]
    }

    /// The last two weeks a day against the first two, with the weeks it
    /// took, beside one sec's; the launches around the pause beside the attempts.
    func comparison(_ comparison: Effect.Comparison?, study: Double, showsLeaks: Bool = false) -> [String] {
        guard let comparison else { return [Self.notEnoughData] }
        let first = Self.perDay(comparison.firstPerDay)
        let recent = Self.perDay(comparison.recentPerDay)
        let leaks = showsLeaks ? Self.leaks(comparison) : []
        if let change = comparison.change {
            return ["\(first) → \(recent) (\(Self.signedPercent(change))) after \(Self.weeks(comparison.weeks))",
                    "one sec: \(Self.signedPercent(study)) after six weeks"] + leaks
        }
        if !comparison.comparable, let from = effect.comparableFrom {
            // Overall, once past that day: the programs used lately are newer than it.
            let when = from > effect.today ? "compared from \(from)" : "no program used lately has first weeks to compare with yet"
            return ["\(first) in your first two weeks", when] + leaks
        }
        if !comparison.inUse {
            return ["no pauses in the last \(comparison.days) days", "\(first) in your first two weeks"]
        }
        if !comparison.enoughUse {
            return ["\(first) → \(recent) after \(Self.weeks(comparison.weeks))", Self.notEnoughUse] + leaks
        }
        return ["\(first) → \(recent) after \(Self.weeks(comparison.weeks))", "none in your first two weeks to compare with"] + leaks
    }

    /// Said instead of a change when neither span holds `Effect.leastCount`.
    static let notEnoughUse = "not enough use yet to compare (under \(Effect.leastCount) in each two weeks)"

    /// "2 launches around the pause in the last 14 days (0 in your first two weeks)", when there were any.
    static func leaks(_ comparison: Effect.Comparison) -> [String] {
        guard comparison.firstLeaks + comparison.recentLeaks > 0 else { return [] }
        let recent = comparison.recentLeaks
        return ["\(recent) \(recent == 1 ? "launch" : "launches") around the pause in the last \(comparison.days) days "
            + "(\(comparison.firstLeaks) in your first two weeks)"]
    }

    /// The latest break, and the attempts a day after it against before it:
    /// "higher" only when more than chance would give (`Rebound.flagged`).
    func rebound() -> [String] {
        guard let rebound = effect.rebound else { return ["no break of \(Effect.shortestGap) days or more"] }
        let gap = "\(rebound.gapDays) days without MIGA from \(rebound.gapStart)"
        guard rebound.daysAfter > 0 else { return [gap, "the attempts a day after it are still to come"] }
        let comparison = rebound.flagged ? "higher"
            : rebound.perDayAfter < rebound.perDayBefore ? "lower"
            : rebound.perDayAfter > rebound.perDayBefore ? "no clear rise" : "the same"
        return [gap, "attempts a day: \(Self.perDay(rebound.perDayAfter)) in the \(Self.days(rebound.daysAfter)) after, "
            + "\(Self.perDay(rebound.perDayBefore)) in the \(Self.days(rebound.daysBefore)) before — \(comparison)"]
    }

    static func weeks(_ count: Int) -> String { count == 1 ? "1 week" : "\(count) weeks" }

    static func days(_ count: Int) -> String { count == 1 ? "day" : "\(count) days" }

    static func perDay(_ value: Double) -> String { decimal(value, places: 1) }

    static func percent(_ fraction: Double) -> Int { wholeNumber(fraction * 100) }

    /// "−37 %", "+12 %", "0 %": the minus sign for a decrease, plus for an increase.
    static func signedPercent(_ fraction: Double) -> String {
        let value = percent(fraction)
        return value < 0 ? "−\(-value) %" : value > 0 ? "+\(value) %" : "0 %"
    }
}
