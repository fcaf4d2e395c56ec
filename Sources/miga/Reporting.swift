import ArgumentParser
import MIGACore
import MIGAKit

/// Runs what a command asks of the library: a refusal is said on standard
/// error ("miga: …") and ends the command with the status it documents.
/// The one place where library errors become messages and exit statuses.
func reporting<T>(_ body: () throws(MigaError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        printError(error.line)
        throw ExitCode(error.status)
    }
}
