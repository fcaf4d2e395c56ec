import MIGACore
import MIGAConfig

/// A Flatpak app is one program with several ways in: its exported command
/// (the app ID), `flatpak run` of it, and service files named by its ID.
/// What the program's `flatpak` setting means for its routes is here, and
/// only here.
extension Protection {
    /// The Flatpak app `command` names (by its ID, the ID's last part, its
    /// name, its command or its window class), if it is one.
    func flatpakID(of command: String) -> String? {
        desktop.sources(for: command).lazy.compactMap { DesktopOverrides.flatpakID($0.entry) }.first
    }

    /// Protecting a Flatpak app by another of its names protects the program
    /// it already is; the app's ID is kept in its settings.
    func takeInFlatpakApp(_ command: inout String, _ changes: inout ProgramChanges, config: Config, notes: inout [String]) {
        guard let appID = flatpakID(of: command) else { return }
        if let existing = config.program(flatpak: appID), existing.command != command {
            notes.append(Self.protectedAlready(existing))
            command = existing.command
        }
        if changes["flatpak"] == nil { changes["flatpak"] = .string(appID) }
    }

    /// The IDs a program's service files are named by: its menu entries'
    /// (`org.telegram.desktop` for `org.telegram.desktop.desktop`), and its Flatpak app's.
    func appIDs(of command: String, settings: ProgramSettings?) -> Set<String> {
        Set(desktop.sources(for: command).map { String($0.name.dropLast(".desktop".count)) } + [settings?.flatpak].compactMap { $0 })
    }

    /// The shims a Flatpak app pauses through: its exported command, and
    /// `flatpak`, which pauses only `flatpak run` of a protected app. None
    /// for a program that is no Flatpak app.
    func flatpakShims(of settings: ProgramSettings?) -> [String] {
        settings?.flatpak.map { [$0, "flatpak"] } ?? []
    }

    /// The Flatpak shims to remove with `settings`' program once it has left
    /// `config`: its app's, and `flatpak` unless another app is still protected.
    func flatpakShims(removing settings: ProgramSettings?, from config: Config) -> [String] {
        let flatpakStillPauses = config.programs.values.contains { $0.flatpak != nil }
        return flatpakShims(of: settings).filter { $0 != "flatpak" || !flatpakStillPauses }
    }

    /// Every shim name that stands for a Flatpak app in `config`, and `flatpak`.
    func flatpakShimNames(_ config: Config) -> Set<String> {
        Set(config.programs.values.compactMap(\.flatpak) + ["flatpak"])
    }

    /// The Flatpak routes of `settings`' program that lead somewhere here.
    func flatpakRoutes(of settings: ProgramSettings?) -> [Route] {
        flatpakShims(of: settings).filter { realProgram($0) != nil }.map { name in
            Route(.flatpak, shims.path + "/" + name, problem: shimProblem(name), fix: shimFix)
        }
    }
}
