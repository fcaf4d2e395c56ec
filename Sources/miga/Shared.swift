import ArgumentParser
import MIGAKit

/// What the commands share: this user's folders, protection and history.
extension Miga {
    /// This user's folders, from the environment.
    static var paths: XDGPaths { XDGPaths(environment: processEnvironment()) }

    /// The protection for this user's folders and the running binary.
    static func protection() throws -> Protection {
        guard let gateway = ShimDirectory.runningGateway else {
            printError("miga: cannot find its own binary (/proc is not mounted?)")
            throw ExitCode(ExitStatus.failure)
        }
        let environment = processEnvironment()
        return Protection(paths: XDGPaths(environment: environment), environment: environment,
                          gateway: ShimDirectory.routeGateway(running: gateway, environment: environment))
    }

    /// The history store for this user, or a clear message and status 1.
    static func openStore(_ environment: [String: String]) throws -> SessionStore {
        let path = XDGPaths(environment: environment).storeFile
        do {
            let (store, rescued) = try SessionStore.openRescuing(path: path)
            if let rescued { printError("miga: \(rescued)") }
            return store
        } catch {
            printError("miga: the history at \(path) cannot be opened (\(error))")
            throw ExitCode(ExitStatus.failure)
        }
    }
}
