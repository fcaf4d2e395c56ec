#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import MIGACore

/// How miga ends, in one place. A refusal (`MigaError`), thrown by a command
/// the parser runs or by one it never sees (the gateway's fast path, and the
/// processes the gateway starts), is said on standard error ("miga: …") and
/// ends the process with the status it documents. The parser's own endings
/// (a usage error, `--help`) and the statuses a command's output already
/// explains (doctor's findings, say) are the parser's, by `ExitCode`.
extension Miga {
    /// Parses the command line, runs the command and ends the process.
    static func runParsedCommand() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            endProcess(ExitStatus.success)
        } catch let error as MigaError {
            end(saying: error)
        } catch {
            exit(withError: error)
        }
    }

    /// Runs a command the parser never sees and ends with the status it
    /// returns, or with the refusal it threw said.
    static func ending(_ body: () throws(MigaError) -> Int32) -> Never {
        do {
            endProcess(try body())
        } catch {
            end(saying: error)
        }
    }

    private static func end(saying error: MigaError) -> Never {
        printError(error.line)
        endProcess(error.status)
    }
}

/// Ends the process with `status`, flushing buffered output first (output
/// still in a buffer is lost at exec or exit otherwise).
private func endProcess(_ status: Int32) -> Never {
    fflush(nil)
    exit(status)
}
