import MIGACore
import MIGAConfig

/// Whether each kind of pause has something to show: the checks behind
/// `Config.kindsInUse`, for the gateway, `miga stats` and `miga doctor` alike.
/// Each reads files, and is asked only when the kind is among those chosen.
package struct KindSupply {
    let paths: XDGPaths
    let pool: QuotePool

    package init(paths: XDGPaths, pool: QuotePool) {
        self.paths = paths
        self.pool = pool
    }

    /// With the quote pool of `config`'s interests, as the gateway draws from.
    package init(paths: XDGPaths, config: Config) {
        self.init(paths: paths, pool: QuotePool(folder: paths.userQuotesDirectory, interests: config.interests,
                                                cache: paths.dataDirectory + "/quote-pool"))
    }

    package func hasAlternatives() -> Bool { Instead.anyAlternative(in: paths) }

    /// `asciiOnly`: the terminal is not UTF-8 (see `TypedLine.choose`).
    package func hasLineToType(asciiOnly: Bool = false) -> Bool {
        TypedLine.offersAnyLine(own: QuoteLibrary.ownTexts(in: paths.userQuotesDirectory, tagged: TypedLine.ownTag),
                                quotes: pool.pool.lazy.compactMap { pool[$0] }, asciiOnly: asciiOnly)
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
