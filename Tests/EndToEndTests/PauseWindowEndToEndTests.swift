import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal

/// The window MIGA opens for a pause launched from the menu (no terminal), in
/// real emulators on a virtual display of a laptop's size: titled for the
/// program, with room for the pause, and the ring drawn, in its dots where
/// the window's font has them, else in ASCII.
@Suite(.serialized, .endToEnd) struct PauseWindowEndToEndTests {
    let sandbox = Sandbox()
    let server: NotificationServer
    let title = "MIGA — a pause before Firefox ESR"
    /// xterm's size when nothing asks for another (80×24 cells of its 6×13 font).
    let defaultXterm = (width: 484, height: 316)
    /// Room for the pause: the ring at its usual size, the quote unhurried.
    let roomy = TerminalSize(columns: 90, rows: 28)

    init() throws {
        server = try NotificationServer(folder: sandbox.root + "/server", screen: "1280x800x24")
        try sandbox.program("firefox-esr", "#!/bin/sh\nexit 0\n")
        try sandbox.config("[programs.firefox-esr]\nname = \"Firefox ESR\"\n")
    }

    var environment: [String: String] {
        sandbox.environment.merging(["DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": server.busAddress]) { $1 }
    }

    /// Debian's `x-terminal-emulator` in this sandbox: a link to the
    /// alternative's link, which leads to `target`.
    func alternative(leadingTo target: String) throws {
        let folder = sandbox.root + "/alternatives"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/x-terminal-emulator", withDestinationPath: target)
        try FileManager.default.createSymbolicLink(atPath: sandbox.root + "/bin/x-terminal-emulator",
                                                   withDestinationPath: folder + "/x-terminal-emulator")
    }

    /// As the menu's entry starts it: the gateway, without a terminal, asked for a window.
    func launchFromTheMenu(terminal: String, _ extra: [String: String] = [:]) throws {
        let result = try run(migaBinary, ["gate", "--window", "--detach", "firefox-esr"],
                             environment: environment.merging(["TERMINAL": terminal].merging(extra) { $1 }) { $1 })
        #expect(result.status == 0, "\(result.error)")
    }

    @Test func debians_alternative_leading_to_xterm_opens_a_titled_roomy_window_with_the_ring() throws {
        try alternative(leadingTo: "/usr/bin/uxterm")
        try launchFromTheMenu(terminal: "x-terminal-emulator")
        let window = try pauseWindow()
        #expect(window.width > defaultXterm.width && window.height > defaultXterm.height, "\(window)")
        let cells = try windowCells()
        #expect(cells == roomy)
        try expectTheRing(in: window, cells: cells, screenshot: "xterm")
        try closeTheWindow()
    }

    @Test func kitty_opens_a_titled_roomy_window_with_the_ring() throws {
        // No GPU here: Mesa's software renderer.
        try launchFromTheMenu(terminal: "kitty", ["LIBGL_ALWAYS_SOFTWARE": "1"])
        let window = try pauseWindow()
        let cells = try windowCells()
        #expect(cells == roomy)
        try expectTheRing(in: window, cells: cells, screenshot: "kitty")
        try closeTheWindow()
    }

    /// An alternative MIGA does not know takes only -T and -e, and its font
    /// may have no Braille: the pause there draws its ring in ASCII.
    @Test func an_unknown_alternative_gets_the_title_and_the_ascii_ring() throws {
        try sandbox.program("strange-term", "#!/bin/sh\nexec /usr/bin/xterm \"$@\"\n")
        try alternative(leadingTo: sandbox.root + "/bin/strange-term")
        try launchFromTheMenu(terminal: "x-terminal-emulator")
        let window = try pauseWindow()
        try expectTheRing(in: window, cells: try windowCells(), screenshot: "ascii")
        try closeTheWindow()
    }

    // MARK: The window on the display

    struct Window: CustomStringConvertible {
        let id: String
        let width: Int
        let height: Int
        var description: String { "\(id) \(width)x\(height)" }
    }

    /// The top-level window titled for the pause, once it is on the display.
    func pauseWindow() throws -> Window {
        let display = ["DISPLAY": server.display, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        var seen = ""
        do {
            return try eventually("the pause's window") {
                let tree = try run("/usr/bin/xwininfo", ["-root", "-children"], environment: display).output
                seen = tree
                for line in tree.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let id = words.first, id.hasPrefix("0x") else { continue }
                    // xterm names its window in COMPOUND_TEXT, kitty in UTF-8 too: xprop reads either.
                    let names = try run("/usr/bin/xprop", ["-id", String(id), "WM_NAME", "_NET_WM_NAME"], environment: display).output
                    seen += names
                    guard names.contains("\"\(title)\"") else { continue }
                    // Its size once it is on the screen, as the emulator laid it out.
                    let state = try run("/usr/bin/xwininfo", ["-id", String(id)], environment: display).output
                    seen += state
                    guard state.contains("Map State: IsViewable") else { return nil }
                    func value(_ name: String) -> Int? {
                        state.split(separator: "\n").first { $0.contains(name + ":") }
                            .flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
                    }
                    guard let width = value("Width"), let height = value("Height") else { return nil }
                    return Window(id: String(id), width: width, height: height)
                }
                return nil
            }
        } catch {
            throw Timeout(what: "a window titled \(title)", last: seen)
        }
    }

    /// The cells of the terminal the gateway in the window draws on.
    func windowCells() throws -> TerminalSize {
        try eventually("the gateway in the window") {
            for pid in processes(named: "miga", environment: sandbox.root) {
                guard let device = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/0"),
                      device.hasPrefix("/dev/pts/") else { continue }
                let size = try run("/bin/stty", ["-F", device, "size"]).output.split(separator: " ")
                    .compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                if size.count == 2 { return TerminalSize(columns: size[1], rows: size[0]) }
            }
            return nil
        }
    }

    /// Closes the window as its close button would, and waits for the pause to end with it.
    func closeTheWindow() throws {
        for pid in processes(named: "miga", environment: sandbox.root) { kill(pid, SIGHUP) }
        try eventually("the pause to end with its window") { try sandbox.sessions().first { $0.outcome != .open } }
    }

    // MARK: The ring on the screenshot

    /// Where the pause draws its ring's dots in a terminal of `cells`: the
    /// quote's room is reserved by the size alone, so any quote will do;
    /// the line under the header says this is the first launch today.
    func ringCells(_ cells: TerminalSize) -> [(column: Int, row: Int)] {
        let quote = Quote(id: "e2e", text: "Be here.", source: "MIGA", tags: [])
        let session = PauseSession(programName: "Firefox ESR", length: 30, quote: quote, at: 0)
        let frame = PauseScreen.frame(session, size: cells, look: PauseLook(colors: .ansi16, context: ["first time today"]))
        var found: [(column: Int, row: Int)] = []
        for (row, line) in frame.lines.enumerated() {
            var column = 0
            for character in line.text {
                if let scalar = character.unicodeScalars.first, (0x2801...0x28FF).contains(scalar.value) { found.append((column, row)) }
                column += CellWidth.of(String(character))
            }
        }
        return found
    }

    /// Polls screenshots of `window` until most of the ring's cells hold
    /// something other than the background; keeps the last one as a PNG
    /// when MIGA_SCREENSHOTS names a folder.
    func expectTheRing(in window: Window, cells: TerminalSize, screenshot name: String) throws {
        let ring = ringCells(cells)
        try #require(ring.count > 20, "the layout places a ring at \(cells)")
        let (cellWidth, cellHeight) = (window.width / cells.columns, window.height / cells.rows)
        let (left, top) = ((window.width - cellWidth * cells.columns) / 2, (window.height - cellHeight * cells.rows) / 2)
        let file = sandbox.root + "/\(name).ppm"
        var inked = 0.0
        defer {
            if let folder = ProcessInfo.processInfo.environment["MIGA_SCREENSHOTS"] {
                _ = try? run("/usr/bin/convert", [file, folder + "/pause-window-\(name).png"])
            }
        }
        do {
            try eventually("the ring drawn in the window", timeout: 20) { () -> Bool? in
                let grab = try run("/usr/bin/import", ["-window", window.id, "-depth", "8", file],
                                   environment: ["DISPLAY": server.display, "PATH": "/usr/bin:/bin"])
                guard grab.status == 0, let image = PortablePixmap(FileManager.default.contents(atPath: file)) else { return nil }
                let background = image.mostCommonColour
                // Inside each cell, off its edges: a neighbour's glyph may reach a pixel over.
                let drawn = ring.filter { cell in
                    let x = left + cell.column * cellWidth, y = top + cell.row * cellHeight
                    return image.hasColour(otherThan: background, x: (x + 1, x + cellWidth - 1), y: (y + 1, y + cellHeight - 1))
                }
                inked = Double(drawn.count) / Double(ring.count)
                return inked >= 0.8 ? true : nil
            }
        } catch {
            Issue.record("the ring's cells in \(name) are \(Int(inked * 100))% drawn (\(window), \(cells))")
        }
    }
}

/// A screenshot in netpbm's binary RGB form (P6, 8 bits a channel).
struct PortablePixmap {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    init?(_ data: Data?) {
        guard let bytes = data.map(Array.init) else { return nil }
        // The header: P6, width, height, largest value, each after white space; then one white space byte.
        var fields: [String] = []
        var index = 0
        while fields.count < 4, index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
            var field = ""
            while index < bytes.count, ![0x20, 0x0A, 0x09, 0x0D].contains(bytes[index]) { field.append(Character(UnicodeScalar(bytes[index]))); index += 1 }
            fields.append(field)
        }
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "255",
              bytes.count >= index + 1 + width * height * 3 else { return nil }
        self.width = width
        self.height = height
        pixels = Array(bytes[(index + 1)..<(index + 1 + width * height * 3)])
    }

    func colour(x: Int, y: Int) -> Int {
        let at = (y * width + x) * 3
        return Int(pixels[at]) << 16 | Int(pixels[at + 1]) << 8 | Int(pixels[at + 2])
    }

    var mostCommonColour: Int {
        var counts: [Int: Int] = [:]
        for y in stride(from: 0, to: height, by: 2) { for x in stride(from: 0, to: width, by: 2) { counts[colour(x: x, y: y), default: 0] += 1 } }
        return counts.max { $0.value < $1.value }?.key ?? 0
    }

    /// Whether any pixel in the box from `x` and `y` (each lower bound included, upper excluded) is not `background`.
    func hasColour(otherThan background: Int, x: (Int, Int), y: (Int, Int)) -> Bool {
        let columns = max(0, x.0)..<max(max(0, x.0), min(width, x.1)), rows = max(0, y.0)..<max(max(0, y.0), min(height, y.1))
        return rows.contains { row in columns.contains { colour(x: $0, y: row) != background } }
    }
}
