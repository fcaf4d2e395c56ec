import FoundationEssentials
import MIGACore
import MIGATerminal

/// Setup's last question when a browser is found and a site is protected
/// (its tabs are where a site's pause happens): "Sites in your browser",
/// equipping the browsers for protected sites as `miga browser setup` does
/// (applied with the other answers, at the end and only then).
extension SetupFlow {
    /// Whether setup asks about the browsers.
    var offersBrowsers: Bool { !browsers.isEmpty && sites.contains(where: \.selected) }
    /// The step after the shell hook's: the browsers' question, when it is asked.
    var afterHook: Step { offersBrowsers ? .browsers : .ready }
    /// The step before the browsers' question.
    var beforeBrowsers: Step { hook == nil ? .pause : .hook }

    mutating func onBrowsers(_ key: Key) {
        switch key {
        case .character("y"), .character("Y"): equipBrowsers = true; step = .ready
        case .character("n"), .character("N"): equipBrowsers = false; step = .ready
        case .left, .right, .space: equipBrowsers.toggle()
        case .enter: step = .ready
        case .backspace: step = beforeBrowsers
        default: break
        }
    }

    func browserLines(width: Int, measure: Int) -> [Line] {
        var lines = title("Sites in your browser", width: width)
        lines += ScreenLayout.paragraph("MIGA can pause protected websites too, in the tab, through its browser extension. "
                                        + "It found \(spokenList(browsers.map(printable))).",
                                        measure: measure, width: width)
        lines.append(.blank)
        lines += ScreenLayout.paragraph("Equip them now? MIGA writes a small file for each browser (as miga browser setup does) "
                                        + "and then says how to add the extension.", measure: measure, width: width)
        lines.append(.blank)
        lines.append(Line.centered([Span("  Equip them  ", equipBrowsers ? .primary : .muted), Span(width < 36 ? "  " : "    "),
                                    Span("  Not now  ", equipBrowsers ? .muted : .primary)], in: width))
        return lines
    }

    /// The browsers' line of the summary.
    var browsersFact: (String, String)? {
        guard offersBrowsers else { return nil }
        return ("Browsers", answers.equipBrowsers ? "equip \(browsers.map(printable).joined(separator: ", "))" : "not now (see miga browser setup)")
    }
}
