import MIGAKit

/// The table `miga list` prints.
enum ProgramTable {
    static func render(_ programs: [ProgramStatus]) -> String {
        let header = ["program", "name", "pause", "no terminal", "routes", "rules"]
        let rows = programs.map { status -> [String] in
            let settings = status.settings
            var routes: [String] = []
            routes.append(status.shim ? "shim ✓" : "shim ✗")
            routes.append(status.shell ? "shell ✓" : "shell ✗")
            if !status.desktopEntries.isEmpty { routes.append("menu ✓") }
            if status.realProgram == nil { routes.append("(not installed)") }
            return [settings.command, settings.displayName, settings.pause.map { "\($0) s" } ?? "default",
                    settings.nonInteractive.rawValue, routes.joined(separator: "  "),
                    settings.features.isEmpty ? "—" : settings.features.joined(separator: " · ")]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { CellWidth.of($0[column]) }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - CellWidth.of(cell))
            }.joined(separator: "   ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}
