import FoundationEssentials
import Glibc

// MARK: JSON

extension Effect: Encodable {
    package enum CodingKeys: String, CodingKey {
        case program, enoughData = "enough_data", firstDay = "first_day", days, weekDays = "week_days"
        case attempts, pauses, consciousExits = "conscious_exits", openings
        case dismissalRate = "dismissal_rate"
        case attemptsFirst = "attempts_per_day_first_week", attemptsRecent = "attempts_per_day_recent_week"
        case attemptsChange = "attempts_change"
        case openingsFirst = "openings_per_day_first_week", openingsRecent = "openings_per_day_recent_week"
        case openingsChange = "openings_change"
        case firstWeekFrom = "first_week_from", firstWeekThrough = "first_week_through", weeks
        case inUse = "recent_week_in_use"
        case leaksFirst = "leaks_first_week", leaksRecent = "leaks_recent_week"
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
        try container.encode(Self.weekDays, forKey: .weekDays)
        try container.encode(totals.attempts, forKey: .attempts)
        try container.encode(totals.pauses, forKey: .pauses)
        try container.encode(totals.exits, forKey: .consciousExits)
        try container.encode(totals.openings, forKey: .openings)
        try container.encode(dismissal.map { Self.rounded($0.rate, to: 3) }, forKey: .dismissalRate)
        try container.encode(attempts.map { Self.rounded($0.firstWeekPerDay, to: 2) }, forKey: .attemptsFirst)
        try container.encode(attempts.map { Self.rounded($0.recentWeekPerDay, to: 2) }, forKey: .attemptsRecent)
        try container.encode(attempts?.change.map { Self.rounded($0, to: 3) }, forKey: .attemptsChange)
        try container.encode(openings.map { Self.rounded($0.firstWeekPerDay, to: 2) }, forKey: .openingsFirst)
        try container.encode(openings.map { Self.rounded($0.recentWeekPerDay, to: 2) }, forKey: .openingsRecent)
        try container.encode(openings?.change.map { Self.rounded($0, to: 3) }, forKey: .openingsChange)
        try container.encode(firstWeek?.lowerBound.description, forKey: .firstWeekFrom)
        try container.encode(firstWeek?.upperBound.description, forKey: .firstWeekThrough)
        try container.encode(attempts?.weeks, forKey: .weeks)
        try container.encode(attempts?.inUse, forKey: .inUse)
        try container.encode(attempts?.firstWeekLeaks, forKey: .leaksFirst)
        try container.encode(attempts?.recentWeekLeaks, forKey: .leaksRecent)
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
