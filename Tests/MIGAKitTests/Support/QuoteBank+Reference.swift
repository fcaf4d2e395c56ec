@testable import MIGACore
@testable import MIGAKit

extension QuoteBank {
    /// The reference reading of interests, which the pause's light reading
    /// (`QuotePool`) must match: the quotes that match any of `interests`
    /// (tags, case-insensitive); every quote when none match.
    func pool(for interests: [String]) -> [Quote] {
        let wanted = Set(interests.map { $0.lowercased() })
        guard !wanted.isEmpty else { return quotes }
        let matching = quotes.filter { quote in quote.tags.contains { wanted.contains($0.lowercased()) } }
        return matching.isEmpty ? quotes : matching
    }
}
