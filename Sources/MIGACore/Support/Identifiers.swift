/// A random (version 4) UUID in its lowercase text form: the id of a session,
/// a device, a change.
///
/// Written out here because Foundation's `UUID()` costs about 1.5 ms the first
/// time in a process, and the launch path pays for every millisecond.
public func newUUID() -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40 // version 4
    bytes[8] = (bytes[8] & 0x3F) | 0x80 // RFC 4122 variant
    let digits = Array("0123456789abcdef")
    var text = ""
    for (index, byte) in bytes.enumerated() {
        if [4, 6, 8, 10].contains(index) { text.append("-") }
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return text
}
