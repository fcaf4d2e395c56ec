import FoundationEssentials
import MIGAStore

/// Streak lengths worth a celebration of their own, each celebrated once ever.
public enum Milestones {
    public static let days = [1, 7, 21, 30, 100]
    /// Where the store remembers which were celebrated.
    static let metaKey = "milestones_celebrated"

    /// The milestone `streak` reaches now, unless it was celebrated before.
    public static func reached(by streak: Int, celebrated: Set<Int>) -> Int? {
        days.contains(streak) && !celebrated.contains(streak) ? streak : nil
    }

    /// The milestone reached by `streak`, remembered in `store` so it is never celebrated twice.
    public static func claim(_ streak: Int, in store: SessionStore) throws -> Int? {
        let celebrated = Set(((try store.meta(metaKey)) ?? "").split(separator: " ").compactMap { Int($0) })
        guard let milestone = reached(by: streak, celebrated: celebrated) else { return nil }
        try store.setMeta(metaKey, (celebrated.union([milestone])).sorted().map(String.init).joined(separator: " "))
        return milestone
    }
}
