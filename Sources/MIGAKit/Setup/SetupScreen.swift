/// How each step of setup looks (a pure function of the flow and the size).
extension SetupFlow {
    public func frame(size: TerminalSize) -> Frame {
        let width = size.columns
        let measure = max(20, min(width - 8, 62))
        let header = [Line.centered(TextWrap.truncate(headerText, width: width - 2), .faint, in: width)]
        var footer: [Line] = []
        if let message { footer.append(Line.centered(TextWrap.truncate(message, width: width - 2), .notice, in: width)) }
        footer.append(Line.centered(TextWrap.truncate(hints, width: width - 2), .muted, in: width))
        return ScreenLayout.compose(size: size, header: header, body: body(width: width, measure: measure, rows: size.rows - 6),
                                    footer: footer)
    }

    var headerText: String {
        switch step {
        case .page: "MIGA · welcome"
        case .programs: "MIGA setup · 1 of 4 · programs"
        case .interests: "MIGA setup · 2 of 4 · interests"
        case .pause: "MIGA setup · 3 of 4 · pause length"
        case .hook, .ready: "MIGA setup · 4 of 4 · ready"
        }
    }

    var hints: String {
        if field != nil { return "type a command · Enter adds it · Esc cancels" }
        let leave = firstRun ? "Ctrl-C leaves without saving" : "Esc leaves without saving"
        return switch step {
        case .page(let index) where index == Onboarding.pages.count - 1: "← back · Enter: let's go · \(leave)"
        case .page(let index) where index == 0: "→ or Enter: next · \(leave)"
        case .page: "← back · → or Enter: next · \(leave)"
        case .programs: "↑↓ move · Space chooses · Enter continues · \(leave)"
        case .interests: "↑↓ move · Space chooses · Enter continues · Backspace: back"
        case .pause: "← shorter · → longer · Enter continues · Backspace: back"
        case .hook: "y / n · Enter continues · Backspace: back"
        case .ready: "Enter: begin · Backspace: back · \(leave)"
        }
    }

    func body(width: Int, measure: Int, rows: Int) -> [Line] {
        switch step {
        case .page(let index): pageLines(index, width: width, measure: measure)
        case .programs: programLines(width: width, rows: rows)
        case .interests: interestLines(width: width, rows: rows)
        case .pause: pauseLines(width: width, measure: measure)
        case .hook: hookLines(width: width, measure: measure)
        case .ready: readyLines(width: width, measure: measure)
        }
    }

    func title(_ text: String, width: Int) -> [Line] {
        [Line.centered(TextWrap.truncate(text, width: width - 2), .accentDeep, in: width), .blank]
    }

    // MARK: Pages

    func pageLines(_ index: Int, width: Int, measure: Int) -> [Line] {
        let page = Onboarding.pages[index]
        let count = Onboarding.pages.count
        let dots = (0..<count).map { $0 <= index ? "●" : "○" }.joined(separator: " ")
        var lines = [Line.centered(dots, .accent(glow: 0), in: width),
                     Line.centered("\(index + 1) / \(count)", .faint, in: width), .blank]
        lines += title(page.title, width: width)
        for (number, paragraph) in page.paragraphs.enumerated() {
            if number > 0 { lines.append(.blank) }
            lines += ScreenLayout.paragraph(paragraph.replacingOccurrences(of: "`", with: ""), measure: measure, width: width,
                                            tone: number == 0 ? .quote : .body)
        }
        if index == count - 1 {
            lines += [.blank, .blank, Line.centered([Span("  Let's go  ", .primary)], in: width)]
        }
        return lines
    }

    // MARK: Programs

    func programLines(width: Int, rows: Int) -> [Line] {
        var lines = title("Which programs should pause first?", width: width)
        let nameWidth = min(18, max(8, programs.map { CellWidth.of($0.name) }.max() ?? 8))
        let commandWidth = min(20, max(8, programs.map { CellWidth.of($0.command) }.max() ?? 8))
        let rowWidth = 4 + 2 + nameWidth + 2 + commandWidth + 2 + 13
        let indent = String(repeating: " ", count: max(1, (width - rowWidth) / 2))
        var rowsOfList: [Line] = programs.enumerated().map { index, program in
            let mark = program.selected ? Span("[✓] ", .accentDeep) : Span("[ ] ", program.installed ? .muted : .faint)
            let pointer = Span(index == cursor ? "› " : "  ", .accentDeep)
            let tone: Tone = program.installed ? (index == cursor ? .quote : .body) : .faint
            let name = TextWrap.truncate(program.name, width: nameWidth)
            let command = TextWrap.truncate(program.command, width: commandWidth)
            let state = program.installed ? "installed" : "not installed"
            return Line([Span(indent), pointer, mark, Span("\(program.glyph) ", program.installed ? .accent(glow: 0) : .faint),
                         Span(name.rightPadded(to: nameWidth) + "  ", tone),
                         Span(command.rightPadded(to: commandWidth) + "  ", .muted), Span(state, program.installed ? .muted : .faint)])
        }
        let another: Line
        if let field {
            another = Line([Span(indent), Span("› ", .accentDeep), Span("+ command: ", .body), Span(field, .quote), Span("█", .accent(glow: 0))])
        } else {
            another = Line([Span(indent), Span(cursor == programs.count ? "› " : "  ", .accentDeep),
                            Span("+ another command…", cursor == programs.count ? .quote : .muted)])
        }
        rowsOfList.append(another)
        // A window around the cursor when the list is taller than the room.
        let room = max(3, rows - 6)
        if rowsOfList.count > room {
            let start = min(max(0, min(cursor, rowsOfList.count - 1) - room / 2), rowsOfList.count - room)
            rowsOfList = Array(rowsOfList[start..<(start + room)])
        }
        lines += rowsOfList
        let count = selectedCount
        let label = count == 0 ? "  Continue  " : "  Continue with \(count) program\(count == 1 ? "" : "s")  "
        let onContinue = cursor == programs.count + 1
        lines += [.blank, Line.centered([Span(onContinue ? "› " : "  ", .accentDeep), Span(label, count == 0 ? .faint : .primary),
                                         Span("  ")], in: width)]
        return lines
    }

    // MARK: Interests

    func interestLines(width: Int, rows: Int) -> [Line] {
        var lines = title("What would you like to read in a pause?", width: width)
        lines.append(Line.centered("None chosen means all of them.", .muted, in: width))
        lines.append(.blank)
        let tagWidth = min(20, tags.map { CellWidth.of($0.tag) }.max() ?? 8)
        let indent = String(repeating: " ", count: max(1, (width - (tagWidth + 16)) / 2))
        var list: [Line] = tags.enumerated().map { index, entry in
            let chosen = chosenTags.contains(entry.tag)
            return Line([Span(indent), Span(index == tagCursor ? "› " : "  ", .accentDeep),
                         Span(chosen ? "[✓] " : "[ ] ", chosen ? .accentDeep : .muted),
                         Span(entry.tag.rightPadded(to: tagWidth) + "  ", index == tagCursor ? .quote : .body),
                         Span("\(entry.count) texts", .muted)])
        }
        let room = max(3, rows - 6)
        if list.count > room {
            let start = min(max(0, tagCursor - room / 2), list.count - room)
            list = Array(list[start..<(start + room)])
        }
        return lines + list
    }

    // MARK: Pause length

    func pauseLines(width: Int, measure: Int) -> [Line] {
        var lines = title("How long should a pause last?", width: width)
        let clock = MIGAKit.clock(pause)
        lines.append(Line.centered([Span("◀  ", pause > Self.pauseRange.lowerBound ? .accent(glow: 0) : .faint),
                                    Span(clock, .quote),
                                    Span("  ▶", pause < Self.pauseRange.upperBound ? .accent(glow: 0) : .faint)], in: width))
        lines.append(.blank)
        lines += ScreenLayout.paragraph("Ninety seconds is the classic length; a shorter pause still works, and you can change it for each program later.",
                                        measure: measure, width: width, tone: .muted)
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
        lines += [.blank, Line.centered(hook.line, .accentDeep, in: width), .blank]
        lines.append(Line.centered([Span("  Add the line  ", addHook ? .primary : .muted), Span("    "),
                                    Span("  Not now  ", addHook ? .muted : .primary)], in: width))
        return lines
    }

    // MARK: Ready

    func readyLines(width: Int, measure: Int) -> [Line] {
        var lines = title("Ready when you are", width: width)
        let answers = self.answers
        let names = answers.programs.map(\.name).joined(separator: ", ")
        let texts = answers.interests.isEmpty ? "all kinds" : answers.interests.joined(separator: ", ")
        let clock = MIGAKit.clock(answers.pause)
        var facts = [("MIGA pauses", names), ("Texts", texts), ("A pause lasts", clock)]
        if let hook {
            facts.append(("Shell", hook.present ? "\(hook.shownFile) runs miga init already"
                                  : answers.addHook ? "add the line to \(hook.shownFile)" : "not now (see miga init)"))
        }
        let labelWidth = facts.map { CellWidth.of($0.0) }.max() ?? 0
        let valueWidth = max(10, min(measure - labelWidth - 3, facts.map { CellWidth.of($0.1) }.max() ?? 0))
        let indent = String(repeating: " ", count: max(1, (width - labelWidth - 3 - valueWidth) / 2))
        for (label, value) in facts {
            let wrapped = TextWrap.lines(value, width: valueWidth)
            for (index, part) in wrapped.enumerated() {
                lines.append(Line([Span(indent + (index == 0 ? label : "").rightPadded(to: labelWidth) + "   ", .muted),
                                   Span(part, .body)]))
            }
        }
        lines += [.blank, .blank, Line.centered([Span("  Begin  ", .primary)], in: width)]
        return lines
    }
}
