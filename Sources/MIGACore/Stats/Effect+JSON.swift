import FoundationEssentials
import Glibc

// MARK: JSON

extension Effect: Encodable {
    package enum CodingKeys: String, CodingKey {
        case program, enoughData = "enough_data", firstDay = "first_day", days, spanDays = "span_days"
        case attempts, pauses, consciousExits = "conscious_exits", openings
        case dismissalRate = "dismissal_rate"
        case attemptsFirst = "attempts_per_day_first_weeks", attemptsRecent = "attempts_per_day_recent_weeks"
        case attemptsChange = "attempts_change"
        case openingsFirst = "openings_per_day_first_weeks", openingsRecent = "openings_per_day_recent_weeks"
        case openingsChange = "openings_change"
        case firstWeeksFrom = "first_weeks_from", firstWeeksThrough = "first_weeks_through", weeks
        case inUse = "recent_weeks_in_use"
        case attemptsEnoughUse = "attempts_enough_use", openingsEnoughUse = "openings_enough_use"
        case leaksFirst = "leaks_first_weeks", leaksRecent = "leaks_recent_weeks"
        case rebound
    }

    enum ReboundKeys: String, CodingKey {
        case gapStart = "gap_start", gapDays = "gap_days", before = "attempts_per_day_before"
        case after = "attempts_per_day_after", daysBefore = "days_before", daysAfter = "days_after", flagged
    }

    /// Rates as fractions to 3 decimals, figures a day to 2, null when not available.
    public func encode(to encoder: Encoder) throws {
        try encode(to: encoder, program: nil)
    }

    package func encode(to encoder: Encoder, program: String?) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(program, forKey: .program)
        try container.encode(enoughData, forKey: .enoughData)
        try container.encode(firstDay?.description, forKey: .firstDay)
        try container.encode(days, forKey: .days)
        try container.encode(Self.spanDays, forKey: .spanDays)
        try container.encode(totals.attempts, forKey: .attempts)
        try container.encode(totals.pauses, forKey: .pauses)
        try container.encode(totals.exits, forKey: .consciousExits)
        try container.encode(totals.openings, forKey: .openings)
        try container.encode(dismissal.map { Self.rounded($0.rate, to: 3) }, forKey: .dismissalRate)
        try container.encode(attempts.map { Self.rounded($0.firstPerDay, to: 2) }, forKey: .attemptsFirst)
        try container.encode(attempts.map { Self.rounded($0.recentPerDay, to: 2) }, forKey: .attemptsRecent)
        try container.encode(attempts?.change.map { Self.rounded($0, to: 3) }, forKey: .attemptsChange)
        try container.encode(openings.map { Self.rounded($0.firstPerDay, to: 2) }, forKey: .openingsFirst)
        try container.encode(openings.map { Self.rounded($0.recentPerDay, to: 2) }, forKey: .openingsRecent)
        try container.encode(openings?.change.map { Self.rounded($0, to: 3) }, forKey: .openingsChange)
        try container.encode(firstWeeks?.lowerBound.description, forKey: .firstWeeksFrom)
        try container.encode(firstWeeks?.upperBound.description, forKey: .firstWeeksThrough)
        try container.encode(attempts?.weeks, forKey: .weeks)
        try container.encode(attempts?.inUse, forKey: .inUse)
        // Each change has its own bar: openings may be too few to compare while attempts are enough.
        try container.encode(attempts?.enoughUse, forKey: .attemptsEnoughUse)
        try container.encode(openings?.enoughUse, forKey: .openingsEnoughUse)
        try container.encode(attempts?.firstLeaks, forKey: .leaksFirst)
        try container.encode(attempts?.recentLeaks, forKey: .leaksRecent)
        if let rebound {
            var nested = container.nestedContainer(keyedBy: ReboundKeys.self, forKey: .rebound)
            try nested.encode(rebound.gapStart.description, forKey: .gapStart)
            try nested.encode(rebound.gapDays, forKey: .gapDays)
            try nested.encode(Self.rounded(rebound.perDayBefore, to: 2), forKey: .before)
            try nested.encode(Self.rounded(rebound.perDayAfter, to: 2), forKey: .after)
            try nested.encode(rebound.daysBefore, forKey: .daysBefore)
            try nested.encode(rebound.daysAfter, forKey: .daysAfter)
            try nested.encode(rebound.flagged, forKey: .flagged)
        } else {
            try container.encodeNil(forKey: .rebound)
        }
    }

    package static func rounded(_ value: Double, to decimals: Int) -> Double {
        let scale = pow(10, Double(decimals))
        return (value * scale).rounded() / scale
    }
}

extension ProgramEffect: Encodable {
    public func encode(to encoder: Encoder) throws {
        try effect.encode(to: encoder, program: program)
    }
}
