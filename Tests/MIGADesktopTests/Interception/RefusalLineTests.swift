import Foundation
import Testing
@testable import MIGACore
@testable import MIGADesktop

/// How a refusal is said, now that the executable says every one in one
/// place: "miga: …", but for the missing program's own sentence.
@Suite struct RefusalLineTests {
    @Test func a_program_that_is_not_installed_is_asked_for_in_a_sentence_of_its_own() {
        let missing = MigaError(notInstalled: "Firefox")
        #expect(missing.line == "Please install Firefox first.")
        #expect(missing.status == ExitStatus.notInstalled)
        #expect(MigaError(usage: "x is wrong").line == "miga: x is wrong")
    }

    /// A program gone between the PATH search and exec has the same status,
    /// but is said as any refusal is.
    @Test func a_launch_that_fails_is_said_after_miga_with_its_status() {
        let gone = LaunchFailure(path: "/opt/x/bin/x", code: ENOENT).error
        #expect(gone.line == "miga: cannot run /opt/x/bin/x: No such file or directory")
        #expect(gone.status == ExitStatus.notInstalled)
        let refused = LaunchFailure(path: "/opt/x/bin/x", code: EACCES).error
        #expect(refused.line == "miga: cannot run /opt/x/bin/x: Permission denied")
        #expect(refused.status == ExitStatus.cannotExecute)
    }
}
