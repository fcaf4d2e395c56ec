import FoundationEssentials
import MIGACore
import MIGAStore

/// The messages of the conversation with the extension (docs/SITES.md):
/// what it may ask, and each kind of answer. Everything is an object with a
/// `type`; anything else is answered with an error.
extension NativeHost {
    /// A message from the extension: only its `type` decides what it asks.
    struct Request: Decodable {
        enum Kind: String, Decodable {
            /// The rules, once.
            case rules
            /// The rules, and again each time they change, until the browser closes the port.
            case watch
            /// The extension has put the rules of a generation in place.
            case applied
            case pause, tick, choose, outcomes
        }
        let type: Kind
        /// The address a pause is asked for.
        let url: String?
        let choice: PauseChoice?
        /// The pauses the extension held itself while the host was away.
        let items: [QueuedOutcome]?
        /// Whether the person lets the extension run in private windows (with `rules` and `watch`).
        let privateWindows: Bool?
        /// Which browser the extension runs in, as it tells (`KnownBrowser.id`).
        let browser: String?
        /// The generation of the rules put in place (with `applied`).
        let generation: String?
    }

    struct Recorded: Encodable {
        var type = "recorded"
        let count: Int
    }

    struct Noted: Encodable {
        var type = "noted"
    }

    struct StateAnswer: Encodable {
        var type = "state"
        let state: PauseState
    }

    /// No pause is due: the address opens, and the site stays open in every
    /// tab until `allowedUntil` (milliseconds since 1970) when an allowance runs.
    struct Open: Encodable {
        var type = "open"
        let reason: String?
        let allowedUntil: Double?
    }

    struct Ended: Encodable {
        var type = "ended"
        let ending: String
        /// The address to open exactly, after a Proceed.
        let open: String?
        /// The end of the allowance the Proceed began, in milliseconds since 1970.
        let allowedUntil: Double?

        init(ending: PauseEnding, open: String?, allowedUntil: Date?) {
            self.ending = switch ending {
            case .exitToFocus: "exitToFocus"
            case .alternative: "alternative"
            case .proceed: "proceed"
            case .yielded: "yielded"
            case .signal, .hangup: "abandoned"
            }
            self.open = open
            self.allowedUntil = allowedUntil.map(\.milliseconds).map(Double.init)
        }
    }

    struct Failure: Encodable {
        var type = "error"
        let error: String
    }

    func encoded(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(value))) ?? Array(#"{"type":"error","error":"no answer"}"#.utf8)
    }
}
