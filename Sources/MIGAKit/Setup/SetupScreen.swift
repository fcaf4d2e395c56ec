import MIGACore
import MIGATerminal

/// How each step of setup looks (a pure function of the flow and the size).
/// Whatever does not fit the window scrolls and says so: lists keep the
/// cursor in view with "↑ 2 more" and "↓ 4 more", pages wrap their text and
/// scroll it, and the keys at the foot shorten before any goes.
extension SetupFlow {
    public func frame(size: TerminalSize) -> Frame {
        let width = size.columns
        var header = headerText
        if case .page(let index) = step, !pageLayout(index, size: size).roomy {
            // The page's dots gave way to its text; its number is said up here.
            header += " · \(index + 1) / \(Onboarding.pages.count)"
        }
        let top = [Line.centered(TextWrap.truncate(header, width: width - 2), .faint, in: width)]
        let footer = footerLines(size: size)
        return ScreenLayout.compose(size: size, header: top, body: body(size: size), footer: footer)
    }

    /// The width of setup's text: a comfortable line, and all of a narrow window.
    static func measure(for width: Int) -> Int {
        width < 60 ? max(10, width - 4) : min(width - 8, 62)
    }

    /// The lines between the header and the footer, as `ScreenLayout` leaves them.
    func bodyRows(_ size: TerminalSize) -> Int {
        max(1, size.rows - 1 - messageLines(width: size.columns).count - 1 - 2)
    }

    /// The message, wrapped: two lines at most.
    func messageLines(width: Int) -> [String] {
        guard let message else { return [] }
        let lines = TextWrap.lines(message, width: max(1, width - 2))
        return lines.count > 2 ? [lines[0], TextWrap.truncate(lines[1...].joined(separator: " "), width: width - 2)] : lines
    }

    /// The message, then the keys.
    func footerLines(size: TerminalSize) -> [Line] {
        let width = size.columns
        return messageLines(width: width).map { Line.centered($0, .notice, in: width) }
            + [Line.centered(keyHints(at: size).text(width: width - 2), .muted, in: width)]
    }

    var headerText: String {
        switch step {
        case .page: "MIGA · welcome"
        case .programs: "MIGA setup · 1 of 4 · programs"
        case .interests: "MIGA setup · 2 of 4 · interests"
        case .pause: "MIGA setup · 3 of 4 · pause length"
        case .hook, .browsers, .ready: "MIGA setup · 4 of 4 · ready"
        }
    }

    /// The keys of this step. "Leaves without saving" is the first to
    /// shorten and the last to go: a person who wants out finds the way.
    func keyHints(at size: TerminalSize) -> KeyHints {
        if field != nil {
            return KeyHints([[typingSite ? "type a site" : "type a command", "type"], ["Enter adds it", "Enter adds"], ["Esc cancels"]])
        }
        let leave = firstRun ? ["Ctrl-C leaves without saving", "Ctrl-C leaves"] : ["Esc leaves without saving", "Esc leaves"]
        func leaving(_ hints: [[String]]) -> KeyHints {
            let all = hints + [leave]
            return KeyHints(all, shortening: [hints.count] + Array(hints.indices), dropping: Array(hints.indices))
        }
        let back = ["← back", "←"]
        switch step {
        case .page(let index):
            let scrolls = pageLayout(index, size: size).window.lastOffset > 0
            let next = index == Onboarding.pages.count - 1 ? ["Enter: let's go", "Enter"] : ["→ or Enter: next", "Enter: next", "Enter"]
            let keys: [[String]] = scrolls ? [["↓ or Enter: more", "Enter: more"], ["→ next", "→"]] : [next]
            return leaving((index > 0 ? [back] : []) + keys)
        case .programs:
            return leaving([["↑↓ move", "↑↓"], ["Space chooses", "Space"], ["Enter continues", "Enter"]])
        case .interests:
            return KeyHints([["↑↓ move", "↑↓"], ["Space chooses", "Space"], ["Enter continues", "Enter"], ["Backspace: back", "Bksp"]])
        case .pause:
            return KeyHints([["← shorter", "←"], ["→ longer", "→"], ["Enter continues", "Enter"], ["Backspace: back", "Bksp"]])
        case .hook, .browsers:
            return KeyHints([["y / n"], ["Enter continues", "Enter"], ["Backspace: back", "Bksp"]])
        case .ready:
            return leaving([["Enter: begin", "Enter"], ["Backspace: back", "Bksp"]])
        }
    }

    func body(size: TerminalSize) -> [Line] {
        let (width, measure, rows) = (size.columns, Self.measure(for: size.columns), bodyRows(size))
        return switch step {
        case .page(let index): pageLines(index, size: size)
        case .programs: programLines(width: width, rows: rows)
        case .interests: interestLines(width: width, rows: rows)
        case .pause: squeezed(pauseLines(width: width, measure: measure), rows: rows, width: width)
        case .hook: squeezed(hookLines(width: width, measure: measure), rows: rows, width: width)
        case .browsers: squeezed(browserLines(width: width, measure: measure), rows: rows, width: width)
        case .ready: squeezed(readyLines(width: width, measure: measure), rows: rows, width: width)
        }
    }

    /// A step's question: on two even lines when the window is narrow for it.
    func title(_ text: String, width: Int) -> [Line] {
        var lines = TextWrap.balancedLines(text, measure: max(1, width - 2))
        if lines.count > 2 { lines = [lines[0], TextWrap.truncate(lines[1...].joined(separator: " "), width: width - 2)] }
        return lines.map { Line.centered($0, .accentDeep, in: width) } + [.blank]
    }

    /// `lines` in `rows`: the blank lines go first, from the top; what still
    /// does not fit ends in "…" rather than stopping mid-sentence unsaid.
    func squeezed(_ lines: [Line], rows: Int, width: Int) -> [Line] {
        var lines = lines
        while lines.count > rows, let blank = lines.firstIndex(of: .blank) { lines.remove(at: blank) }
        guard lines.count > rows else { return lines }
        return Array(lines.prefix(max(0, rows - 1))) + [Line.centered("…", .muted, in: width)]
    }

    // MARK: Pages

    /// A page at a size: the lines around its text, and the window on the text.
    struct PageLayout {
        let lead: [Line]
        let text: [Line]
        let tail: [Line]
        let window: ScrollWindow
        /// Everything fits with the dots and the breathing room.
        let roomy: Bool
    }

    func pageLayout(_ index: Int, size: TerminalSize) -> PageLayout {
        let width = size.columns
        let rows = bodyRows(size)
        let page = Onboarding.pages[index]
        let count = Onboarding.pages.count
        var text = title(page.title, width: width)
        for (number, paragraph) in page.paragraphs.enumerated() {
            if number > 0 { text.append(.blank) }
            text += ScreenLayout.paragraph(paragraph.replacingOccurrences(of: "`", with: ""), measure: Self.measure(for: width),
                                           width: width, tone: number == 0 ? .quote : .body)
        }
        let button = Line.centered([Span("  Let's go  ", .primary)], in: width)
        let last = index == count - 1
        let dots = (0..<count).map { $0 <= index ? "●" : "○" }.joined(separator: " ")
        let lead = [Line.centered(dots, .accent(glow: 0), in: width), Line.centered("\(index + 1) / \(count)", .faint, in: width), .blank]
        let roomyTail = last ? [Line.blank, .blank, button] : []
        if lead.count + text.count + roomyTail.count <= rows {
            return PageLayout(lead: lead, text: text, tail: roomyTail, window: ScrollWindow(count: text.count, rows: text.count, offset: 0),
                              roomy: true)
        }
        let tail = last ? [button] : []
        if text.count + tail.count <= rows {
            return PageLayout(lead: [], text: text, tail: tail, window: ScrollWindow(count: text.count, rows: text.count, offset: 0),
                              roomy: false)
        }
        // Taller than the window even wrapped: the text scrolls between two cues.
        let window = ScrollWindow(count: text.count, rows: rows - tail.count - 2, offset: pageScroll)
        return PageLayout(lead: [], text: text, tail: tail, window: window, roomy: false)
    }

    /// The window on page `index`'s text, for the keys that scroll it.
    func pageText(_ index: Int, size: TerminalSize) -> ScrollWindow {
        pageLayout(index, size: size).window
    }

    func pageLines(_ index: Int, size: TerminalSize) -> [Line] {
        let (width, layout) = (size.columns, pageLayout(index, size: size))
        let window = layout.window
        guard window.lastOffset > 0 else { return layout.lead + layout.text + layout.tail }
        return layout.lead + [Line.centered(ScrollWindow.cue("↑", hidden: window.above).text, .muted, in: width)]
            + Array(layout.text[window.range])
            + [Line.centered(ScrollWindow.cue("↓", hidden: window.below).text, .muted, in: width)] + layout.tail
    }

    // MARK: Lists

    /// A list in `rows` lines under `head` and over `tail`: all of it when it
    /// fits, else a window around `focus` between cues saying what is hidden.
    /// Breathing room (the blank lines in `head` and `tail`) goes first.
    func listLines(head: [Line], list: [Line], tail: [Line], focus: Int, rows: Int, indent: String) -> [Line] {
        if head.count + list.count + tail.count <= rows { return head + list + tail }
        var (head, tail) = (head, tail)
        if rows - head.count - tail.count - 2 < 3 {
            head.removeAll { $0 == .blank }
            tail.removeAll { $0 == .blank }
        }
        let window = ScrollWindow(count: list.count, rows: rows - head.count - tail.count - 2, around: focus)
        return head + [ScrollWindow.cue("↑", hidden: window.above, indent: indent)] + Array(list[window.range])
            + [ScrollWindow.cue("↓", hidden: window.below, indent: indent)] + tail
    }

    // MARK: Programs

    func programLines(width: Int, rows: Int) -> [Line] {
        var nameWidth = min(18, max(8, programs.map { CellWidth.of($0.name) }.max() ?? 8))
        let commandWidth = min(20, max(8, programs.map { CellWidth.of($0.command) }.max() ?? 8))
        // A narrow window loses the command column first, then the names shorten.
        let marks = 2 + 4 + 2, state = 13
        let showCommand = marks + nameWidth + 2 + commandWidth + 2 + state + 2 <= width
        if !showCommand { nameWidth = max(4, min(nameWidth, width - 2 - marks - 2 - state)) }
        let rowWidth = showCommand ? 4 + 2 + nameWidth + 2 + commandWidth + 2 + 13 : marks + nameWidth + 2 + state
        let indent = String(repeating: " ", count: max(1, (width - rowWidth) / 2))
        var list: [Line] = programs.enumerated().map { index, program in
            let mark = program.selected ? Span("[✓] ", .accentDeep) : Span("[ ] ", program.installed ? .muted : .faint)
            let pointer = Span(index == cursor ? "› " : "  ", .accentDeep)
            let tone: Tone = program.installed ? (index == cursor ? .quote : .body) : .faint
            let name = TextWrap.truncate(program.name, width: nameWidth)
            let command = TextWrap.truncate(program.command, width: commandWidth)
            let state = program.installed ? "installed" : "not installed"
            return Line([Span(indent), pointer, mark, Span("\(program.glyph) ", program.installed ? .accent(glow: 0) : .faint),
                         Span(name.rightPadded(to: nameWidth) + "  ", tone)]
                        + (showCommand ? [Span(command.rightPadded(to: commandWidth) + "  ", .muted)] : [])
                        + [Span(state, program.installed ? .muted : .faint)])
        }
        list.append(addRow("command", typing: !typingSite, row: programs.count, indent: indent, width: width))
        // The sites' section: its rows are the cursor's rows after a heading.
        let sitesStart = list.count
        list += siteLines(indent: indent, nameWidth: nameWidth + (showCommand ? commandWidth + 2 : 0), width: width)
        let focus = cursor <= programs.count ? cursor : sitesStart + 1 + (cursor - siteRow(0))
        let label = continueLabel
        let onContinue = cursor == continueRow
        let button = Line.centered([Span(onContinue ? "› " : "  ", .accentDeep),
                                    Span(label, selectedCount + selectedSiteCount == 0 ? .faint : .primary), Span("  ")], in: width)
        return listLines(head: title("Which programs should pause first?", width: width), list: list, tail: [.blank, button],
                         focus: min(focus, list.count - 1), rows: rows, indent: indent + "  ")
    }

    // MARK: Interests

    func interestLines(width: Int, rows: Int) -> [Line] {
        let head = title("What would you like to read in a pause?", width: width)
            + [Line.centered(TextWrap.truncate("None chosen means all of them.", width: width - 2), .muted, in: width), .blank]
        let tagWidth = max(4, min(20, width - 18, tags.map { CellWidth.of($0.tag) }.max() ?? 8))
        let indent = String(repeating: " ", count: max(1, (width - (tagWidth + 16)) / 2))
        let list: [Line] = tags.enumerated().map { index, entry in
            let chosen = chosenTags.contains(entry.tag)
            return Line([Span(indent), Span(index == tagCursor ? "› " : "  ", .accentDeep),
                         Span(chosen ? "[✓] " : "[ ] ", chosen ? .accentDeep : .muted),
                         Span(TextWrap.truncate(entry.tag, width: tagWidth).rightPadded(to: tagWidth) + "  ",
                              index == tagCursor ? .quote : .body),
                         Span("\(entry.count) texts", .muted)])
        }
        return listLines(head: head, list: list, tail: [], focus: tagCursor, rows: rows, indent: indent + "  ")
    }

    // MARK: Pause length

    func pauseLines(width: Int, measure: Int) -> [Line] {
        var lines = title("How long should a pause last?", width: width)
        let clock = MIGACore.clock(pause)
        lines.append(Line.centered([Span("◀  ", pause > Self.pauseRange.lowerBound ? .accent(glow: 0) : .faint),
                                    Span(clock, .quote),
                                    Span("  ▶", pause < Self.pauseRange.upperBound ? .accent(glow: 0) : .faint)], in: width))
        lines.append(.blank)
        lines += ScreenLayout.paragraph("Ninety seconds is the classic length; a shorter pause still works, and you can change it for each program later.",
                                        measure: measure, width: width, tone: .muted)
        if pause < Self.shortPause {
            lines.append(.blank)
            lines += ScreenLayout.paragraph("A pause this short is often over before the pull has eased; ten seconds or more gives it room.",
                                            measure: measure, width: width, tone: .muted)
        }
        return lines
    }

    // MARK: Shell hook

    func hookLines(width: Int, measure: Int) -> [Line] {
        guard let hook else { return [] }
        var lines = title("Reach your programs from the shell", width: width)
        if hook.present {
            lines += ScreenLayout.paragraph("\(hook.shownFile) already runs miga init: typing a protected program's name goes through the pause.",
                                            measure: measure, width: width)
            return lines
        }
        lines += ScreenLayout.paragraph("MIGA can add this line to \(hook.shownFile), so that typing a protected program's name goes through the pause:",
                                        measure: measure, width: width)
        lines.append(.blank)
        lines += TextWrap.lines(hook.line, width: width - 2).map { Line.centered($0, .accentDeep, in: width) }
        lines.append(.blank)
        lines.append(Line.centered([Span("  Add the line  ", addHook ? .primary : .muted), Span(width < 36 ? "  " : "    "),
                                    Span("  Not now  ", addHook ? .muted : .primary)], in: width))
        return lines
    }

    // MARK: Ready

    func readyLines(width: Int, measure: Int) -> [Line] {
        var lines = title("Ready when you are", width: width)
        let answers = self.answers
        let names = answers.programs.map(\.name).joined(separator: ", ")
        let texts = answers.interests.isEmpty ? "all kinds" : answers.interests.joined(separator: ", ")
        let clock = MIGACore.clock(answers.pause)
        var facts = [("MIGA pauses", names), ("Sites", answers.sites.joined(separator: ", ")), ("Texts", texts), ("A pause lasts", clock)]
            .filter { !$0.1.isEmpty }
        if let hook {
            facts.append(("Shell", hook.present ? "\(hook.shownFile) runs miga init already"
                                  : answers.addHook ? "add the line to \(hook.shownFile)" : "not now (see miga init)"))
        }
        if let browsersFact { facts.append(browsersFact) }
        // Equipping is half of it: the extension is added by hand, and this is the last page to say how.
        let steps = offersBrowsers && answers.equipBrowsers ? extensionSteps : []
        let rows = facts + steps.map { ($0.browser, $0.how) }
        let labelWidth = rows.map { CellWidth.of($0.0) }.max() ?? 0
        let valueWidth = max(10, min(measure - labelWidth - 3, rows.map { CellWidth.of($0.1) }.max() ?? 0))
        let indent = String(repeating: " ", count: max(1, (width - labelWidth - 3 - valueWidth) / 2))
        func add(_ label: String, _ value: String) {
            for (index, part) in TextWrap.lines(value, width: valueWidth).enumerated() {
                lines.append(Line([Span(indent + (index == 0 ? label : "").rightPadded(to: labelWidth) + "   ", .muted),
                                   Span(part, .body)]))
            }
        }
        facts.forEach(add)
        if !steps.isEmpty {
            lines += [.blank, Line([Span(indent + "Then add MIGA's extension to each browser:", .muted)])]
            steps.forEach(add)
        }
        lines += [.blank, .blank, Line.centered([Span("  Begin  ", .primary)], in: width)]
        return lines
    }
}
