import FoundationEssentials
import MIGACore
import MIGATerminal
import MIGAStore

/// Switching protection off (`unprotect`, `uninstall`, unticking in setup)
/// is a choice like any other: the same pause comes first, and the history
/// records whether the change was made or thought better of.
public struct SwitchOff {
    public let context: GatewayContext
    public let action: ProtectionChange.Action
    /// The programs concerned.
    public let subjects: [String]

    public init(context: GatewayContext, action: ProtectionChange.Action, subjects: [String]) {
        self.context = context
        self.action = action
        self.subjects = subjects
    }

    /// The pause on `terminal`, headed `header`. An Exit to Focus is recorded
    /// here as kept; a Proceed is recorded by the caller once the change is made.
    public func pause(header: String, proceedLabel: String, on terminal: TerminalDevice) -> PauseEnding {
        let ending = Gateway(context: context).pauseBeforeChange(header: header, proceedLabel: proceedLabel, on: terminal)
        if ending == .exitToFocus { record(.kept) }
        return ending
    }

    /// Writes the choice to the history. A history that cannot be written
    /// does not undo the change: the reason is said.
    public func record(_ outcome: ProtectionChange.Outcome) {
        let change = ProtectionChange(at: context.time.now(), action: action, subjects: subjects, outcome: outcome)
        let path = XDGPaths(environment: context.environment).storeFile
        do {
            try SessionStore(path: path).record(change)
        } catch {
            context.messages("miga: the history at \(path) could not record this (\(error))")
        }
    }
}
