import ArgumentParser
import FoundationEssentials
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAConfig

extension Miga {
    /// `miga stats`: the numbers people come back for.
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Conscious exits, hours reclaimed, intentionality and your streak.",
            discussion: """
                Three cards (conscious exits, hours reclaimed: the time spent in every pause, \
                those that ended in Proceed too, the intentionality score: exits as a share of pauses), your streak of days with a conscious exit, a 30-day chart of \
                exits and proceeds, and a line per program. Days are calendar days where you are \
                (TZ is honoured). --json prints the same numbers in a stable schema (see docs/STATS.md).

                Example:
                  miga stats
                  miga stats --days 7 --program firefox
                  miga stats --program \(Protected.siteSpelling("youtube.com"))
                  miga stats --year
                  miga stats --program discord --reset-learning
                """)

        @Option(help: ArgumentHelp("Only the last N days.", valueName: "n"))
        var days: Int?

        @Option(help: "Only this program (a site: \(Protected.siteSpelling("NAME"))).")
        var program: String?

        @Option(help: ArgumentHelp("Only this device of those you sync: its id, the start of it as history shows it, or \"this\".",
                                   valueName: "id"))
        var device: String?

        @Flag(help: "Print the numbers as JSON.")
        var json = false

        @Flag(help: "Show a year of conscious exits as a heatmap.")
        var year = false

        @Flag(help: "Make MIGA's choice of the kind of pause for --program start afresh (asks first in a terminal).")
        var resetLearning = false

        @Flag(help: "With --reset-learning: do it without asking (needed without a terminal).")
        var yes = false

        func validate() throws {
            if let days, !(1...3660).contains(days) { throw ValidationError("--days must be a whole number from 1 to 3660") }
            if json && year { throw ValidationError("--json and --year go one at a time") }
            if resetLearning && program == nil { throw ValidationError("--reset-learning needs --program NAME") }
            if yes && !resetLearning { throw ValidationError("--yes goes with --reset-learning") }
        }

        func run() throws {
            let environment = processEnvironment()
            // A site as the history keeps it, however its address was typed.
            let program = self.program.map(Protected.historyName(of:))
            if resetLearning, let program { return try resetLearning(of: program, environment: environment) }
            // Only a look: nothing written, nobody notified (see `Upkeep`).
            let store = try Miga.readStore(environment)
            let now = Date()
            let config = ConfigLoader.load(from: Miga.paths.configFile).config
            let zone = LocalZone.system
            var filter = StatsFilter(days: days, program: program)
            if let device { filter.device = try store.device(named: device) }
            let palette = outputPalette(environment: environment)
            let width = outputColumns(environment: environment)
            if year {
                let report = try StatsReport.compute(from: store, filter: StatsFilter(days: 371, program: filter.program, device: filter.device),
                                                     now: now, timeZone: zone)
                let exits = Dictionary(uniqueKeysWithValues: report.days.map { ($0.day, $0.exits) })
                Swift.print(palette.render([.blank] + StatsScreen.year(exits, today: report.today, width: width) + [.blank]), terminator: "")
                return
            }
            // Launches around the pause running now that no run has recorded yet: counted, not written.
            let supply = KindSupply(paths: Miga.paths, config: config)
            let leaksNow = (try? Miga.protection())?.unrecordedLeaks(around: store, config: config, now: now) ?? []
            let report = try StatsReport.compute(from: store, filter: filter, now: now, timeZone: zone, config: config,
                                                 unrecordedLeaks: leaksNow,
                                                 hasLinesToType: { supply.hasLineToType() }, hasAlternatives: supply.hasAlternatives)
            if json {
                let coverage = (try? Miga.protection().coverage()) ?? []
                Swift.print(report.json(now: now, timeZone: zone, coverage: coverage), terminator: "")
            } else {
                Swift.print(palette.render(StatsScreen.lines(report, width: width)), terminator: "")
            }
        }
    }
}
