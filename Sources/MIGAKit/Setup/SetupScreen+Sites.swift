import MIGACore
import MIGATerminal
import MIGADesktop

/// How the program list's second section looks: "Sites", a row each, and
/// the row to add one; and the rows to add what a person types.
extension SetupFlow {
    /// The heading, the sites, then "+ another site…" (or what is being typed).
    /// `nameWidth`: the room a program's name (and command) has, which a site's name takes.
    func siteLines(indent: String, nameWidth: Int, width: Int) -> [Line] {
        var lines = [Line([Span(indent + "  "), Span("Sites", .accentDeep)])]
        for (index, site) in sites.enumerated() {
            let here = cursor == siteRow(index)
            lines.append(Line([Span(indent), Span(here ? "› " : "  ", .accentDeep),
                               site.selected ? Span("[✓] ", .accentDeep) : Span("[ ] ", .muted), Span("\(ProgramCatalog.siteGlyph) ", .accent(glow: 0)),
                               Span(TextWrap.truncate(site.name, width: nameWidth).rightPadded(to: nameWidth) + "  ", here ? .quote : .body),
                               Span("website", .muted)]))
        }
        lines.append(addRow("site", typing: typingSite, row: anotherSiteRow, indent: indent, width: width))
        return lines
    }

    /// "+ another command…" or "+ another site…", or, while one is typed
    /// there, what is typed, its end in view where the cursor is.
    func addRow(_ noun: String, typing: Bool, row: Int, indent: String, width: Int) -> Line {
        guard typing, let field else {
            return Line([Span(indent), Span(cursor == row ? "› " : "  ", .accentDeep),
                         Span("+ another \(noun)…", cursor == row ? .quote : .muted)])
        }
        let label = "+ \(noun): "
        let room = max(1, width - indent.count - 2 - CellWidth.of(label) - 2)
        let shown = CellWidth.of(field) <= room ? field : "…" + String(String(String(field.reversed()).prefix(room - 1)).reversed())
        return Line([Span(indent), Span("› ", .accentDeep), Span(label, .body), Span(shown, .quote), Span("█", .accent(glow: 0))])
    }

    /// "Continue with 2 programs and 1 site"; "Continue" with nothing chosen.
    var continueLabel: String {
        let (programs, sites) = (selectedCount, selectedSiteCount)
        let parts = (programs > 0 ? ["\(programs) program\(programs == 1 ? "" : "s")"] : [])
            + (sites > 0 ? ["\(sites) site\(sites == 1 ? "" : "s")"] : [])
        return parts.isEmpty ? "  Continue  " : "  Continue with \(parts.joined(separator: " and "))  "
    }
}
