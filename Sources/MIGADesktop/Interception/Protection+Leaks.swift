import FoundationEssentials
import MIGACore
import MIGAStore
import MIGAConfig

extension Protection {
    /// Looks once for launches of protected programs that went around the
    /// pause, recorded in `store` or not. Recording them is `Upkeep`'s.
    ///
    /// Only a program protected now is looked for (kept rules route nothing),
    /// and only a launch that had a route of MIGA's to go around: not one
    /// that started before the program's routes were written (open since
    /// before `protect`), not one through a menu override of MIGA's (its
    /// gateway started it, even where the program dropped the mark), and not
    /// one that started around a launch the store has through the gate (a
    /// wrapper may drop the gateway's mark).
    ///   - watch: where to look (a test gives a /proc of its making).
    public func leaks(around store: SessionStore, config: Config? = nil, watch: LeakWatch = LeakWatch()) -> [Leak] {
        let protected = protectedOnly(config ?? self.config)
        let overrides = Set(Manifest(path: manifestPath).menuOverrides().map { "\($0.program)\n\($0.path)" })
        var since: [String: Date?] = [:]
        return watch.look(for: watchedPrograms(config: protected)).filter { leak in
            if let entry = leak.menuEntry, overrides.contains("\(leak.program)\n\(entry)") { return false }
            guard let started = leak.startedAt else { return true }
            if since[leak.program] == nil { since[leak.program] = protectedSince(leak.program) }
            // A start is read to a clock tick, and rounded down.
            if let protectedAt = since[leak.program] ?? nil, started < protectedAt.addingTimeInterval(-Self.startPrecision) { return false }
            return !((try? store.launchedThroughGate(leak.program, around: started)) ?? false)
        }
    }

    /// The launches around the pause running now that no run has recorded
    /// yet, as the history would keep them if recorded `now`: what a run that
    /// only looks counts beside the recorded ones, without writing them.
    public func unrecordedLeaks(around store: SessionStore, config: Config? = nil, now: Date = Date(),
                                watch: LeakWatch = LeakWatch()) -> [RecordedLeak] {
        let seen = leaks(around: store, config: config, watch: watch)
        let recorded = (try? store.recorded(seen)) ?? []
        return seen.filter { !recorded.contains($0.process.description) }.map { RecordedLeak(program: $0.program, seenAt: now, route: $0.route) }
    }

    static let startPrecision = 2 / Double(LeakWatch.ticksPerSecond)
}
