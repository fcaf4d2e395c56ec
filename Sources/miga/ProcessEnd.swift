#if canImport(Glibc)
import Glibc
#endif

/// Ends the process with `status`, flushing buffered output first (output
/// still in a buffer is lost at exec or exit otherwise).
func endProcess(_ status: Int32) -> Never {
    fflush(nil)
    exit(status)
}
