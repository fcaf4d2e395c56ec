/// Drawing in Braille dots: each character cell holds 2 × 4 dots, and since a
/// cell is about twice as tall as it is wide the dots are square, so a circle
/// of dots is a true circle on screen. The ring and the bloom draw here.
package enum BrailleCanvas {
    /// Dot (x, y) of a cell → its bit in the Braille pattern (U+2800 + bits).
    private static let bits: [[UInt32]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    /// For each cell of a grid `rows` tall and `columns` wide, one dot pattern
    /// per layer: `layer(x, y)` names the layer a dot belongs to, or nil for
    /// none, given the dot's centre from the grid's centre (in dots, y down).
    package static func patterns(rows: Int, columns: Int, layers: Int,
                         _ layer: (_ x: Double, _ y: Double) -> Int?) -> [[[UInt32]]] {
        let (centerX, centerY) = (Double(columns * 2) / 2, Double(rows * 4) / 2)
        return (0..<rows).map { row in
            (0..<columns).map { column in
                var patterns = [UInt32](repeating: 0, count: layers)
                for dx in 0..<2 {
                    for dy in 0..<4 {
                        let x = Double(column * 2 + dx) + 0.5 - centerX
                        let y = Double(row * 4 + dy) + 0.5 - centerY
                        if let index = layer(x, y) { patterns[index] |= bits[dx][dy] }
                    }
                }
                return patterns
            }
        }
    }

    /// The Braille character of a pattern.
    package static func character(_ pattern: UInt32) -> Character {
        Character(Unicode.Scalar(0x2800 + pattern)!)
    }
}
