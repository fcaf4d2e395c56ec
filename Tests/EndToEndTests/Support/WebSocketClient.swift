import Foundation

/// A TCP connection to a port on loopback (127.0.0.1), closed on exec.
func connectLoopback(port: Int) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SpawnFailure(executable: "socket", code: errno) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        let code = errno
        close(fd)
        throw SpawnFailure(executable: "127.0.0.1:\(port)", code: code)
    }
    return fd
}

/// Sends every byte, without SIGPIPE when the other end is gone.
func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent < 0 {
            if errno == EINTR || errno == EAGAIN { continue }
            return false
        }
        offset += sent
    }
    return true
}

/// Reads what is there within `timeout` seconds: nil when nothing came, [] at the end of the stream.
func readAvailable(_ fd: Int32, timeout: Double) -> [UInt8]? {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = read(fd, &buffer, buffer.count)
    return count > 0 ? Array(buffer[0..<count]) : []
}

/// A plain HTTP GET to loopback (DevTools' `/json/version`), read to the end.
func loopbackGet(port: Int, path: String, timeout: Double = 10) throws -> String {
    let fd = try connectLoopback(port: port)
    defer { close(fd) }
    let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
    guard sendAll(fd, request) else { throw SpawnFailure(executable: "GET \(path)", code: errno) }
    var response: [UInt8] = []
    let deadline = Date() + timeout
    while Date() < deadline {
        guard let chunk = readAvailable(fd, timeout: 1) else { continue }
        if chunk.isEmpty { break }
        response += chunk
    }
    let text = String(decoding: response, as: UTF8.self)
    guard let body = text.range(of: "\r\n\r\n") else { throw Timeout(what: "an answer to GET \(path)", last: text) }
    return String(text[body.upperBound...])
}

/// A WebSocket client (RFC 6455) for the browsers' debugging endpoints on
/// loopback: no TLS, no extensions; text messages, fragmented or not, and
/// pings answered. The browser's messages are data: only parsed as JSON.
final class WebSocketClient {
    struct Closed: Error, CustomStringConvertible {
        var description: String { "the WebSocket was closed" }
    }

    private let fd: Int32
    private var received: [UInt8] = []

    init(url: String, timeout: Double = 30) throws {
        guard let parsed = URL(string: url), parsed.scheme == "ws", let port = parsed.port else {
            throw Timeout(what: "a ws:// address", last: url)
        }
        fd = try connectLoopback(port: port)
        var key = [UInt8](repeating: 0, count: 16)
        for index in key.indices { key[index] = UInt8.random(in: 0...255) }
        let path = parsed.path.isEmpty ? "/" : parsed.path
        let handshake = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(Data(key).base64EncodedString())\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try writeBytes(Array(handshake.utf8))
        let deadline = Date() + timeout
        while !received.containsSequence(Array("\r\n\r\n".utf8)) {
            guard Date() < deadline else {
                throw Timeout(what: "the WebSocket handshake of \(url)", last: String(decoding: received, as: UTF8.self))
            }
            guard let chunk = readAvailable(fd, timeout: 1) else { continue }
            if chunk.isEmpty { throw Closed() }
            received += chunk
        }
        let end = received.firstRange(of: Array("\r\n\r\n".utf8))!.upperBound
        let head = String(decoding: received[..<end], as: UTF8.self)
        received.removeFirst(end)
        guard head.hasPrefix("HTTP/1.1 101") else { throw Timeout(what: "a WebSocket upgrade", last: head) }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        try sendFrame(opcode: 0x1, payload: Array(text.utf8))
    }

    /// The next text message, or nil when none came within `timeout` seconds.
    func receive(timeout: Double) throws -> String? {
        let deadline = Date() + timeout
        var message: [UInt8] = []
        while true {
            if let frame = try nextFrame() {
                switch frame.opcode {
                case 0x0, 0x1:
                    message += frame.payload
                    if frame.final { return String(decoding: message, as: UTF8.self) }
                case 0x8: throw Closed()
                case 0x9: try sendFrame(opcode: 0xA, payload: frame.payload)
                default: break
                }
                continue
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            guard let chunk = readAvailable(fd, timeout: min(left, 1)) else { continue }
            if chunk.isEmpty { throw Closed() }
            received += chunk
        }
    }

    /// A whole frame from what was read, if there is one.
    private func nextFrame() throws -> (final: Bool, opcode: UInt8, payload: [UInt8])? {
        guard received.count >= 2 else { return nil }
        var length = Int(received[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard received.count >= 4 else { return nil }
            length = Int(received[2]) << 8 | Int(received[3])
            offset = 4
        } else if length == 127 {
            guard received.count >= 10 else { return nil }
            length = received[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        let masked = received[1] & 0x80 != 0
        let maskOffset = offset
        if masked { offset += 4 }
        guard received.count >= offset + length else { return nil }
        var payload = Array(received[offset..<offset + length])
        if masked {
            for index in payload.indices { payload[index] ^= received[maskOffset + index % 4] }
        }
        let final = received[0] & 0x80 != 0, opcode = received[0] & 0x0F
        received.removeFirst(offset + length)
        return (final, opcode, payload)
    }

    /// A client's frame is always masked (RFC 6455, 5.3).
    private func sendFrame(opcode: UInt8, payload: [UInt8]) throws {
        var frame: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65_536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try writeBytes(frame)
    }

    private func writeBytes(_ bytes: [UInt8]) throws {
        guard sendAll(fd, bytes) else { throw Closed() }
    }
}

extension Array where Element == UInt8 {
    func containsSequence(_ needle: [UInt8]) -> Bool { firstRange(of: needle) != nil }
}
