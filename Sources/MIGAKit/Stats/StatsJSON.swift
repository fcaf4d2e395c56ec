import FoundationEssentials
import MIGACore
import MIGAStore
import MIGADesktop

extension StatsReport {
    /// `miga stats --json`: the same numbers in a stable schema (version 1,
    /// documented in docs/STATS.md). Keys are sorted; absent values are null.
    /// `coverage`: the routes of each protected program, and how many reach the pause.
    public func json(now: Date, timeZone: LocalZone, coverage: [Coverage] = []) -> String {
        func totals(_ totals: Totals) -> [String: JSONValue] {
            ["sessions": .int(totals.sessions), "conscious_exits": .int(totals.exits), "proceeds": .int(totals.proceeds),
             "abandoned": .int(totals.abandoned), "pass_throughs": .int(totals.passThroughs),
             "paused_seconds": number(totals.pausedSeconds), "hours_reclaimed": number(totals.hoursReclaimed),
             "intentionality_score": totals.intentionalityScore.json]
        }
        var document = totals(self.totals)
        document["schema"] = 1
        document["generated_at"] = .string(Exchange.iso(now))
        document["time_zone"] = .string(timeZone.identifier)
        document["today"] = .string(today.description)
        document["filter"] = ["days": filter.days.json, "program": filter.program.json, "device": filter.device.json]
        document["streak"] = ["current": .int(streak.current), "best": .int(streak.best)]
        document["week"] = ["days": .int(weekDays), "this": .object(totals(thisWeek)), "last": .object(totals(lastWeek))]
        document["days"] = .array(days.map { ["date": .string($0.day.description), "conscious_exits": .int($0.exits), "proceeds": .int($0.proceeds)] })
        document["programs"] = .array(programs.map { program -> JSONValue in
            var entry = totals(program.totals)
            entry["program"] = .string(program.program)
            return .object(entry)
        })
        document["leaks"] = ["this_week": .int(leaks.count),
                             "routes": .array(leakRoutes.map { ["route": .string($0.route), "count": .int($0.count)] })]
        document["coverage"] = .array(coverage.map { program -> JSONValue in
            ["program": .string(program.program), "reaching": .int(program.reaching), "total": .int(program.routes.count),
             "routes": .array(program.routes.map { ["kind": .string($0.kind.rawValue), "place": .string($0.place), "reaches": .bool($0.reaches),
                                                    "problem": $0.problem.json] })]
        })
        document["effect"] = effectShown.map { JSONValue(encoding: $0) } ?? .null
        document["kinds"] = kinds.map { table -> JSONValue in
            ["rows": JSONValue(encoding: table.rows), "favoured": (table.favoured?.rawValue).json,
             "favourites": .array(table.favourites.map { ["program": .string($0.program), "kind": .string($0.kind.rawValue)] })]
        } ?? .null
        return JSONValue.object(document).prettyText + "\n"
    }

    /// A figure to three decimals; one no JSON number can hold (a history
    /// holding impossible rows adds up to infinity) is null.
    private func number(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        guard abs(value) < 1e15 else { return .double(value) }
        return .double((value * 1000).rounded() / 1000)
    }
}
