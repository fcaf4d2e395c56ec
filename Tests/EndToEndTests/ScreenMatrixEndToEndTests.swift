import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore

/// Every screen in the terminals people have: sizes from 40×12 to 200×60,
/// TERM dumb, xterm (16 colours), xterm-256color and true colour, a C and a
/// UTF-8 locale, NO_COLOR, and COLORFGBG dark and light. Each screen (the
/// pause, an intention pause, setup, the hub, the hub's stats, `miga stats`)
/// runs in tmux and is checked for: what matters shown whole at every size;
/// the countdown, status and actions fixed across Deepen; only ASCII bytes
/// written under C; no control sequence at all under dumb; and in colour
/// every text cell at 4.5:1 and every graphic at 3:1 (`ContrastCheck`):
/// in 16 colours against both a white and a black default background with
/// xterm's standard palette, with 256 colours and more against the light
/// sheet or the dark terminal COLORFGBG names.
@Suite(.serialized, .endToEnd) struct ScreenMatrixEndToEndTests {
    let sandbox = Sandbox()

    static let sizes = [(40, 12), (60, 20), (80, 20), (80, 24), (200, 60)]

    struct Variant: CustomStringConvertible, Sendable {
        let term: String
        let trueColor: Bool
        let locale: String
        let noColor: Bool
        let dark: Bool

        var description: String {
            "TERM=\(term)\(trueColor ? " COLORTERM=truecolor" : "") LANG=\(locale)\(noColor ? " NO_COLOR=1" : "") \(dark ? "dark" : "light")"
        }

        var environment: [String: String] {
            var environment = ["TERM": term, "LANG": locale, "COLORFGBG": dark ? "15;0" : "0;15"]
            if trueColor { environment["COLORTERM"] = "truecolor" }
            if noColor { environment["NO_COLOR"] = "1" }
            return environment
        }

        var ascii: Bool { locale == "C" }

        /// The terminal's own colours the contrast rule holds against: in 16
        /// colours both a white and a black terminal (MIGA knows neither
        /// palette nor background); with 256 colours and more, the
        /// background COLORFGBG names. None without colours.
        var contrastGrounds: [ContrastCheck.Ground]? {
            if noColor { return nil }
            if term == "xterm" { return [ContrastCheck.white, ContrastCheck.black] }
            return [dark ? ContrastCheck.black : ContrastCheck.white]
        }

        /// The colours MIGA draws graphics in (the ring and its track), on a
        /// screen and inline: their ASCII marks are graphics too.
        var graphicColours: [ContrastCheck.Colour] {
            let capabilities = TerminalCapabilities.detect(environment: environment)
            return [true, false].flatMap { fullScreen in
                let palette = Palette(capabilities, fullScreen: fullScreen)
                return ((0...4).map { Tone.accent(glow: $0) } + [.track]).map { ContrastCheck.Style.after(palette.sgr($0)).fg }
            }
        }
    }

    static let variants: [Variant] = ["xterm", "xterm-256color", "truecolor"].flatMap { term in
        ["C", "C.UTF-8"].flatMap { locale in
            [false, true].flatMap { noColor in
                [false, true].map { dark in
                    Variant(term: term == "truecolor" ? "xterm-256color" : term, trueColor: term == "truecolor",
                            locale: locale, noColor: noColor, dark: dark)
                }
            }
        }
    }.filter { variant in
        // MIGA_MATRIX_ONLY="TERM=xterm-256color LANG=C.UTF-8 light": the variants whose description holds it, to look at one.
        ProcessInfo.processInfo.environment["MIGA_MATRIX_ONLY"].map { variant.description.contains($0) } ?? true
    }

    init() throws {
        // A lived-in history: programs to list, days to chart.
        try FileManager.default.createDirectory(atPath: sandbox.root + "/data/miga", withIntermediateDirectories: true)
        for name in ["discord", "firefox", "steam", "telegram-desktop", "spotify", "thunderbird", "signal-desktop", "slack",
                     "code", "vlc", "gimp", "obs"] {
            try sandbox.program(name, "#!/bin/sh\nexit 0\n")
        }
        let store = try SessionStore(path: sandbox.storePath)
        var records: [SessionRecord] = []
        let now = Date()
        for (index, name) in ["discord", "firefox", "steam", "telegram-desktop", "spotify", "thunderbird", "signal-desktop",
                              "slack", "code", "vlc", "gimp", "obs"].enumerated() {
            for day in 0..<(3 + index) {
                let end = now.addingTimeInterval(-Double(day) * 86_400 - 3600)
                records.append(SessionRecord(id: "\(name)-\(day)", program: name, startedAt: end - 40, endedAt: end,
                                             outcome: day % 3 == 0 ? .exit : .proceed, pausedSeconds: 40, kind: .breathe))
            }
        }
        try store.insertMissing(records)
        let protect = try run(migaBinary, ["protect", "argv-dump", "discord", "firefox", "steam"], environment: sandbox.environment)
        #expect(protect.status == 0, "\(protect.error)")
        try sandbox.config((sandbox.read("config/miga/config.toml") ?? "") + "\n[programs.intent]\npause_kinds = [\"intention\"]\n")
        try sandbox.program("intent", "#!/bin/sh\nexit 0\n")
    }

    /// A tmux window running `arguments`, its raw output recorded.
    func start(_ arguments: [String], _ variant: Variant, size: (Int, Int) = (80, 24), named name: String) throws -> (Tmux, String) {
        let raw = sandbox.root + "/\(name).raw"
        let tmux = try Tmux(columns: size.0, rows: size.1, command: try sandbox.migaScript(arguments, named: name + ".sh"),
                            environment: sandbox.environment.merging(variant.environment) { $1 })
        _ = try tmux.tmux(["pipe-pane", "-o", "cat >> " + shellQuoted(raw)])
        return (tmux, raw)
    }

    /// The screen once it has stopped changing (a screen without motion,
    /// redrawn for a new size), and `condition` holds.
    @discardableResult
    func settled(_ tmux: Tmux, _ what: String, _ condition: (String) -> Bool) throws -> String {
        var last = ""
        return try eventually(what) {
            let screen = try tmux.screen()
            defer { last = screen }
            return screen == last && condition(screen) ? screen : nil
        }
    }

    func resize(_ tmux: Tmux, _ size: (Int, Int)) throws {
        _ = try tmux.tmux(["resize-window", "-x", "\(size.0)", "-y", "\(size.1)"])
    }

    /// The checks every screen gets, on what is on screen now. `exempt`:
    /// text of a control that does not work yet, which may stay dim.
    func check(_ tmux: Tmux, _ variant: Variant, _ what: String, exempt: [String] = []) throws {
        guard let grounds = variant.contrastGrounds else { return }
        let problems = ContrastCheck.problems(in: try tmux.screenWithEscapes(), on: grounds,
                                              graphicColours: variant.graphicColours, exempt: exempt)
        #expect(problems.isEmpty, "\(what), \(variant): \(problems.count) cells, \(problems.prefix(5))")
    }

    func checkRaw(_ raw: String, _ variant: Variant, _ what: String) {
        guard variant.ascii, let bytes = sandbox.bytes(String(raw.dropFirst(sandbox.root.count + 1))) else { return }
        let wide = bytes.filter { $0 >= 0x80 }
        #expect(wide.isEmpty, "\(what), \(variant): \(wide.count) bytes that are not ASCII")
    }

    @Test(arguments: variants)
    func the_pause_holds_its_shape_at_every_size(variant: Variant) throws {
        let (tmux, raw) = try start(["gate", "--pause", "600", "argv-dump"], variant, named: "pause")
        for size in Self.sizes {
            let clock = try tmux.screen().clock
            try resize(tmux, size)
            let screen = try tmux.waitForScreen("the pause at \(size)") { screen in
                // Drawn for this size: the status centred in its width, and a
                // tick of the countdown since the resize (tmux pads the old
                // frame to the new size until the pause redraws).
                screen.rows == size.1 && screen.contains("Deepen the Pause") && screen.isCentred("Proceed opens", in: size.0)
                    && screen.clock != clock
            }
            // The actions whole, at every size.
            #expect(screen.contains("[E] Exit to Focus") && screen.contains("[P] Proceed to Argv-dump"), "\(size), \(variant):\n\(screen)")
            try check(tmux, variant, "pause \(size)", exempt: ["[P] Proceed"])
            // Deepen never moves the countdown, the status or the actions.
            if size == (80, 24) || size == (60, 20) || size == (80, 20) {
                let rows = try anchors(tmux.screen())
                for round in 1...3 {
                    let before = try tmux.screen()
                    try tmux.send("d")
                    let after = try tmux.waitForScreen("deepen \(round)") { $0 != before && $0.contains("Exit to Focus") }
                    #expect(anchors(after) == rows, "\(size), \(variant): rows moved on Deepen\n\(before)\n---\n\(after)")
                }
            }
        }
        try tmux.send("e")
        #expect(try sandbox.status(of: "pause.sh") == 0)
        checkRaw(raw, variant, "pause")
    }

    /// Rows of the actions and of the status line (the line above the actions, two up).
    func anchors(_ screen: String) -> [Int] {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let actions = lines.firstIndex { $0.contains("Exit to Focus") } ?? -1
        let clock = lines.firstIndex { $0.range(of: #"\d+:\d\d"#, options: .regularExpression) != nil } ?? -1
        return [actions, clock]
    }

    @Test(arguments: variants)
    func the_other_screens_fit_and_speak_the_terminals_language(variant: Variant) throws {
        // An intention pause: the question on screen from the start.
        let (pause, pauseRaw) = try start(["gate", "--pause", "600", "intent"], variant, named: "intent")
        for size in [(40, 12), (80, 24)] {
            try resize(pause, size)
            try pause.waitForScreen("the question at \(size)") { $0.rows == size.1 && $0.isCentred("What", in: size.0) }
            try check(pause, variant, "intention \(size)", exempt: ["[P] Proceed"])
        }
        try pause.send("C-c")
        #expect(try sandbox.status(of: "intent.sh") == 0)
        checkRaw(pauseRaw, variant, "intention")

        // The hub, and its stats: every size, then every program reachable.
        let (hub, hubRaw) = try start([], variant, named: "hub")
        for size in Self.sizes {
            try resize(hub, size)
            let screen = try settled(hub, "the hub at \(size)") { $0.rows == size.1 && $0.isCentred("quit", in: size.0) }
            #expect(screen.contains("q quit"), "\(size), \(variant):\n\(screen)")
            try check(hub, variant, "hub \(size)")
        }
        try hub.send("s")
        for size in Self.sizes {
            try resize(hub, size)
            try settled(hub, "the hub's stats at \(size)") { $0.rows == size.1 && $0.contains("Conscious") }
            try check(hub, variant, "hub stats \(size)")
        }
        try hub.send("q")
        checkRaw(hubRaw, variant, "hub")

        // Setup (its programs page: programs are protected already) at every size.
        let (setup, setupRaw) = try start(["setup"], variant, named: "setup")
        for size in Self.sizes {
            try resize(setup, size)
            try setup.waitForScreen("setup at \(size)") { $0.rows == size.1 && $0.isCentred("MIGA setup", in: size.0) }
            try check(setup, variant, "setup \(size)")
        }
        try setup.send("C-c")
        checkRaw(setupRaw, variant, "setup")

        // `miga stats`, in the flow of the terminal.
        for size in [(40, 12), (80, 24)] {
            let (stats, statsRaw) = try start(["stats"], variant, size: size, named: "stats-\(size.0)")
            try stats.waitForScreen("the stats") { _ in (sandbox.read("stats-\(size.0).sh.status") != nil) }
            try check(stats, variant, "stats \(size)")
            checkRaw(statsRaw, variant, "stats \(size)")
        }
    }

    @Test func a_terminal_that_lies_answers_late_or_shrinks_to_one_cell_gets_a_sane_pause_and_is_restored() throws {
        // TERM unset, COLORFGBG garbage, COLUMNS and LINES lying about the size.
        let script = try sandbox.migaScript(["gate", "--pause", "600", "argv-dump"], named: "odd.sh")
        let tmux = try Tmux(columns: 80, rows: 24, command: "env -u TERM " + script,
                            environment: sandbox.environment.merging(["COLORFGBG": "15;0;x", "COLUMNS": "300", "LINES": "100",
                                                                      "LANG": "C.UTF-8"]) { $1 })
        let first = try tmux.waitForScreen("the pause in the window's own size") {
            $0.contains("[E] Exit to Focus") && $0.isCentred("Proceed opens", in: 80)
        }
        // A late answer to the background question, one with garbage, and a
        // DA1 answer, arriving as input: "dede/eeee" holds a d and an e,
        // which must neither Deepen nor Exit.
        for answer in ["\u{1B}]11;rgb:dede/eeee/dddd\u{1B}\\", "\u{1B}]11;rgb:zz/q/e\u{07}", "\u{1B}[?62;22c"] {
            _ = try tmux.tmux(["send-keys", "-H"] + answer.utf8.map { String(format: "%02x", $0) })
        }
        let quote = first.split(separator: "\n").filter { $0.contains("\"") || $0.contains("“") }
        let clock = first.clock
        let later = try tmux.waitForScreen("a tick after the answers") { $0.clock != clock }
        #expect(later.split(separator: "\n").filter { $0.contains("\"") || $0.contains("“") } == quote, "an answer was read as d:\n\(later)")
        #expect(sandbox.read("odd.sh.status") == nil, "an answer was read as e")
        // Down to one cell mid-countdown, and back.
        try resize(tmux, (1, 1))
        try tmux.waitForScreen("one cell") { $0.rows == 1 }
        try resize(tmux, (80, 24))
        try tmux.waitForScreen("the pause again") { $0.contains("[E] Exit to Focus") && $0.isCentred("Proceed opens", in: 80) }
        try tmux.send("e")
        #expect(try sandbox.status(of: "odd.sh") == 0)
        // The terminal as it was: the main screen, the cursor shown.
        #expect(try tmux.value("#{alternate_on}") == "0")
        #expect(try tmux.value("#{cursor_flag}") == "1")
        #expect(try sandbox.sessions().last?.outcome == .exit)
    }

    @Test func a_dumb_terminal_gets_no_control_sequence_on_any_screen() throws {
        let dumb = Variant(term: "dumb", trueColor: false, locale: "C.UTF-8", noColor: false, dark: false)
        let (pause, raw) = try start(["gate", "--pause", "2", "argv-dump", "--", "opened"], dumb, named: "dumb")
        try pause.waitForScreen("the prompt") { $0.contains("(then Enter):") }
        try pause.send("p", "Enter")
        #expect(try sandbox.status(of: "dumb.sh") == 7)
        #expect(sandbox.read("argv") == "opened\0")
        #expect(try sandbox.sessions().contains { $0.outcome == .proceed && $0.program == "argv-dump" })
        let (hub, hubRaw) = try start([], dumb, named: "dumb-hub")
        #expect(try sandbox.status(of: "dumb-hub.sh") == 64)
        try hub.waitForScreen("the word on what works") { $0.contains("TERM=dumb") }
        let (stats, statsRaw) = try start(["stats"], dumb, named: "dumb-stats")
        // The window lives as long as its Tmux: kept until the stats are out.
        let statsStatus = try sandbox.status(of: "dumb-stats.sh")
        #expect(statsStatus == 0)
        withExtendedLifetime(stats) {}
        // Dumb and a C locale: plain ASCII lines, Deepen and Exit as letters.
        let dumbC = Variant(term: "dumb", trueColor: false, locale: "C", noColor: false, dark: false)
        // In a window 40 columns wide: lines broken between words, never inside one.
        let (plain, plainRaw) = try start(["gate", "--pause", "600", "argv-dump"], dumbC, size: (40, 20), named: "dumb-c")
        try plain.waitForScreen("the keys, each whole") { $0.contains("d Deepen the Pause\n(then Enter)") }
        try plain.send("d", "Enter")
        try plain.waitForScreen("a second quote") { $0.components(separatedBy: "Pause: 10:00").count == 3 }
        try plain.send("e", "Enter")
        #expect(try sandbox.status(of: "dumb-c.sh") == 0)
        checkRaw(plainRaw, dumbC, "the line pause")
        // The pause before switching protection off, as lines too; Exit keeps it.
        let (keep, keepRaw) = try start(["unprotect", "argv-dump"], dumb, named: "dumb-unprotect")
        try keep.waitForScreen("the keys") { $0.contains("(then Enter)") }
        try keep.send("e", "Enter")
        #expect(try sandbox.status(of: "dumb-unprotect.sh") == 0)
        #expect(sandbox.read("config/miga/config.toml")?.contains("[programs.argv-dump]") == true)
        for file in [raw, hubRaw, statsRaw, plainRaw, keepRaw] {
            let bytes = try #require(FileManager.default.contents(atPath: file))
            let controls = bytes.filter { ($0 < 0x20 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }
            #expect(controls.isEmpty, "\(file): \(controls.count) control bytes: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
    }
}

extension String {
    /// The countdown's figure on a captured screen ("9:58").
    var clock: Substring? {
        firstMatch(of: /\d+:\d\d/).map { self[$0.range] }
    }

    /// The rows of a captured screen (tmux ends the last with a newline of its own).
    var rows: Int { split(separator: "\n", omittingEmptySubsequences: false).count - (hasSuffix("\n") ? 1 : 0) }

    /// Whether the line holding `text` is centred in `width` columns (to a column or two).
    func isCentred(_ text: String, in width: Int) -> Bool {
        guard let line = split(separator: "\n").first(where: { $0.contains(text) }) else { return false }
        let leading = line.prefix { $0 == " " }.count
        let length = CellWidth.of(line.trimmingCharacters(in: .whitespaces))
        return abs(2 * leading + length - width) <= 2
    }
}

/// WCAG contrast of a captured screen (`tmux capture-pane -e`), cell by
/// cell, as xterm would show it (its standard 16 colours, and its 256-colour
/// cube and greys) on a terminal whose own colours are `grounds`: text at
/// 4.5:1 or more against the background it is drawn on (the light sheet,
/// where one is painted), graphics (the ring, its track, the bar, a card's
/// border, a program's symbol) at 3:1 or more, and a shape drawn in
/// background colour alone (a button) at 3:1 against the screen around it.
enum ContrastCheck {
    typealias RGB = (Int, Int, Int)

    /// A terminal's own colours: what a cell shows that names none.
    struct Ground {
        let background: RGB
        let foreground: RGB
        let name: String
    }

    static let white = Ground(background: (255, 255, 255), foreground: (0, 0, 0), name: "white")
    static let black = Ground(background: (0, 0, 0), foreground: (255, 255, 255), name: "black")

    static let xterm: [RGB] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    enum Colour: Equatable { case standard, index(Int), rgb(Int, Int, Int) }

    struct Style: Equatable {
        var fg = Colour.standard, bg = Colour.standard
        var reverse = false

        mutating func apply(_ codes: [Int]) {
            var index = 0
            while index < codes.count {
                let code = codes[index]
                switch code {
                case 0: self = Style()
                case 7: reverse = true
                case 27: reverse = false
                case 30...37: fg = .index(code - 30)
                case 90...97: fg = .index(code - 90 + 8)
                case 39: fg = .standard
                case 40...47: bg = .index(code - 40)
                case 100...107: bg = .index(code - 100 + 8)
                case 49: bg = .standard
                case 38, 48:
                    let colour: Colour
                    if index + 2 < codes.count, codes[index + 1] == 5 {
                        colour = .index(codes[index + 2])
                        index += 2
                    } else if index + 4 < codes.count, codes[index + 1] == 2 {
                        colour = .rgb(codes[index + 2], codes[index + 3], codes[index + 4])
                        index += 4
                    } else {
                        colour = .standard
                    }
                    if code == 38 { fg = colour } else { bg = colour }
                default: break
                }
                index += 1
            }
        }

        /// The style after the SGR sequences in `text` (as MIGA's palette writes them).
        static func after(_ text: String) -> Style {
            var style = Style()
            for sequence in text.split(separator: "\u{1B}") where sequence.hasPrefix("[") && sequence.hasSuffix("m") {
                style.apply(sequence.dropFirst().dropLast().split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 })
            }
            return style
        }
    }

    /// xterm's colour for `colour` (its 256-colour cube: levels 0, 95, 135, 175, 215, 255; greys 8 + 10n).
    static func rgb(_ colour: Colour, standard: RGB) -> RGB {
        switch colour {
        case .standard: standard
        case .index(let n) where n < 16: xterm[n]
        case .index(let n) where n >= 232: (8 + 10 * (n - 232), 8 + 10 * (n - 232), 8 + 10 * (n - 232))
        case .index(let n):
            {
                let levels = [0, 95, 135, 175, 215, 255]
                let m = n - 16
                return (levels[m / 36], levels[(m / 6) % 6], levels[m % 6])
            }()
        case .rgb(let r, let g, let b): (r, g, b)
        }
    }

    /// Marks rather than words: Braille (the ring), box drawing and blocks
    /// (bars, cards, the heatmap), shapes, arrows and symbols (a program's
    /// glyph); and under a C locale their ASCII stand-ins, when drawn in one
    /// of the colours the palette gives graphics.
    static func isGraphic(_ scalar: Unicode.Scalar, _ style: Style, graphicColours: [Colour]) -> Bool {
        let graphicRanges: [ClosedRange<UInt32>] = [0x2190...0x21FF, 0x2261...0x2261, 0x2500...0x27BF, 0x2800...0x28FF]
        if graphicRanges.contains(where: { $0.contains(scalar.value) }) { return true }
        return "o.=-#|+*<>^v".unicodeScalars.contains(scalar) && graphicColours.contains(style.fg)
    }

    /// Each cell below its ratio, described. `exempt`: text that starts a run
    /// of cells in one style that need not reach the ratio (a control that
    /// does not work yet, such as Proceed before zero).
    static func problems(in screen: String, on grounds: [Ground], graphicColours: [Colour], exempt: [String] = []) -> [String] {
        var problems: [String] = []
        // tmux writes each cell's style as a change from the cell before,
        // across line ends: a style goes on into the next row.
        var style = Style()
        for (row, line) in screen.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var cells: [(scalar: Unicode.Scalar, style: Style)] = []
            var scalars = Array(line.unicodeScalars)[...]
            while let scalar = scalars.popFirst() {
                if scalar == "\u{1B}", scalars.first == "[" {
                    scalars.removeFirst()
                    var parameters = ""
                    while let next = scalars.popFirst(), !("@"..."~").contains(next) { parameters.unicodeScalars.append(next) }
                    style.apply(parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 })
                    continue
                }
                cells.append((scalar, style))
            }
            let plain = String(String.UnicodeScalarView(cells.map(\.scalar)))
            var exempted = Set<Int>()
            for text in exempt {
                var from = plain.startIndex
                while let found = plain.range(of: text, range: from..<plain.endIndex) {
                    var index = plain.unicodeScalars.distance(from: plain.unicodeScalars.startIndex, to: found.lowerBound)
                    let runStyle = cells[index].style
                    while index < cells.count, cells[index].style == runStyle {
                        exempted.insert(index)
                        index += 1
                    }
                    from = found.upperBound
                }
            }
            for ground in grounds {
                func resolved(_ style: Style) -> (fg: RGB, bg: RGB) {
                    let (fg, bg) = (rgb(style.fg, standard: ground.foreground), rgb(style.bg, standard: ground.background))
                    return style.reverse ? (bg, fg) : (fg, bg)
                }
                // The screen's own background: that of most of its blank cells.
                let blanks = cells.filter { $0.scalar == " " }.map { resolved($0.style).bg }
                let screenColour = blanks.max { a, b in
                    blanks.filter { $0 == a }.count < blanks.filter { $0 == b }.count
                } ?? ground.background
                for (index, cell) in cells.enumerated() where !exempted.contains(index) {
                    let (fg, bg) = resolved(cell.style)
                    let (ratio, needed): (Double, Double)
                    if cell.scalar == " " {
                        guard bg != screenColour else { continue }
                        (ratio, needed) = (Contrast.ratio(bg, screenColour), 3)
                    } else {
                        let graphic = isGraphic(cell.scalar, cell.style, graphicColours: graphicColours)
                        (ratio, needed) = (Contrast.ratio(fg, bg), graphic ? 3 : 4.5)
                    }
                    if ratio < needed {
                        problems.append("row \(row) \"\(cell.scalar)\" \(String(format: "%.2f", ratio)):1 on \(ground.name)")
                    }
                }
            }
        }
        return problems
    }
}
