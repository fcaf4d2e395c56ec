import MIGAConfig
import MIGADesktop

/// What setup asks of the protection: its list of programs (whether a typed
/// command can be protected: Protection+Installed.swift; the hook line:
/// Protection+HookLine.swift).
extension Protection {
    /// Setup's list: every program already protected (chosen), the catalog's
    /// installed programs, then the rest of the catalog, marked not installed.
    public func setupPrograms() -> [SetupProgram] {
        let protected = config.programs
        var list = ProgramCatalog.programs.map { entry -> SetupProgram in
            let installed = entry.commands.first { isInstalled($0) }
            let command = installed ?? entry.commands[0]
            let chosen = entry.commands.first { protected[$0] != nil }
            return SetupProgram(name: chosen.flatMap { protected[$0]?.displayName } ?? entry.name, command: chosen ?? command,
                                glyph: entry.glyph,
                                installed: installed != nil || chosen != nil, selected: chosen != nil)
        }
        for (command, settings) in protected.sorted(by: { $0.key < $1.key }) where !list.contains(where: { $0.command == command }) {
            list.append(SetupProgram(name: settings.displayName, command: command, glyph: ProgramCatalog.glyph(for: command),
                                     installed: true, selected: true))
        }
        // What can be chosen comes first, so it is never scrolled out of sight.
        return list.filter(\.selected) + list.filter { $0.installed && !$0.selected } + list.filter { !$0.installed }
    }
}
