/// Programs people often find distracting on a Linux desktop, offered in
/// setup (seed B-005): the name to show, the commands it goes by, a glyph.
public struct CatalogProgram: Equatable, Sendable {
    public let name: String
    /// The command first, then other names distributions give it.
    public let commands: [String]
    public let glyph: Character

    public init(_ name: String, _ commands: [String], _ glyph: Character) {
        self.name = name
        self.commands = commands
        self.glyph = glyph
    }
}

public enum ProgramCatalog {
    // Single-cell symbols that every terminal font has, one per kind of program.
    static let browser: Character = "◎", chat: Character = "✉", game: Character = "♠"
    static let music: Character = "♪", mail: Character = "✎", feed: Character = "≡", other: Character = "◆"

    public static let programs: [CatalogProgram] = [
        CatalogProgram("Firefox", ["firefox", "firefox-esr"], browser),
        CatalogProgram("Chromium", ["chromium", "chromium-browser"], browser),
        CatalogProgram("Google Chrome", ["google-chrome", "google-chrome-stable"], browser),
        CatalogProgram("Brave", ["brave-browser", "brave"], browser),
        CatalogProgram("Discord", ["discord"], chat),
        CatalogProgram("Slack", ["slack"], chat),
        CatalogProgram("Telegram", ["telegram-desktop", "Telegram"], chat),
        CatalogProgram("Signal", ["signal-desktop"], chat),
        CatalogProgram("Element", ["element-desktop"], chat),
        CatalogProgram("Steam", ["steam"], game),
        CatalogProgram("Lutris", ["lutris"], game),
        CatalogProgram("Minecraft", ["minecraft-launcher"], game),
        CatalogProgram("Spotify", ["spotify"], music),
        CatalogProgram("Thunderbird", ["thunderbird"], mail),
        CatalogProgram("Liferea", ["liferea"], feed),
        CatalogProgram("Newsboat", ["newsboat"], feed),
    ]

    /// The glyph for a protected command: the catalog's, or a plain diamond.
    public static func glyph(for command: String) -> Character {
        programs.first { $0.commands.contains(command) }?.glyph ?? other
    }
}
