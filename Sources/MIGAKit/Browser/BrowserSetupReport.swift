import FoundationEssentials
import MIGACore

/// What `miga browser setup` says of each browser: a line for a person, or JSON.
public struct BrowserSetupReport: Encodable {
    struct Entry: Encodable {
        let browser: String
        let engine: String
        let command: String
        /// `native`, `settings` (found by its folder), `snap` or `flatpak`.
        let installation: String
        /// `equipped`, `cannot` (sandboxed) or `failed`.
        let state: String
        let manifest: String?
        let problem: String?
        let advice: [String]
    }

    let host: String
    let browsers: [Entry]

    public init(_ outcomes: [BrowserSetup.Outcome], link: NativeHostLink) {
        host = link.path
        browsers = outcomes.map { outcome in
            var manifest: String?, problem: String?
            let state: String
            switch outcome.state {
            case .equipped(let file, _): state = "equipped"; manifest = file
            case .cannot: state = "cannot"
            case .failed(let reason): state = "failed"; problem = reason
            }
            let installation = switch outcome.browser.installation {
            case .native: "native"
            case .settingsOnly: "settings"
            case .snap: "snap"
            case .flatpak: "flatpak"
            }
            return Entry(browser: outcome.browser.browser.name, engine: outcome.browser.browser.engine.rawValue,
                         command: outcome.browser.command, installation: installation, state: state,
                         manifest: manifest, problem: problem, advice: outcome.advice)
        }
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// One browser's line: equipped (or already), or what stands in the way.
    public static func line(_ outcome: BrowserSetup.Outcome) -> String {
        let name = outcome.browser.title
        switch outcome.state {
        case .equipped(let file, let changed):
            return "✓ \(name): equipped\(changed ? "" : " already") (\(file))"
        case .cannot:
            return "· \(name): cannot be equipped"
        case .failed(let reason):
            return "✗ \(name): not equipped: \(reason)"
        }
    }
}
