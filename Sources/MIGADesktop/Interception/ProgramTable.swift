import MIGACore
import MIGATerminal
import MIGAConfig

/// The table `miga list` prints.
public enum ProgramTable {
    /// - Parameter width: the terminal's columns; the rules wrap to fit it
    ///   (under their column, or on lines of their own when it is narrow).
    ///   Nil (output to a file or a pipe) keeps one line per program.
    public static func render(_ programs: [ProgramStatus], width: Int? = nil) -> String {
        // The settings' own columns come from their table (`ProgramSetting.columns`).
        let columns = ProgramSetting.columns
        let header = ["program", "name"] + columns.map(\.header) + ["routes", "rules"]
        let rows = programs.map { status -> [String] in
            let settings = status.settings
            // Names come from the config and desktop entries: nothing in them may reach the terminal as a sequence.
            return [printable(settings.command), printable(settings.displayName)] + columns.map { printable($0.value(settings)) }
                + [routes(status).joined(separator: "  "), ""]
        }
        return table(header: header, rows: rows, rules: programs.map { rules($0.settings) }, width: width)
    }

    /// The protected sites, under a heading of their own: each with the
    /// columns of the settings a site has (a site has no routes on this
    /// machine: MIGA's browser extension pauses it).
    public static func renderSites(_ sites: [ProgramSettings], width: Int? = nil) -> String {
        let columns = ProgramSetting.siteColumns
        let header = ["site"] + columns.map(\.header) + ["rules"]
        let rows = sites.map { settings in
            [printable(settings.displayName)] + columns.map { printable($0.value(settings)) } + [""]
        }
        return "Sites\n" + table(header: header, rows: rows, rules: sites.map(rules), width: width)
    }

    /// A row's rules, each on, in words; "—" for none.
    static func rules(_ settings: ProgramSettings) -> [String] {
        settings.features.isEmpty ? ["—"] : settings.features.map(printable)
    }

    /// `rows` under `header`, aligned, each followed by its `rules`, which
    /// wrap to `width` (the last column of `header` is theirs).
    static func table(header: [String], rows: [[String]], rules: [[String]], width: Int?) -> String {
        let widths = header.indices.map { column in
            ([header] + rows).map { CellWidth.of($0[column]) }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - CellWidth.of(cell))
            }.joined(separator: "   ")
        }
        let rulesColumn = widths.dropLast().reduce(0, +) + 3 * (widths.count - 1)
        var lines = [line(header)]
        for (row, features) in zip(rows, rules) {
            let room = (width ?? .max) - rulesColumn
            guard room < CellWidth.of(features.joined(separator: " · ")) else {
                lines.append(line(row) + features.joined(separator: " · "))
                continue
            }
            // Too long for the window: the rules wrap under their column, or,
            // when that is too narrow, on indented lines below the row.
            let (indent, measure) = room >= 24 ? (rulesColumn, room) : (4, max(20, (width ?? 80) - 4))
            var wrapped: [String] = []
            for feature in features {
                if let last = wrapped.last, CellWidth.of(last) + 3 + CellWidth.of(feature) <= measure {
                    wrapped[wrapped.count - 1] += " · " + feature
                } else {
                    wrapped.append(feature)
                }
            }
            let pad = String(repeating: " ", count: indent)
            if room >= 24 {
                lines.append(line(row) + wrapped[0])
                lines += wrapped.dropFirst().map { pad + $0 }
            } else {
                lines.append(line(row).trimmingTrailingSpaces())
                lines += wrapped.map { pad + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The routes column: how a launch reaches the pause, each checked.
    static func routes(_ status: ProgramStatus) -> [String] {
        var routes: [String] = []
        if status.kept {
            routes.append("kept — miga protect \(printable(status.settings.command)) turns it back on")
        } else if status.realProgram != nil {
            routes.append(status.shim ? "shim ✓" : "shim ✗")
            routes.append(status.shell ? "shell ✓" : "shell ✗")
        }
        if !status.desktopEntries.isEmpty { routes.append("menu ✓") }
        if !status.loginEntries.isEmpty { routes.append("login ✓") }
        if !status.services.isEmpty { routes.append("D-Bus ✓") }
        if !status.installed { routes.append("(not installed)") }
        return routes
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
