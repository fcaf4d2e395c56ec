import MIGACore
import MIGAConfig

/// The quotes a pause draws: through the store's shuffle bag, remembered
/// across runs, or through a bag of this run's own when the store gives
/// none. A quote file's problems are said with the session's notices.
final class QuoteSource {
    /// The quotes of the person's interests.
    let pool: QuotePool
    private let session: StoreSession
    private var spareBag = ShuffleBag()

    init(paths: XDGPaths, loaded: LoadedConfig, session: StoreSession) {
        self.session = session
        pool = QuotePool(folder: paths.userQuotesDirectory, interests: loaded.config.interests,
                         cache: paths.dataDirectory + "/quote-pool")
        if let problem = pool.problems.first {
            let more = pool.problems.count > 1 ? " (and \(pool.problems.count - 1) more)" : ""
            session.notices.append("\(problem.description)\(more); those lines are skipped")
        }
    }

    /// The ids the bags draw from.
    var ids: [String] { pool.pool }

    /// The next quote of the bag.
    func next(generator: inout SeededGenerator) -> Quote {
        let id = session.attempt({ [ids] store, generator in try store.drawQuote(from: ids, using: &generator) },
                                 generator: &generator)
        return quote(id: id ?? nil, generator: &generator)
    }

    /// The quote `id` names, or one from the spare bag when the store gave none.
    func quote(id: String?, generator: inout SeededGenerator) -> Quote {
        (id ?? spareBag.draw(from: ids, using: &generator)).flatMap { pool[$0] } ?? QuotePool.fallback
    }
}
