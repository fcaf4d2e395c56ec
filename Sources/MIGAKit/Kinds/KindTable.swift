import MIGACore
import MIGATerminal
import MIGAConfig

/// How each kind of pause has gone for a person: how often it ended in a
/// conscious exit that held (what the learner counts), how sure MIGA can be
/// of that, every exit beside it, and which kind it favours.
public struct KindTable: Equatable, Sendable {
    /// One kind's figures. Encoded with the keys `kind`, `shown`, `exits`,
    /// `exit_rate`, `interval_low` and `interval_high` (every conscious
    /// exit), and `held_exits`, `held_rate`, `held_interval_low` and
    /// `held_interval_high` (the exits that held), rates as fractions rounded
    /// to three decimals and a missing figure as null.
    public struct Row: Equatable, Sendable, Encodable {
        public let kind: PauseKind
        public let shown: Int
        /// Every conscious exit: the person's own count.
        public let exits: Int
        /// `exits` ÷ `shown`; nil before any pause of the kind ended.
        public let rate: Double?
        /// The 90 % central credible interval of the exit rate.
        public let intervalLow: Double
        public let intervalHigh: Double
        /// The exits that held, the learner's successes; nil where they were not counted (`KindTable.init`).
        public let held: Int?
        /// `held` ÷ `shown`; nil before any pause, or where `held` is.
        public let heldRate: Double?
        /// The 90 % central credible interval of the held rate, every pause weighing one; nil where `held` is.
        public let heldIntervalLow: Double?
        public let heldIntervalHigh: Double?

        public init(kind: PauseKind, record: KindRecord, held: Int?) {
            let shown = max(0, record.shown)
            self.kind = kind
            self.shown = shown
            exits = min(max(0, record.exits), shown)
            rate = record.rate
            (intervalLow, intervalHigh) = record.posterior.credibleInterval(0.9)
            let held = held.map { min(max(0, $0), shown) }
            self.held = held
            // The learner's belief, every pause weighing one.
            let belief = held.map { KindEvidence(shown: Double(shown), successes: Double($0), pauses: shown) }
            heldRate = belief?.rate
            let interval = belief?.posterior.credibleInterval(0.9)
            (heldIntervalLow, heldIntervalHigh) = (interval?.low, interval?.high)
        }

        private enum CodingKeys: String, CodingKey {
            case kind, shown, exits
            case rate = "exit_rate"
            case intervalLow = "interval_low"
            case intervalHigh = "interval_high"
            case held = "held_exits"
            case heldRate = "held_rate"
            case heldIntervalLow = "held_interval_low"
            case heldIntervalHigh = "held_interval_high"
        }

        public func encode(to encoder: any Encoder) throws {
            func fraction(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(shown, forKey: .shown)
            try container.encode(exits, forKey: .exits)
            try container.encode(rate.map(fraction), forKey: .rate)
            try container.encode(fraction(intervalLow), forKey: .intervalLow)
            try container.encode(fraction(intervalHigh), forKey: .intervalHigh)
            try container.encode(held, forKey: .held)
            try container.encode(heldRate.map(fraction), forKey: .heldRate)
            try container.encode(heldIntervalLow.map(fraction), forKey: .heldIntervalLow)
            try container.encode(heldIntervalHigh.map(fraction), forKey: .heldIntervalHigh)
        }
    }

    /// The kind MIGA favours for one program, where it chooses.
    public struct Favourite: Equatable, Sendable {
        public let program: String
        /// How the program is called on screen ("Discord").
        public let name: String
        public let kind: PauseKind

        public init(program: String, name: String, kind: PauseKind) {
            self.program = program
            self.name = name
            self.kind = kind
        }
    }

    /// Every kind in use and every other kind with a record, in `PauseKind` order.
    public let rows: [Row]
    /// What MIGA favours, per program where it chooses, in the order given.
    public let favourites: [Favourite]
    /// The one program the table is about (`--program`), if any.
    public let program: String?
    /// A line for each kind chosen but left out of a program's draw, with why (`KindSupply.leftOutLine`).
    public let leftOut: [String]

    /// `kinds`: the kinds in use, each shown as a row even before its first pause.
    /// `held`: each kind's exits that held, or nil where they were not counted
    /// (a table of breathing pauses alone, which compares nothing).
    public init(records: [PauseKind: KindRecord], held: [PauseKind: Int]?, kinds: [PauseKind], favourites: [Favourite] = [],
                program: String? = nil, leftOut: [String] = []) {
        self.leftOut = leftOut
        let recorded = records.filter { $0.value.shown > 0 }.keys
        rows = Set(kinds).union(recorded).sorted().map { kind in
            Row(kind: kind, record: records[kind] ?? KindRecord(), held: held.map { $0[kind] ?? 0 })
        }
        self.favourites = favourites
        self.program = program
    }

    /// Whether the table has anything to say: more than one kind to compare, or a kind left out.
    public var comparesKinds: Bool { rows.count > 1 || !leftOut.isEmpty }

    /// The kind favoured for the table's one program: starred in its row.
    public var favoured: PauseKind? {
        program.flatMap { program in favourites.first { $0.program == program }?.kind }
    }

    /// What MIGA favours for one program, where it chooses by what works
    /// (`rotate = "adaptive"`, two kinds or more): the kind `KindFavourite`
    /// names after the program's pauses since it began learning there; nil
    /// where MIGA does not choose so, or no kind stands out.
    public static func favourite(after pauses: [LearnedPause], among inUse: KindsInUse) -> PauseKind? {
        inUse.learns ? KindFavourite.named(after: pauses, among: inUse.kinds) : nil
    }

    /// The table as plain lines of at most `width` cells, and a line that
    /// says which count is which. Narrower widths drop every exit first,
    /// then the interval, then the held and shown counts.
    public func text(width: Int) -> [String] {
        let width = max(1, width)
        func percent(_ value: Double) -> String { "\(wholeNumber(value * 100))" }
        let names = rows.map { "  " + $0.kind.rawValue + ($0.kind == favoured ? " ★" : "") }
        let columns: [(header: String, cells: [String])] = [
            ("shown", rows.map { "\($0.shown)" }),
            ("held", rows.map { row in row.held.map { "\($0)" } ?? "–" }),
            ("held rate", rows.map { row in row.heldRate.map { percent($0) + " %" } ?? "–" }),
            ("90 % interval", rows.map { row in
                guard row.shown > 0, let low = row.heldIntervalLow, let high = row.heldIntervalHigh else { return "–" }
                return percent(low) + "–" + percent(high) + " %"
            }),
            ("exits", rows.map { "\($0.exits)" }),
        ]
        // The columns shown, and the least width of the first, widest to narrowest.
        let layouts: [(columns: [Int], nameWidth: Int)] = [([0, 1, 2, 3, 4], 17), ([0, 1, 2, 3], 17), ([0, 1, 2], 17),
                                                           ([0, 2], 17), ([2], 17), ([2], 14)]
        func render(_ layout: (columns: [Int], nameWidth: Int)) -> [String] {
            let nameWidth = max(layout.nameWidth, names.map { CellWidth.of($0) }.max() ?? 0)
            func pad(_ text: String, _ size: Int) -> String {
                String(repeating: " ", count: max(0, size - CellWidth.of(text))) + text
            }
            let header = "Kinds of pause" + String(repeating: " ", count: nameWidth - 14)
            var lines = [header] + names.map { $0 + String(repeating: " ", count: nameWidth - CellWidth.of($0)) }
            for index in layout.columns {
                let column = columns[index]
                let size = max(CellWidth.of(column.header), column.cells.map { CellWidth.of($0) }.max() ?? 0)
                lines[0] += "   " + pad(column.header, size)
                for (row, cell) in column.cells.enumerated() { lines[row + 1] += "   " + pad(cell, size) }
            }
            return lines
        }
        let layout = layouts.first { render($0).allSatisfy { CellWidth.of($0) <= width } } ?? layouts.last!
        let table = render(layout).map { TextWrap.truncate($0, width: width) }
        // Which count is which: the learner's beside the person's own.
        let legend = TextWrap.lines("held = exits that held, what MIGA learns from" + (layout.columns.contains(4) ? "; exits = all of them" : ""),
                                    width: width)
        // One line per program MIGA chooses for; the row is starred only when the table is that program's.
        let said = favourites.filter { program == nil || $0.program == program }.flatMap { favourite in
            TextWrap.lines((favoured == nil ? "" : "★ ") + "MIGA now favours \(favourite.kind.described) for \(printable(favourite.name))",
                           width: width)
        }
        return table + legend + said + leftOut.flatMap { TextWrap.lines($0, width: width) }
    }
}
