import ArgumentParser
import Foundation
import MIGAKit

/// The friction before protection is switched off (`unprotect`, `uninstall`):
/// the pause screen of its own, and the choice written to the history.
enum SwitchOff {
    /// Runs the pause in the terminal. True when the person proceeded (or,
    /// without a terminal, gave --now); false when they kept things as they are.
    static func pause(_ action: ProtectionChange.Action, subjects: [String], header: String, proceedLabel: String,
                      kept: String, now: Bool, command: String) throws -> Bool {
        guard let terminal = TTY.open() else {
            guard now else {
                printError("miga: \(command) pauses first, and there is no terminal here to pause in; in a script, add --now")
                throw ExitCode(ExitStatus.usage)
            }
            return true
        }
        let ending = Gateway(context: .live()).pauseBeforeChange(header: header, proceedLabel: proceedLabel, on: terminal)
        switch ending {
        case .proceed:
            return true
        case .exitToFocus:
            record(action, subjects: subjects, .kept)
            print("✓ Nothing changed: \(kept).")
            return false
        case .signal(let number):
            throw ExitCode(ExitStatus.signal(number))
        case .hangup:
            throw ExitCode(ExitStatus.signal(SIGHUP))
        case .yielded, .firstFrameDrawn:
            return false
        }
    }

    /// Writes the change to the history; a history that cannot be written is
    /// said, and does not undo the change.
    static func record(_ action: ProtectionChange.Action, subjects: [String], _ outcome: ProtectionChange.Outcome) {
        let change = ProtectionChange(at: Date(), action: action, subjects: subjects, outcome: outcome)
        if let problem = change.record(inStoreAt: XDGPaths(environment: processEnvironment()).storeFile) { printError(problem) }
    }
}
