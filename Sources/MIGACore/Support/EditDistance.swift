/// Levenshtein distance, for "did you mean" hints.
package func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(1, a.count) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(1, b.count) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
}

/// The word of `candidates` a mistyped `word` most likely meant: the nearest
/// within two edits (a dropped letter, two swapped ones), the first of the
/// nearest on a tie; nil when every candidate is further, since a guess
/// that far off misleads more than it helps.
package func likelyMeant(_ word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { (candidate: $0, distance: editDistance($0, word)) }.filter { $0.distance <= 2 }
    return scored.min { $0.distance < $1.distance }?.candidate
}
