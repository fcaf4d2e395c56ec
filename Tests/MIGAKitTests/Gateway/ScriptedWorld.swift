@testable import MIGACore
@testable import MIGAKit

/// A pause's world for tests: Deepen brings `quotes` in turn from the second
/// on, each deepen is reported to `onDeepen`, and giving way is asked of `shouldYield`.
final class ScriptedWorld: PauseWorld {
    private let quotes: [Quote]
    private var next = 1
    private let onDeepen: (PauseSession) -> Void
    private let shouldYield: (() -> Bool)?

    init(quotes: [Quote], onDeepen: @escaping (PauseSession) -> Void = { _ in }, shouldYield: (() -> Bool)? = nil) {
        self.quotes = quotes
        self.onDeepen = onDeepen
        self.shouldYield = shouldYield
    }

    var checksYield: Bool { shouldYield != nil }

    func perform(_ work: PauseWork, on flow: inout PauseFlow) -> PauseEnding? {
        switch work {
        case .deepen(let now):
            flow.deepen(with: quotes[next % quotes.count], at: now)
            next += 1
            onDeepen(flow.session)
            return nil
        case .checkYield:
            return shouldYield?() == true ? .yielded : nil
        }
    }
}
