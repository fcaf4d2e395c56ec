import Foundation

struct ProtocolError: Error, CustomStringConvertible {
    let description: String
}

/// Encodes a JSON object for a debugging protocol.
func jsonText(_ object: [String: Any]) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
}

/// Decodes a message of a debugging protocol; nil when it is no JSON object.
func jsonObject(_ text: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
}

/// The Chrome DevTools protocol over the browser's WebSocket: calls by id,
/// events set aside, one page (a tab) attached in flat mode so that its
/// session follows it across the processes its navigations land in.
final class DevToolsClient {
    private let socket: WebSocketClient
    private var nextId = 0
    private var sessionId: String?

    /// The browser's endpoint, from `/json/version` on its debugging port.
    init(port: Int) throws {
        let version = try loopbackGet(port: port, path: "/json/version")
        guard let url = jsonObject(version)?["webSocketDebuggerUrl"] as? String else {
            throw ProtocolError(description: "no webSocketDebuggerUrl in /json/version: \(version)")
        }
        socket = try WebSocketClient(url: url)
    }

    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:], inPage: Bool = true, timeout: Double = 60) throws -> [String: Any] {
        nextId += 1
        var message: [String: Any] = ["id": nextId, "method": method, "params": params]
        if inPage, let sessionId { message["sessionId"] = sessionId }
        try socket.send(try jsonText(message))
        let deadline = Date() + timeout
        while Date() < deadline {
            guard let text = try socket.receive(timeout: deadline.timeIntervalSinceNow),
                  let answer = jsonObject(text), answer["id"] as? Int == nextId else { continue }
            if let error = answer["error"] { throw ProtocolError(description: "\(method): \(error)") }
            return answer["result"] as? [String: Any] ?? [:]
        }
        throw Timeout(what: "an answer to \(method)", last: "")
    }

    /// A new tab, attached: later calls go to it. `private`: in a private
    /// window (a browser context of its own, which extensions take for one).
    func openTab(private: Bool = false) throws {
        var parameters: [String: Any] = ["url": "about:blank"]
        if `private` {
            let context = try call("Target.createBrowserContext", [:], inPage: false)
            parameters["browserContextId"] = context["browserContextId"]
        }
        let created = try call("Target.createTarget", parameters, inPage: false)
        guard let targetId = created["targetId"] as? String else { throw ProtocolError(description: "no targetId") }
        try attach(targetId)
    }

    /// The browser's first tab (the one it started with), attached.
    func attachToFirstTab() throws {
        let targetId = try eventually("the first tab", timeout: 60) { () -> String? in
            let targets = try call("Target.getTargets", [:], inPage: false)["targetInfos"] as? [[String: Any]] ?? []
            return targets.first { $0["type"] as? String == "page" }?["targetId"] as? String
        }
        try attach(targetId)
    }

    private func attach(_ targetId: String) throws {
        let attached = try call("Target.attachToTarget", ["targetId": targetId, "flatten": true], inPage: false)
        sessionId = attached["sessionId"] as? String
        try call("Page.enable")
        try call("Emulation.setFocusEmulationEnabled", ["enabled": true])
    }

    /// A tab of its own at `url`, left in the background: its session, for `evaluate(in:_:)`.
    func attachedTab(url: String) throws -> String {
        let created = try call("Target.createTarget", ["url": url, "background": true], inPage: false)
        guard let targetId = created["targetId"] as? String else { throw ProtocolError(description: "no targetId") }
        let attached = try call("Target.attachToTarget", ["targetId": targetId, "flatten": true], inPage: false)
        guard let session = attached["sessionId"] as? String else { throw ProtocolError(description: "no session") }
        return session
    }

    /// The value of `expression` in the page of `session`.
    func evaluate(in session: String, _ expression: String) throws -> String? {
        let saved = sessionId
        sessionId = session
        defer { sessionId = saved }
        return try eventually("the page to answer", timeout: 30) { try evaluate(expression) }
    }

    /// Starts a navigation. One that the extension replaces by another (its
    /// check of a visit a site's worker answered) may never be answered as
    /// done: where the tab went is for the test to read.
    func navigate(_ url: String) throws {
        do {
            try call("Page.navigate", ["url": url], timeout: 15)
        } catch is Timeout {}
    }

    /// The value of `expression` in the tab's page (promises awaited), as a string; nil while the page cannot say.
    func evaluate(_ expression: String) throws -> String? {
        let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if result["exceptionDetails"] != nil { return nil }
        // JSON's null is no value, as `undefined` is.
        guard let value = (result["result"] as? [String: Any])?["value"], !(value is NSNull) else { return nil }
        return "\(value)"
    }

    /// A key pressed and let go: a letter, or "Enter".
    func press(_ key: String) throws {
        let enter = key == "Enter"
        let code = enter ? "Enter" : "Key" + key.uppercased()
        let keyCode = enter ? 13 : Int(key.uppercased().unicodeScalars.first!.value)
        var down: [String: Any] = ["type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": keyCode]
        down["text"] = enter ? "\r" : key
        try call("Input.dispatchKeyEvent", down)
        try call("Input.dispatchKeyEvent", ["type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": keyCode])
    }
}
