import Foundation

/// The circular countdown, drawn in Braille dots: each cell holds 2×4 dots,
/// and since a cell is about twice as tall as it is wide the dots are square,
/// so a ring of dots is a true circle on screen.
public enum CountdownRing {
    public enum Kind: Equatable, Sendable {
        case empty
        /// The part of the countdown still to run.
        case arc
        /// Where the ring used to be: a faint track, drawn only where colours can tell it apart.
        case track
    }

    public struct Cell: Equatable, Sendable {
        public let character: Character
        public let kind: Kind
    }

    /// A ring `rows` cells tall and `2 × rows` cells wide. `remaining` (0…1) is
    /// the arc still drawn, which empties clockwise from twelve o'clock like a
    /// clock hand sweeping; `thickness` is in dots.
    public static func cells(rows: Int, remaining: Double, thickness: Double, showTrack: Bool) -> [[Cell]] {
        let columns = rows * 2
        let size = Double(rows * 4)
        let center = size / 2
        let radius = center - thickness / 2 - 0.5
        let elapsed = 1 - max(0, min(1, remaining))
        // Dot (x, y) of a cell → its bit in the Braille pattern (U+2800 + bits).
        let bits: [[UInt32]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

        var grid: [[Cell]] = []
        for row in 0..<rows {
            var line: [Cell] = []
            for column in 0..<columns {
                var arc: UInt32 = 0
                var track: UInt32 = 0
                for dx in 0..<2 {
                    for dy in 0..<4 {
                        let x = Double(column * 2 + dx) + 0.5 - center
                        let y = Double(row * 4 + dy) + 0.5 - center
                        guard abs((x * x + y * y).squareRoot() - radius) <= thickness / 2 else { continue }
                        var angle = atan2(x, -y) / (2 * .pi)
                        if angle < 0 { angle += 1 }
                        if angle >= elapsed { arc |= bits[dx][dy] } else { track |= bits[dx][dy] }
                    }
                }
                if arc != 0 {
                    line.append(Cell(character: braille(arc), kind: .arc))
                } else if track != 0 && showTrack {
                    line.append(Cell(character: braille(track), kind: .track))
                } else {
                    line.append(Cell(character: " ", kind: .empty))
                }
            }
            grid.append(line)
        }
        return grid
    }

    static func braille(_ bits: UInt32) -> Character {
        Character(Unicode.Scalar(0x2800 + bits)!)
    }
}
