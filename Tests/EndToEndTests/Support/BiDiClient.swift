import Foundation

/// WebDriver BiDi over firefox-esr's own WebSocket (`ws://127.0.0.1:PORT/session`),
/// with no driver in between: a session, an unpacked extension installed,
/// and one browsing context navigated, read and typed into.
final class BiDiClient {
    private let socket: WebSocketClient
    private var nextId = 0
    private var context = ""

    init(port: Int) throws {
        socket = try WebSocketClient(url: "ws://127.0.0.1:\(port)/session")
        try call("session.new", ["capabilities": [String: Any]()])
        let tree = try call("browsingContext.getTree", [:])
        guard let first = (tree["contexts"] as? [[String: Any]])?.first?["context"] as? String else {
            throw ProtocolError(description: "no browsing context: \(tree)")
        }
        context = first
    }

    @discardableResult
    func call(_ method: String, _ params: [String: Any], timeout: Double = 60) throws -> [String: Any] {
        nextId += 1
        try socket.send(try jsonText(["id": nextId, "method": method, "params": params]))
        let deadline = Date() + timeout
        while Date() < deadline {
            guard let text = try socket.receive(timeout: deadline.timeIntervalSinceNow),
                  let answer = jsonObject(text), answer["id"] as? Int == nextId else { continue }
            if answer["type"] as? String == "error" {
                throw ProtocolError(description: "\(method): \(answer["error"] ?? "") \(answer["message"] ?? "")")
            }
            return answer["result"] as? [String: Any] ?? [:]
        }
        throw Timeout(what: "an answer to \(method)", last: "")
    }

    /// A new tab, in front: later calls go to it.
    func openTab() throws {
        let created = try call("browsingContext.create", ["type": "tab"])
        guard let tab = created["context"] as? String else { throw ProtocolError(description: "no new tab: \(created)") }
        context = tab
    }

    /// The newest top-level browsing context (a window just opened), in front: later calls go to it.
    func switchToNewestContext() throws {
        let known = context
        context = try eventually("a new window", timeout: 30) { () -> String? in
            let tree = try call("browsingContext.getTree", ["maxDepth": 0])
            return (tree["contexts"] as? [[String: Any]])?.compactMap { $0["context"] as? String }.last { $0 != known }
        }
    }

    /// Installs an unpacked extension folder (temporarily, as for development); its ID.
    func installExtension(path: String) throws -> String {
        let result = try call("webExtension.install", ["extensionData": ["type": "path", "path": path]])
        return result["extension"] as? String ?? ""
    }

    /// Starts a navigation. One that an extension replaces by another is
    /// "aborted" as BiDi sees it: where the tab went is for the test to read.
    func navigate(_ url: String) throws {
        do {
            try call("browsingContext.navigate", ["context": context, "url": url, "wait": "none"])
        } catch let error as ProtocolError where error.description.contains("NS_BINDING_ABORTED") {}
    }

    /// The value of `expression` in the page (promises awaited), as a string; nil while the page cannot say.
    func evaluate(_ expression: String) throws -> String? {
        let result = try call("script.evaluate", [
            "expression": expression, "target": ["context": context], "awaitPromise": true,
        ])
        guard result["type"] as? String == "success", let value = result["result"] as? [String: Any] else { return nil }
        switch value["type"] as? String {
        case "undefined", "null": return nil
        default: return value["value"].map { "\($0)" }
        }
    }

    /// A key pressed and let go: a letter, or "Enter".
    func press(_ key: String) throws {
        let value = key == "Enter" ? "\u{E007}" : key
        try call("input.performActions", ["context": context, "actions": [[
            "type": "key", "id": "keyboard",
            "actions": [["type": "keyDown", "value": value], ["type": "keyUp", "value": value]],
        ]]])
    }
}
