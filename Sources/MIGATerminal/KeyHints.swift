/// The line of keys at the foot of the hub and of setup, made to fit: the
/// hints shorten first (the least needed first, a step at a time), and only
/// when every hint is at its shortest do the least needed go. Nothing is cut
/// mid-word unless a single hint is wider than the window.
package struct KeyHints {
    /// Each hint's forms, longest first, in the order they are shown.
    let hints: [[String]]
    /// Indices into `hints`, the first to shorten first.
    let shortening: [Int]
    /// Indices into `hints`, the first to go first.
    let dropping: [Int]

    /// `hints` shortened and dropped in order unless told otherwise.
    package init(_ hints: [[String]], shortening: [Int]? = nil, dropping: [Int]? = nil) {
        self.hints = hints
        self.shortening = shortening ?? Array(hints.indices)
        self.dropping = dropping ?? Array(hints.indices)
    }

    static let separator = " · "

    package func text(width: Int) -> String {
        var form = Array(repeating: 0, count: hints.count)
        var shown = Array(hints.indices)
        func line() -> String { shown.map { hints[$0][form[$0]] }.joined(separator: Self.separator) }
        func fits() -> Bool { CellWidth.of(line()) <= width }
        if fits() { return line() }
        var shortened = true
        while shortened {
            shortened = false
            for index in shortening where form[index] < hints[index].count - 1 {
                form[index] += 1
                shortened = true
                if fits() { return line() }
            }
        }
        for index in dropping where shown.count > 1 {
            shown.removeAll { $0 == index }
            if fits() { return line() }
        }
        return TextWrap.truncate(line(), width: width)
    }
}
