import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGADesktop
@testable import MIGATestSupport

/// The hub and its stats in small and large windows: what does not fit
/// scrolls and says so, and the keys shorten before any goes.
@Suite struct HubFitTests {
    static let sizes = [TerminalSize(columns: 40, rows: 12), TerminalSize(columns: 60, rows: 20), TerminalSize(columns: 80, rows: 20),
                        TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 200, rows: 60)]
    let home = TemporaryDirectory()
    let time = ManualTime(wall: Date(timeIntervalSince1970: 1_800_000_000)) // 2027-01-15 08:00 UTC
    let tiles = ["Discord", "Firefox", "Slack", "Spotify", "Steam", "Thunderbird", "Quake"].map {
        HubScreen.Tile(command: $0.lowercased(), name: $0, glyph: ProgramCatalog.glyph(for: $0.lowercased()))
    }

    var environment: [String: String] {
        ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config", "XDG_DATA_HOME": home.path + "/data",
         "PATH": home.path + "/bin", "NO_COLOR": "1", "LANG": "C.UTF-8"]
    }

    func context(_ terminal: ScriptedTerminal, messages: MessageBox = MessageBox()) -> GatewayContext {
        GatewayContext(environment: environment, time: time, timeZone: .utc,
                       generator: SeededGenerator(seed: 7), terminal: terminal, notifier: RecordingNotifier(),
                       messages: { messages.append($0) }, gatewayIdentity: nil, processID: 4242, gatewayPath: "/opt/miga/bin/miga")
    }

    /// The text of the last screen drawn in full (a screen run starts with a cleared screen).
    func lastScreen(_ terminal: ScriptedTerminal) -> String {
        let drawn = terminal.written.components(separatedBy: "\u{1B}[2J").last ?? ""
        return drawn.replacingOccurrences(of: #"\x{1B}\[[0-9;?]*[A-Za-z]"#, with: "\n", options: .regularExpression)
    }

    // MARK: The footer

    @Test(arguments: sizes)
    func stats_and_quit_stay_in_the_footer_down_to_forty_columns(size: TerminalSize) {
        var hub = HubScreen(tiles: tiles, streak: Streak(current: 3, best: 7))
        hub.resize(size)
        let footer = hub.frame(size: size).lines.last { !$0.text.isEmpty }?.text ?? ""
        #expect(footer.contains("s stats · q quit"), "\(size): \(footer)")
        #expect(!footer.contains("…"), "\(size): \(footer)")
        #expect(footer.contains("Enter"), "\(size): \(footer)")
    }

    @Test(arguments: sizes)
    func every_hub_fits_the_window(size: TerminalSize) {
        let many = (1...40).map { HubScreen.Tile(command: "p\($0)", name: "Program \($0)", glyph: "◆") }
        let notice = "✓ Nothing switched off: Firefox, Discord and Thunderbird stay protected.\nPlease install zapp first."
        for tiles in [[], tiles, many] {
            for streak in [Streak(current: 0, best: 0), Streak(current: 0, best: 12), Streak(current: 3, best: 7)] {
                for notice in [nil, notice] {
                    var hub = HubScreen(tiles: tiles, streak: streak, notice: notice)
                    hub.resize(size)
                    let frame = hub.frame(size: size)
                    let wide = frame.lines.filter { $0.width > size.columns }.map(\.text)
                    #expect(wide.isEmpty, "wider than \(size): \(wide)")
                    #expect(frame.lines.count == size.rows)
                    let shown = tiles.filter { frame.text.contains(" \($0.name) ") }.count
                    if shown < tiles.count { #expect(frame.text.contains(" more row"), "\(size): no cue\n\(frame.text)") }
                }
            }
        }
    }

    // MARK: The stats

    /// A history of twelve programs (or `count`).
    func recordTwelvePrograms(_ count: Int = 12) throws {
        let store = try SessionStore(path: home.path + "/data/miga/miga.sqlite")
        let start = time.now() - 3 * 86_400
        var records: [SessionRecord] = []
        for program in 1...count {
            for index in 0..<(count + 1 - program) {
                let begun = start + Double(program * 100 + index)
                records.append(SessionRecord(id: "s-\(program)-\(index)", program: String(format: "program-%02d", program),
                                             startedAt: begun, endedAt: begun + 30, outcome: index % 2 == 0 ? .exit : .proceed,
                                             pausedSeconds: 30, quotes: ["a"]))
            }
        }
        _ = try store.insertMissing(records)
    }

    @Test func the_hubs_stats_reach_every_program_that_miga_stats_lists() throws {
        try recordTwelvePrograms()
        let downs = (0..<80).map { _ in ScriptedTerminal.Step.events([.key(.down)]) }
        let terminal = ScriptedTerminal(size: TerminalSize(columns: 80, rows: 24), time: time, script: downs)
        Home(context: context(terminal)).showStats(on: terminal)
        let first = terminal.written.components(separatedBy: "\u{1B}[?2026l").first ?? ""
        #expect(first.contains("↓ ") && first.contains(" more"), "the first screen hides programs without a cue")
        for program in 1...12 {
            let name = String(format: "program-%02d", program)
            #expect(terminal.written.contains(name), "\(name) is never shown")
        }
    }

    /// However many programs there are, `miga stats` lists each, and the
    /// hub's stats reach the last with End.
    @Test func every_program_is_listed_and_reached_however_many() throws {
        try recordTwelvePrograms(14)
        let store = try SessionStore(path: home.path + "/data/miga/miga.sqlite")
        let report = try StatsReport.compute(from: store, now: time.now(), timeZone: .utc)
        let text = StatsScreen.lines(report, width: 80).map(\.text).joined(separator: "\n")
        for program in 1...14 {
            #expect(text.contains(String(format: "program-%02d", program)), "program \(program) is not listed:\n\(text)")
        }
        #expect(!text.contains("more"), "\(text)")
        let terminal = ScriptedTerminal(size: TerminalSize(columns: 80, rows: 24), time: time, script: [.events([.key(.end)])])
        Home(context: context(terminal)).showStats(on: terminal)
        let ended = terminal.written.components(separatedBy: "\u{1B}[?2026l").dropFirst().first ?? ""
        #expect(ended.contains("program-14"), "End does not reach the last program")
    }

    @Test func page_down_and_end_reach_the_last_program_and_home_the_first() throws {
        try recordTwelvePrograms()
        func frames(_ keys: [Key]) -> [String] {
            let steps = keys.map { ScriptedTerminal.Step.events([.key($0)]) }
            let terminal = ScriptedTerminal(size: TerminalSize(columns: 80, rows: 24), time: time, script: steps)
            Home(context: context(terminal)).showStats(on: terminal)
            return terminal.written.components(separatedBy: "\u{1B}[?2026l")
        }
        let paged = frames(Array(repeating: .pageDown, count: 30))
        #expect(paged.dropFirst(1).joined().contains("program-12"), "Page Down never reaches the last program")
        let ended = frames([.end, .home])
        #expect(ended.dropFirst(1).first?.contains("program-12") == true, "End does not reach the last program")
        #expect(ended.dropFirst(2).first?.contains("program-01") == true, "Home does not come back to the first")
    }

    @Test(arguments: sizes)
    func the_hubs_stats_fit_and_page(size: TerminalSize) throws {
        try recordTwelvePrograms()
        let store = try SessionStore(path: home.path + "/data/miga/miga.sqlite")
        let report = try StatsReport.compute(from: store, now: time.now(), timeZone: .utc)
        var reader = StatsReader(report: report)
        reader.resize(size)
        var shown = Set<String>()
        for _ in 0..<40 {
            let frame = reader.frame(size: size)
            let wide = frame.lines.filter { $0.width > size.columns }.map(\.text)
            #expect(wide.isEmpty, "wider than \(size): \(wide)")
            #expect(frame.text.contains("q back"), "\(size)\n\(frame.text)")
            shown.formUnion(frame.lines.map(\.text))
            #expect(reader.handle(.space) == nil)
            reader.resize(size)
        }
        for program in 1...12 {
            #expect(shown.contains { $0.contains(String(format: "program-%02d", program)) }, "\(size): program \(program) is never shown")
        }
        #expect(reader.handle(.character("b")) == nil)
        #expect(reader.handle(.character("q")) == true)
        #expect(reader.handle(.escape) == true)
    }

    // MARK: A config problem

    @Test func a_config_problem_in_the_hub_says_its_cause_before_its_path() throws {
        try home.write("#!/bin/sh\nexit 0\n", to: "bin/fake")
        chmod(home.path + "/bin/fake", 0o755)
        try home.write("pasue = 30\n[programs.fake]\nname = \"Fake\"\n", to: "config/miga/config.toml")
        let terminal = ScriptedTerminal(size: TerminalSize(columns: 40, rows: 12), time: time,
                                        script: [.events([.key(.enter)]), .wait(1), ScriptedTerminal.keys("e"), .wait(5)])
        _ = Home(context: context(terminal)).hub(terminal: terminal)
        let screen = lastScreen(terminal)
        #expect(screen.contains("unknown setting"), "\(screen)")
    }

    static let problem = "`pause` must be a whole number of seconds from 1 to 3600, not \"ten\"; using the default "
        + "(/home/someone/.config/miga/config.toml:1:1)"

    /// A config problem wraps within the rows the hub has, its cause first,
    /// and is cut (with …) only when the rows run out; a row of programs stays.
    @Test(arguments: sizes)
    func a_config_problem_wraps_within_the_rows_the_hub_has(size: TerminalSize) {
        var hub = HubScreen(tiles: tiles, streak: Streak(current: 3, best: 7), standing: [Self.problem])
        hub.resize(size)
        let frame = hub.frame(size: size)
        let said = frame.lines.map { $0.text.trimmingWhitespace() }.joined(separator: " ")
        // (A path wider than the window is broken where it must be.)
        let place = frame.lines.map { $0.text.trimmingWhitespace() }.joined()
        #expect(said.contains("`pause` must be a whole number of") && place.contains("config.toml:1:1)"), "\(size):\n\(frame.text)")
        if size.rows >= 20 { #expect(said.contains("using the default"), "cut with rows to spare at \(size):\n\(frame.text)") }
        #expect(frame.text.contains("╰") && frame.text.contains("q quit"), "no programs or keys at \(size):\n\(frame.text)")
        #expect(frame.lines.count == size.rows)
    }
}
