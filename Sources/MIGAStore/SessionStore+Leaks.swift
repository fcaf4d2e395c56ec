import FoundationEssentials
import MIGACore

extension SessionStore {
    /// Records the leaks not seen before; returns how many were new. Runs
    /// record them through `Upkeep`, the one place that does.
    @discardableResult
    package func recordLeaks(_ leaks: [Leak], at now: Date) throws -> Int {
        guard !leaks.isEmpty else { return 0 }
        return try immediate { db in
            var added = 0
            for leak in leaks {
                let (how, detail) = leak.route.stored
                try db.execute(sql: "INSERT OR IGNORE INTO leaks (process, program, seen_at, route, how) VALUES (?, ?, ?, ?, ?)",
                               arguments: [leak.process.description, leak.program, now.milliseconds, detail, how])
                added += db.changesCount
            }
            return added
        }
    }

    /// The leaks first seen since `start`, oldest first.
    public func leaks(since start: Date, program: String? = nil) throws -> [RecordedLeak] {
        try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT program, seen_at, route, how FROM leaks WHERE seen_at >= ? AND (? IS NULL OR program = ?) ORDER BY seen_at
                """, arguments: [start.milliseconds, program, program]).map { row in
                RecordedLeak(program: row["program"], seenAt: Date(milliseconds: row["seen_at"]),
                             route: LeakRoute(how: row["how"], detail: row["route"]))
            }
        }
    }

    /// Which of `leaks` are recorded already, by their processes' names.
    package func recorded(_ leaks: [Leak]) throws -> Set<String> {
        guard !leaks.isEmpty else { return [] }
        let names = leaks.map(\.process.description)
        return try queue.read { db in
            let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
            return Set(try String.fetchAll(db, sql: "SELECT process FROM leaks WHERE process IN (\(marks))", arguments: StatementArguments(names)))
        }
    }

    /// Whether the gateway started `program` around `instant`: a launch
    /// without a pause then, or a Proceed. A program's process starts at the
    /// gateway's own start when the gateway execs it, at the Proceed when it
    /// starts it detached, and a little later behind a wrapper.
    public func launchedThroughGate(_ program: String, around instant: Date) throws -> Bool {
        let (from, to) = (instant.addingTimeInterval(-Self.launchSlack.after).milliseconds,
                          instant.addingTimeInterval(Self.launchSlack.before).milliseconds)
        return try queue.read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM sessions WHERE program = ? AND started_at BETWEEN ? AND ? AND outcome IN ('passthrough', 'proceed'))
                    OR EXISTS (SELECT 1 FROM sessions WHERE program = ? AND outcome = 'proceed' AND ended_at BETWEEN ? AND ?)
                """, arguments: [program, from, to, program, from, to]) ?? false
        }
    }

    /// How far a process's start may follow a launch through the gate (a
    /// wrapper starting the real program), and precede it (the start is read
    /// to a second, the launch's record to a millisecond).
    static let launchSlack = (after: 10.0, before: 2.0)
}

/// A launch that went around the pause, as the history keeps it.
public struct RecordedLeak: Equatable, Sendable {
    public let program: String
    public let seenAt: Date
    public let route: LeakRoute

    package init(program: String, seenAt: Date, route: LeakRoute) {
        self.program = program
        self.seenAt = seenAt
        self.route = route
    }
}
