extension StringProtocol {
    /// The text without spaces, tabs and carriage returns at either end.
    func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }),
              let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}

extension String {
    /// The text without any of `characters` at either end.
    func trimming(_ characters: String) -> String {
        var result = Substring(self)
        while let first = result.first, characters.contains(first) { result.removeFirst() }
        while let last = result.last, characters.contains(last) { result.removeLast() }
        return String(result)
    }
}
