import FoundationEssentials

/// Consecutive days with at least one conscious exit.
public struct Streak: Equatable, Sendable {
    /// The run of counted days ending today, or ending yesterday while today
    /// has no exit yet (the day is not over).
    public let current: Int
    /// The longest run ever.
    public let best: Int

    public init(current: Int, best: Int) {
        self.current = current
        self.best = best
    }

    /// The streak on `today`, given the days that had a conscious exit.
    public init(exitDays: some Sequence<LocalDay>, today: LocalDay) {
        let days = Set(exitDays.filter { $0 <= today })
        var best = 0
        for day in days where !days.contains(day.previous) {
            var length = 1
            var cursor = day.next
            while days.contains(cursor) {
                length += 1
                cursor = cursor.next
            }
            best = max(best, length)
        }
        var current = 0
        var cursor = days.contains(today) ? today : today.previous
        while days.contains(cursor) {
            current += 1
            cursor = cursor.previous
        }
        self.init(current: current, best: best)
    }

}
