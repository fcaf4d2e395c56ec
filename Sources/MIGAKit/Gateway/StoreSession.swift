import FoundationEssentials
import MIGACore
import MIGAStore
import MIGAConfig

/// The store as one pause uses it: opened for a launch (which waits for
/// another process's lock a moment at most), a damaged file moved aside
/// once, and what went wrong kept to be said once, on the screen and after
/// it: the config's problems, and `notices` for everything else.
final class StoreSession {
    /// The store; nil when it could not be opened (said in `notices`).
    private(set) var store: SessionStore?
    private(set) var configProblems: [ConfigProblem]
    var notices: [String] = []
    private let path: String
    private let now: Date
    /// A damaged store is moved aside once; a second failure is only reported.
    private var rescued = false

    init(paths: XDGPaths, loaded: LoadedConfig, now: Date) {
        configProblems = loaded.problems
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

    /// `body` with the store; nil when there is none, when it is busy past
    /// the launch's wait (said nowhere), or when it failed (said in
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
        } catch where SessionStore.isBusy(error) {
            // Another process's lock, past the launch's wait: nothing is
            // lost (the ending goes to the inbox, a quote comes from this
            // run's own bag), so there is nothing to alarm anyone with.
        } catch {
            notices.append("the history could not be written (\(error))")
        }
        return nil
    }
}
