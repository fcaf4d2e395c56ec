import MIGACore

extension Streak {
    /// The mark before a running streak ("▲ 12-day streak"), on the hub and
    /// in stats: a glyph that DejaVu Sans Mono, Noto Sans Mono and Liberation
    /// Mono all draw, in one cell. An emoji (🔥) is an empty box wherever no
    /// colour emoji font is installed, as on Debian's default desktop
    /// (docs/TERMINALS.md). Where the locale is not UTF-8, `ASCIIText` makes it "^".
    public static let mark = "▲"
}
