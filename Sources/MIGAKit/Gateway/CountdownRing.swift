import FoundationEssentials
import Glibc
import MIGATerminal

/// The circular countdown, drawn in Braille dots (see `BrailleCanvas`).
public enum CountdownRing {
    public enum Kind: Equatable, Sendable {
        case empty
        /// The part of the countdown still to run.
        case arc
        /// Where the ring used to be: a faint track; without colours to tell
        /// it apart, a thin line, so an emptied ring is never a hole.
        case track
    }

    public struct Cell: Equatable, Sendable {
        public let character: Character
        public let kind: Kind
    }

    /// A ring `rows` cells tall and `2 × rows` cells wide (`showTrack`: colours can tell the track from the arc). `remaining` (0…1) is
    /// the arc still drawn, which empties clockwise from twelve o'clock like a
    /// clock hand sweeping; `thickness` is in dots.
    public static func cells(rows: Int, remaining: Double, thickness: Double, showTrack: Bool) -> [[Cell]] {
        let center = Double(rows * 4) / 2
        let radius = center - thickness / 2 - 0.5
        let elapsed = 1 - max(0, min(1, remaining))
        // Layer 0 the arc still to run, layer 1 the track where it was.
        let patterns = BrailleCanvas.patterns(rows: rows, columns: rows * 2, layers: 2) { x, y in
            let distance = abs((x * x + y * y).squareRoot() - radius)
            guard distance <= thickness / 2 else { return nil }
            var angle = atan2(x, -y) / (2 * .pi)
            if angle < 0 { angle += 1 }
            if angle >= elapsed { return 0 }
            return showTrack || distance <= 0.5 ? 1 : nil
        }
        return patterns.map { row in
            row.map { cell in
                // Where the arc meets the track, the cell keeps the track's dots
                // too, in the arc's colour: the ring is never notched there.
                if cell[0] != 0 { return Cell(character: BrailleCanvas.character(cell[0] | cell[1]), kind: .arc) }
                if cell[1] != 0 { return Cell(character: BrailleCanvas.character(cell[1]), kind: .track) }
                return Cell(character: " ", kind: .empty)
            }
        }
    }
}
