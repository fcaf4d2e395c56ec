import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGADesktop

@Suite struct HubScreenTests {
    let tiles = ["Discord", "Firefox", "Slack", "Spotify", "Steam", "Thunderbird", "Quake"].map {
        HubScreen.Tile(command: $0.lowercased(), name: $0, glyph: ProgramCatalog.glyph(for: $0.lowercased()))
    }

    @Test func arrows_move_through_the_grid_and_enter_opens() {
        var hub = HubScreen(tiles: tiles, streak: Streak(current: 3, best: 7))
        hub.resize(TerminalSize(columns: 80, rows: 24)) // four columns
        _ = hub.handle(.right)
        _ = hub.handle(.down)
        #expect(hub.selection == 5)
        _ = hub.handle(.down)
        #expect(hub.selection == 5)
        _ = hub.handle(.up)
        #expect(hub.selection == 1)
        #expect(hub.handle(.enter) == .open("firefox"))
    }

    @Test func a_letter_jumps_to_the_next_program_with_it_and_s_and_q_are_the_hubs() {
        var hub = HubScreen(tiles: tiles, streak: Streak(current: 0, best: 0))
        _ = hub.handle(.character("t"))
        #expect(hub.selection == 5)
        _ = hub.handle(.character("S"))
        #expect(hub.selection == 2)
        _ = hub.handle(.character("S"))
        #expect(hub.selection == 3)
        #expect(hub.handle(.character("s")) == .stats)
        #expect(hub.handle(.character("q")) == .quit)
        #expect(hub.handle(.escape) == .quit)
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func snapshot_of_the_hub(columns: Int, rows: Int) throws {
        var hub = HubScreen(tiles: tiles, streak: Streak(current: 3, best: 7))
        let size = TerminalSize(columns: columns, rows: rows)
        hub.resize(size)
        _ = hub.handle(.right)
        let frame = hub.frame(size: size)
        #expect(frame.lines.allSatisfy { $0.width <= columns })
        #expect(frame.text.contains("3-day streak"))
        try assertSnapshot(frame.text, named: "hub-\(columns)x\(rows)")
    }

    @Test func many_programs_scroll_with_the_selection() {
        let many = (1...40).map { HubScreen.Tile(command: "p\($0)", name: "Program \($0)", glyph: "◆") }
        var hub = HubScreen(tiles: many, streak: Streak(current: 0, best: 0))
        let size = TerminalSize(columns: 80, rows: 24)
        hub.resize(size)
        for _ in 0..<9 { _ = hub.handle(.down) }
        let text = hub.frame(size: size).text
        #expect(text.contains("Program 37"))
        #expect(!text.contains("Program 1 "))
        #expect(hub.frame(size: size).lines.count == 24)
    }

    @Test func a_site_is_a_tile_beside_the_programs_and_choosing_it_says_where_its_pause_is() throws {
        let site = HubScreen.Tile(site: try Site("youtube.com"))
        #expect(site.command == "site:youtube.com" && site.name == "youtube.com" && site.glyph == ProgramCatalog.siteGlyph)
        var hub = HubScreen(tiles: Array(tiles.prefix(2)) + [site], streak: Streak(current: 0, best: 0))
        let size = TerminalSize(columns: 80, rows: 24)
        hub.resize(size)
        #expect(hub.frame(size: size).text.contains("youtube.com"))
        _ = hub.handle(.character("y"))
        #expect(hub.selection == 2)
        #expect(hub.handle(.enter) == nil, "a site opens in the browser, never through a program's gateway")
        #expect(hub.notice == "youtube.com pauses in your browser, with MIGA's extension: open it there.")
        #expect(hub.frame(size: size).text.contains("youtube.com pauses in your browser"))
        _ = hub.handle(.left)
        #expect(hub.notice == nil)
        #expect(hub.handle(.enter) == .open("firefox"))
    }
}
