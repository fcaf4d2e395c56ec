import Foundation
import GRDB

extension SessionStore {
    /// Records the leaks not seen before; returns how many were new.
    @discardableResult
    public func recordLeaks(_ leaks: [Leak], at now: Date) throws -> Int {
        guard !leaks.isEmpty else { return 0 }
        return try immediate { db in
            var added = 0
            for leak in leaks {
                try db.execute(sql: "INSERT OR IGNORE INTO leaks (process, program, seen_at, route) VALUES (?, ?, ?, ?)",
                               arguments: [leak.process.description, leak.program, now.milliseconds, leak.route])
                added += db.changesCount
            }
            return added
        }
    }

    /// The leaks first seen since `start`, oldest first.
    public func leaks(since start: Date, program: String? = nil) throws -> [RecordedLeak] {
        try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT program, seen_at, route FROM leaks WHERE seen_at >= ? AND (? IS NULL OR program = ?) ORDER BY seen_at
                """, arguments: [start.milliseconds, program, program]).map { row in
                RecordedLeak(program: row["program"], seenAt: Date(milliseconds: row["seen_at"]), route: row["route"])
            }
        }
    }
}

/// A launch that went around the pause, as the history keeps it.
public struct RecordedLeak: Equatable, Sendable {
    public let program: String
    public let seenAt: Date
    public let route: String?

    /// How the route is named on screen: the launcher's command, shortened.
    public var routeName: String {
        guard let route, !route.isEmpty else { return "a launcher that has exited" }
        let words = route.split(separator: " ").prefix(2).map { word in word.split(separator: "/").last.map(String.init) ?? String(word) }
        return String(words.joined(separator: " ").prefix(40))
    }
}
