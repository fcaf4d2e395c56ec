/// WebExtension native messaging's framing: each message is its length as
/// four bytes in the machine's order, then that many bytes of UTF-8 JSON.
/// Every length is bounded before anything is read or written.
public enum NativeMessage {
    /// The longest message MIGA takes from its extension: a choice or an
    /// outcome is a few hundred bytes; a queue of outcomes a few KiB.
    public static let longestIncoming = 64 * 1024
    /// Chromium refuses a message to the extension over 1 MiB.
    public static let longestOutgoing = 1024 * 1024

    /// Why the stream cannot be read on: after any of these the reader
    /// cannot know where the next message starts.
    public enum Failure: Error, Equatable, Sendable {
        /// The stream ended inside a message.
        case cutShort
        /// A length over the bound (or zero).
        case tooLong(Int)
    }

    /// `json` framed for the extension; nil when it is longer than the browser takes.
    public static func frame(_ json: [UInt8]) -> [UInt8]? {
        guard json.count <= longestOutgoing else { return nil }
        return withUnsafeBytes(of: UInt32(json.count), Array.init) + json
    }

    /// The next message's bytes from `read` (which fills up to the count
    /// asked for and returns fewer only at the end of the stream); nil at a
    /// clean end of the stream.
    public static func next(_ read: (Int) -> [UInt8]) throws(Failure) -> [UInt8]? {
        let header = read(4)
        if header.isEmpty { return nil }
        guard header.count == 4 else { throw .cutShort }
        let length = Int(header.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
        guard (1...longestIncoming).contains(length) else { throw .tooLong(length) }
        let body = read(length)
        guard body.count == length else { throw .cutShort }
        return body
    }
}
