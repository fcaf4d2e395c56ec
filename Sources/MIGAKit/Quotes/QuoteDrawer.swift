import FoundationEssentials
import MIGACore
import MIGAStore
import MIGAConfig

/// The store and the quotes a pause draws from: quotes come through the
/// store's shuffle bag, remembered across runs, or through a bag of this
/// run's own when the store fails. What went wrong is kept: the config's
/// problems, and `notices` for everything else.
final class QuoteDrawer {
    private(set) var store: SessionStore?
    let quotes: QuotePool
    let pool: [String]
    private(set) var configProblems: [ConfigProblem]
    var notices: [String]
    private var spareBag = ShuffleBag()
    private let path: String
    private let now: Date
    /// A damaged store is moved aside once; a second failure is only reported.
    private var rescued = false

    init(paths: XDGPaths, loaded: LoadedConfig, now: Date) {
        configProblems = loaded.problems
        notices = []
        path = paths.storeFile
        self.now = now
        do {
            let (opened, rescue) = try SessionStore.openRescuing(path: path, role: .gateway, now: now)
            store = opened
            rescued = rescue != nil
            if let rescue { notices.append(rescue) }
        } catch {
            store = nil
            notices.append("the history at \(path) cannot be opened (\(error)); this pause is not recorded")
        }
        quotes = QuotePool(folder: paths.userQuotesDirectory, interests: loaded.config.interests,
                             cache: paths.dataDirectory + "/quote-pool")
        pool = quotes.pool
        if let problem = quotes.problems.first {
            let more = quotes.problems.count > 1 ? " (and \(quotes.problems.count - 1) more)" : ""
            notices.append("\(problem.description)\(more); those lines are skipped")
        }
    }

    /// What went wrong, for the screen: a config problem's cause first and
    /// its place last, so a narrow window shows what is wrong.
    var screenNotices: [String] { configProblems.map(\.notice) + notices }

    /// What went wrong, for standard error: a config problem as
    /// `file:line:column: message`, the form editors jump to.
    var messages: [String] { configProblems.map(\.description) + notices }

    /// Everything said: nothing to say again at the end.
    func clearNotices() {
        configProblems = []
        notices = []
    }

    /// The next quote of the bag.
    func next(generator: inout SeededGenerator) -> Quote {
        let id = attempt({ [pool] store, generator in try store.drawQuote(from: pool, using: &generator) },
                         generator: &generator)
        return quote(id: id ?? nil, generator: &generator)
    }

    /// The quote `id` names, or one from the spare bag when the store gave none.
    func quote(id: String?, generator: inout SeededGenerator) -> Quote {
        (id ?? spareBag.draw(from: pool, using: &generator)).flatMap { quotes[$0] } ?? QuotePool.fallback
    }

    /// `body` with the store; nil when there is none or it failed (said in
    /// `notices`). Damage found past the first page (a file cut short) is
    /// moved aside like damage found on opening, and `body` runs on the new store.
    func attempt<T>(_ body: (SessionStore, inout SeededGenerator) throws -> T, generator: inout SeededGenerator) -> T? {
        guard let current = store else { return nil }
        do {
            return try body(current, &generator)
        } catch where SessionStore.isDamage(error) && !rescued {
            rescued = true
            do {
                let (fresh, words) = try SessionStore.rescue(path: path, damage: error, role: .gateway, now: now)
                store = fresh
                notices.append(words)
                return try body(fresh, &generator)
            } catch {
                store = nil
                notices.append("the history at \(path) is damaged and could not be set aside (\(error)); this pause is not recorded")
            }
        } catch {
            notices.append("the history could not be written (\(error))")
        }
        return nil
    }
}
