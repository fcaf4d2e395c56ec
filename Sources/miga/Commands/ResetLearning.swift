#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FoundationEssentials
import MIGACore
import MIGAConfig

extension Miga.Stats {
    /// `--reset-learning`: MIGA's choice of the kind of pause for one program
    /// starts afresh. It forgets what it learnt, so in a terminal it asks for
    /// a word typed first; without one, `--yes` says it was meant, and
    /// without that it refuses with status 64 (`ExitStatus.usage`).
    func resetLearning(of program: String, environment: [String: String]) throws {
        let name = printable(ConfigLoader.load(from: Miga.paths.configFile).config.settings(for: program).displayName)
        if !yes {
            guard isatty(0) == 1 && isatty(1) == 1 else {
                throw MigaError(usage: "--reset-learning without a terminal to ask in needs --yes; nothing was changed")
            }
            print("MIGA will choose the kind of pause for \(name) afresh, as if it had never learnt what works for you there.")
            print("Your numbers stay as they are. Type reset to go on: ", terminator: "")
            fflush(nil)
            guard readLine()?.trimmingWhitespace().lowercased() == "reset" else {
                print("Nothing was changed.")
                return
            }
        }
        let store = try Miga.openStore(environment)
        do {
            try store.resetLearning(program: program, at: Date())
        } catch {
            throw MigaError("the reset could not be recorded (\(error)); nothing was changed")
        }
        print("MIGA now learns afresh which kind of pause works for you with \(name).")
    }
}
