/// How each kind of pause has gone for a person: how often it ended in a
/// conscious exit, how sure MIGA can be of that, and which kind it favours.
public struct KindTable: Equatable, Sendable {
    /// One kind's figures. Encoded with the keys `kind`, `shown`, `exits`,
    /// `exit_rate`, `interval_low` and `interval_high`, rates as fractions
    /// rounded to three decimals and a missing rate as null.
    public struct Row: Equatable, Sendable, Encodable {
        public let kind: PauseKind
        public let shown: Int
        public let exits: Int
        /// Nil before any pause of the kind ended.
        public let rate: Double?
        /// The 90 % central credible interval of the posterior.
        public let intervalLow: Double
        public let intervalHigh: Double

        public init(kind: PauseKind, record: KindRecord) {
            self.kind = kind
            shown = max(0, record.shown)
            exits = min(max(0, record.exits), shown)
            rate = record.rate
            (intervalLow, intervalHigh) = record.posterior.credibleInterval(0.9)
        }

        private enum CodingKeys: String, CodingKey {
            case kind, shown, exits
            case rate = "exit_rate"
            case intervalLow = "interval_low"
            case intervalHigh = "interval_high"
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
        }
    }

    /// Every kind in use and every other kind with a record, in `PauseKind` order.
    public let rows: [Row]
    /// The kind in use with the highest posterior mean (the earlier in `kinds`
    /// on a tie); nil while no kind in use has been shown, and when MIGA
    /// does not choose among them (`rotate` is `cycle` or `off`).
    public let favoured: PauseKind?

    /// `kinds`: the kinds a person chose, in their order; `learns`: whether
    /// MIGA chooses among them by what works (`rotate = "adaptive"`).
    public init(records: [PauseKind: KindRecord], kinds: [PauseKind], learns: Bool = true) {
        let recorded = records.filter { $0.value.shown > 0 }.keys
        rows = Set(kinds).union(recorded).sorted().map { Row(kind: $0, record: records[$0] ?? KindRecord()) }
        if learns, kinds.contains(where: { (records[$0]?.shown ?? 0) > 0 }) {
            var best: (kind: PauseKind, mean: Double)?
            for kind in kinds {
                let mean = (records[kind] ?? KindRecord()).posterior.mean
                if best.map({ mean > $0.mean }) ?? true { best = (kind, mean) }
            }
            favoured = best?.kind
        } else {
            favoured = nil
        }
    }

    /// The table as plain lines of at most `width` cells. Narrower widths drop
    /// the interval first, then the exits, then the shown counts.
    public func text(width: Int) -> [String] {
        let width = max(1, width)
        func percent(_ value: Double) -> String { "\(wholeNumber(value * 100))" }
        let names = rows.map { "  " + $0.kind.rawValue + ($0.kind == favoured ? " ★" : "") }
        let columns: [(header: String, cells: [String])] = [
            ("shown", rows.map { "\($0.shown)" }),
            ("exits", rows.map { "\($0.exits)" }),
            ("exit rate", rows.map { row in row.rate.map { percent($0) + " %" } ?? "–" }),
            ("90 % interval", rows.map { row in
                row.shown == 0 ? "–" : percent(row.intervalLow) + "–" + percent(row.intervalHigh) + " %"
            }),
        ]
        // The columns shown, and the least width of the first, widest to narrowest.
        let layouts: [(columns: [Int], nameWidth: Int)] = [([0, 1, 2, 3], 17), ([0, 1, 2], 17), ([0, 2], 17),
                                                           ([2], 17), ([2], 14)]
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
        let table = layouts.lazy.map(render).first { $0.allSatisfy { CellWidth.of($0) <= width } }
            ?? render(layouts.last!).map { TextWrap.truncate($0, width: width) }
        guard let favoured else { return table }
        return table + TextWrap.lines("★ MIGA now favours \(favoured.rawValue) for you", width: width)
    }
}
