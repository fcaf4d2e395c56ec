import Foundation
import MIGACore
import MIGAStore
import MIGADesktop

extension StatsReport {
    /// `miga stats --json`: the same numbers in a stable schema (version 1,
    /// documented in docs/STATS.md). Keys are sorted; absent values are null.
    /// `coverage`: the routes of each protected program, and how many reach the pause.
    public func json(now: Date, timeZone: TimeZone, coverage: [Coverage] = []) -> String {
        func totals(_ totals: Totals) -> [String: Any] {
            ["sessions": totals.sessions, "conscious_exits": totals.exits, "proceeds": totals.proceeds,
             "abandoned": totals.abandoned, "pass_throughs": totals.passThroughs,
             "paused_seconds": number(totals.pausedSeconds), "hours_reclaimed": number(totals.hoursReclaimed),
             "intentionality_score": totals.intentionalityScore ?? NSNull()]
        }
        var document = totals(self.totals)
        document["schema"] = 1
        document["generated_at"] = Exchange.iso(now)
        document["time_zone"] = timeZone.identifier
        document["today"] = today.description
        document["filter"] = ["days": filter.days ?? NSNull(), "program": filter.program ?? NSNull(),
                              "device": filter.device ?? NSNull()] as [String: Any]
        document["streak"] = ["current": streak.current, "best": streak.best]
        document["week"] = ["days": weekDays, "this": totals(thisWeek), "last": totals(lastWeek)]
        document["days"] = days.map { ["date": $0.day.description, "conscious_exits": $0.exits, "proceeds": $0.proceeds] }
        document["programs"] = programs.map { program -> [String: Any] in
            var entry = totals(program.totals)
            entry["program"] = program.program
            return entry
        }
        document["leaks"] = ["this_week": leaks.count,
                             "routes": leakRoutes.map { ["route": $0.route, "count": $0.count] as [String: Any] }] as [String: Any]
        document["coverage"] = coverage.map { program -> [String: Any] in
            ["program": program.program, "reaching": program.reaching, "total": program.routes.count,
             "routes": program.routes.map { ["kind": $0.kind.rawValue, "place": $0.place, "reaches": $0.reaches,
                                             "problem": $0.problem ?? NSNull()] as [String: Any] }]
        }
        document["effect"] = effectShown.flatMap { report in
            (try? JSONEncoder().encode(report)).flatMap { try? JSONSerialization.jsonObject(with: $0) }
        } ?? NSNull()
        document["kinds"] = kinds.map { table -> [String: Any] in
            let rows = (try? JSONEncoder().encode(table.rows)).flatMap { try? JSONSerialization.jsonObject(with: $0) }
            return ["rows": rows ?? [], "favoured": table.favoured?.rawValue ?? NSNull(),
                    "favourites": table.favourites.map { ["program": $0.program, "kind": $0.kind.rawValue] }]
        } ?? NSNull()
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return escapingControls(inJSON: String(decoding: data, as: UTF8.self)) + "\n"
    }

    /// A figure to three decimals; one no JSON number can hold (a history
    /// holding impossible rows adds up to infinity) is null.
    private func number(_ value: Double) -> Any {
        guard value.isFinite else { return NSNull() }
        guard abs(value) < 1e15 else { return value }
        return (value * 1000).rounded() / 1000
    }
}
