/// Programs people often find distracting on a Linux desktop, offered in
/// setup (seed B-005): the name to show, the commands it goes by, a glyph.
public struct CatalogProgram: Equatable, Sendable {
    public let name: String
    /// The command first, then other names distributions give it, and its
    /// Flatpak app ID: every one of them is the same program.
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
        CatalogProgram("Firefox", ["firefox", "firefox-esr", "org.mozilla.firefox"], browser),
        CatalogProgram("Chromium", ["chromium", "chromium-browser", "org.chromium.Chromium"], browser),
        CatalogProgram("Google Chrome", ["google-chrome", "google-chrome-stable", "com.google.Chrome"], browser),
        CatalogProgram("Brave", ["brave-browser", "brave", "com.brave.Browser"], browser),
        CatalogProgram("Discord", ["discord"], chat),
        CatalogProgram("Slack", ["slack"], chat),
        CatalogProgram("Telegram", ["telegram-desktop", "Telegram"], chat),
        CatalogProgram("Signal", ["signal-desktop", "org.signal.Signal"], chat),
        CatalogProgram("Element", ["element-desktop", "im.riot.Riot"], chat),
        CatalogProgram("Steam", ["steam", "com.valvesoftware.Steam"], game),
        CatalogProgram("Lutris", ["lutris"], game),
        CatalogProgram("Minecraft", ["minecraft-launcher"], game),
        CatalogProgram("Spotify", ["spotify", "com.spotify.Client"], music),
        CatalogProgram("Thunderbird", ["thunderbird"], mail),
        CatalogProgram("Liferea", ["liferea"], feed),
        CatalogProgram("Newsboat", ["newsboat"], feed),
    ]

    /// The glyph of a protected website, wherever sites are listed beside the programs.
    public static let siteGlyph: Character = "◌"

    /// The glyph for a protected command: the catalog's, or a plain diamond.
    public static func glyph(for command: String) -> Character {
        programs.first { $0.commands.contains(command) }?.glyph ?? other
    }
}
