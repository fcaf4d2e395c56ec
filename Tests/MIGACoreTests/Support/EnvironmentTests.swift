import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import MIGACore

/// The environment as a dictionary and one variable at a time must agree:
/// the shell hook reads HOME with getenv, `protect` through the dictionary,
/// and a HOME given twice must not send them to two folders.
@Suite struct EnvironmentTests {
    @Test func a_name_given_twice_keeps_its_first_value_as_getenv_does() {
        let words: [String] = ["HOME=/first", "PATH=/usr/bin", "HOME=/second", "NOEQUALS"]
        let entries: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { entries.forEach { free($0) } }
        var list = entries
        let read = list.withUnsafeMutableBufferPointer { buffer in environment(of: buffer.baseAddress!) }
        #expect(read == ["HOME": "/first", "PATH": "/usr/bin"])
    }
}
