#if canImport(Glibc)
import Glibc
#endif

/// The command line as bytes. Swift's `CommandLine.arguments` repairs invalid
/// UTF-8, but a file name on Linux may be any bytes, and arguments must reach
/// the program exactly as they were given.
enum RawArguments {
    /// The last `count` arguments of this process, byte for byte. The
    /// arguments after `--` always end the command line, so they are its tail.
    static func last(_ count: Int) -> [[UInt8]] {
        let total = Int(CommandLine.argc)
        return (max(0, total - count)..<total).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
        }
    }
}
