import Foundation
import MIGACore
import MIGATerminal

/// The effect as a calm plain-text card for `miga stats`: figures beside
/// one sec's, in neutral words ("higher", "lower"), never a verdict.
public struct EffectCard: Equatable, Sendable {
    public static let defaultTitle = "The effect, as the field measures it"
    public static let notEnoughData = "not enough data yet (a week of use is needed)"

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
            ("attempts a day", comparison(effect.attempts, study: Effect.fieldStudyAttemptsChange, suffix: " after six weeks")),
            ("openings a day", comparison(effect.openings, study: Effect.fieldStudyOpeningsChange, suffix: "")),
            ("after a break", rebound()),
        ]
    }

    func comparison(_ comparison: Effect.WeekComparison?, study: Double, suffix: String) -> [String] {
        guard let comparison else { return [Self.notEnoughData] }
        let first = Self.perDay(comparison.firstWeekPerDay)
        let recent = Self.perDay(comparison.recentWeekPerDay)
        if let change = comparison.change {
            return ["\(first) → \(recent) (\(Self.signedPercent(change))) since your first week",
                    "one sec: \(Self.signedPercent(study))\(suffix)"]
        }
        if !comparison.comparable, let from = effect.comparableFrom {
            return ["\(first) in your first week", "compared from \(from)"]
        }
        return ["\(first) → \(recent) since your first week", "none in your first week to compare with"]
    }

    /// The latest break, and the attempts a day after it against before it.
    func rebound() -> [String] {
        guard let rebound = effect.rebound else { return ["no break of \(Effect.shortestGap) days or more"] }
        let gap = "\(rebound.gapDays) days without MIGA from \(rebound.gapStart)"
        guard rebound.daysAfter > 0 else { return [gap, "the attempts a day after it are still to come"] }
        let comparison = rebound.flagged ? "higher" : rebound.perDayAfter < rebound.perDayBefore ? "lower" : "the same"
        return [gap, "attempts a day: \(Self.perDay(rebound.perDayAfter)) in the \(Self.days(rebound.daysAfter)) after, "
            + "\(Self.perDay(rebound.perDayBefore)) in the \(Self.days(rebound.daysBefore)) before — \(comparison)"]
    }

    static func days(_ count: Int) -> String { count == 1 ? "day" : "\(count) days" }

    static func perDay(_ value: Double) -> String { String(format: "%.1f", value) }

    static func percent(_ fraction: Double) -> Int { wholeNumber(fraction * 100) }

    /// "−37 %", "+12 %", "0 %": the minus sign for a decrease, plus for an increase.
    static func signedPercent(_ fraction: Double) -> String {
        let value = percent(fraction)
        return value < 0 ? "−\(-value) %" : value > 0 ? "+\(value) %" : "0 %"
    }
}
