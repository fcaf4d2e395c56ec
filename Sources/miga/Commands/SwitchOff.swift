import ArgumentParser
import FoundationEssentials
import Glibc
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAStore

/// `unprotect` and `uninstall` ask for their pause here: in a terminal the
/// library's switch-off pause, in a script nothing without `--now`.
extension SwitchOff {
    /// True when the person proceeded (or, without a terminal, gave --now);
    /// false when they kept things as they are.
    static func ask(_ action: ProtectionChange.Action, subjects: [String], header: String, proceedLabel: String,
                    kept: String, now: Bool, command: String) throws -> Bool {
        guard let terminal = TTY.open() else {
            guard now else {
                throw MigaError(usage: "\(command) pauses first, and there is no terminal here to pause in; in a script, add --now")
            }
            return true
        }
        switch SwitchOff(context: .live(), action: action, subjects: subjects).pause(header: header, proceedLabel: proceedLabel, on: terminal) {
        case .proceed:
            return true
        case .exitToFocus, .alternative:
            print("✓ Nothing changed: \(kept).")
            return false
        case .signal(let number):
            throw ExitCode(ExitStatus.signal(number))
        case .hangup:
            throw ExitCode(ExitStatus.signal(SIGHUP))
        case .yielded:
            return false
        }
    }

    /// Records that the change was made.
    static func done(_ action: ProtectionChange.Action, subjects: [String]) {
        SwitchOff(context: .live(), action: action, subjects: subjects).record(.done)
    }
}
