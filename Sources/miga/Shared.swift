import ArgumentParser
import MIGACore
import MIGAKit
import MIGAStore
import MIGADesktop

/// What the commands share: this user's folders, protection and history.
extension Miga {
    /// This user's folders, from the environment.
    static var paths: XDGPaths { .ofProcess }

    /// The protection for this user's folders and the running binary.
    static func protection() throws(MigaError) -> Protection {
        guard let gateway = ShimDirectory.runningGateway else {
            throw MigaError("cannot find its own binary (/proc is not mounted?)")
        }
        let environment = processEnvironment()
        return Protection(paths: XDGPaths(environment: environment), environment: environment,
                          gateway: ShimDirectory.routeGateway(running: gateway, environment: environment))
    }

    /// The history store for this user, or a clear message and status 1.
    static func openStore(_ environment: [String: String]) throws(MigaError) -> SessionStore {
        let path = XDGPaths(environment: environment).storeFile
        do {
            let (store, rescued) = try SessionStore.openRescuing(path: path)
            if let rescued { printError("miga: \(rescued)") }
            return store
        } catch {
            throw MigaError("the history at \(path) cannot be opened (\(error))")
        }
    }

    /// The history for a command that only looks (see `Upkeep`): read as it
    /// is, never written, never made; or a clear message and status 1.
    static func readStore(_ environment: [String: String]) throws(MigaError) -> SessionStore {
        let path = XDGPaths(environment: environment).storeFile
        do {
            return try SessionStore.reading(path: path)
        } catch where SessionStore.isDamage(error) {
            // Only a look: the file is left as it is (the next pause moves it aside and begins a new one).
            throw MigaError("the history at \(path) is damaged (\(SessionStore.describe(error))); it is left as it is, "
                            + "and the next pause moves it aside and begins a new one")
        } catch {
            throw MigaError("the history at \(path) cannot be read (\(error))")
        }
    }
}
