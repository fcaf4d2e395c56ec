import MIGACore

/// Whether a command can be protected here.
extension Protection {
    /// Found on PATH (past the shims) or in the application menu.
    public func isInstalled(_ command: String) -> Bool {
        realProgram(command) != nil || !desktop.sources(for: command).isEmpty
    }

    /// Why `command` cannot be protected, or nil.
    public func problem(protecting command: String) -> String? {
        do {
            try Self.checkName(command)
        } catch {
            return error.message
        }
        return isInstalled(command) ? nil : "\(command) is not installed here."
    }
}
