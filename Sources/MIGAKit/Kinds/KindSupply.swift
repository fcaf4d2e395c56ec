import MIGACore
import MIGAConfig

/// Whether each kind of pause has something to show: the checks behind
/// `Config.kindsInUse`, for the gateway, `miga stats` and `miga doctor` alike.
/// Each reads files, and is asked only when the kind is among those chosen.
package struct KindSupply {
    let paths: XDGPaths
    let quotes: () -> QuotePool

    /// With the pool the gateway draws from.
    package init(paths: XDGPaths, pool: QuotePool) {
        self.paths = paths
        quotes = { pool }
    }

    /// With the pool of `config`'s interests, read only if a typed pause is
    /// among the kinds, and never cached: for the commands that only look.
    package init(paths: XDGPaths, config: Config) {
        self.paths = paths
        quotes = { QuotePool(folder: paths.userQuotesDirectory, interests: config.interests) }
    }

    package func hasAlternatives() -> Bool { Instead.anyAlternative(in: paths) }

    /// `asciiOnly`: the terminal is not UTF-8 (see `TypedLine.choose`).
    package func hasLineToType(asciiOnly: Bool = false) -> Bool {
        let own = QuoteLibrary.ownTexts(in: paths.userQuotesDirectory, tagged: TypedLine.ownTag)
        if TypedLine.offersAnyLine(own: own, quotes: [], asciiOnly: asciiOnly) { return true }
        let pool = quotes()
        return TypedLine.offersAnyLine(own: [], quotes: pool.pool.lazy.compactMap { pool[$0] }, asciiOnly: asciiOnly)
    }

    /// One line per protected program and kind left out of its draw, and why.
    package func leftOut(in config: Config) -> [String] {
        var hasLines: Bool?
        var hasAlternatives: Bool?
        return config.programs.keys.sorted().flatMap { program in
            let settings = config.settings(for: program)
            let inUse = config.kindsInUse(for: settings, hasLinesToType: {
                if hasLines == nil { hasLines = hasLineToType() }
                return hasLines!
            }, hasAlternatives: {
                if hasAlternatives == nil { hasAlternatives = self.hasAlternatives() }
                return hasAlternatives!
            })
            return inUse.leftOut.map { Self.leftOutLine($0, name: settings.displayName) }
        }
    }

    /// "Typed pauses are left out for Discord: no line to type (…)".
    package static func leftOutLine(_ kind: PauseKind, name: String) -> String {
        "\(kind.rawValue) is left out of \(printable(name))'s draw: \(KindsInUse.whyLeftOut(kind))"
    }
}
