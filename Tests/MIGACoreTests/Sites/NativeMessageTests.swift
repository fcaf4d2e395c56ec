import Testing
@testable import MIGACore

@Suite struct NativeMessageTests {
    /// A stream over `bytes`, read as a pipe is: up to what is asked.
    final class Stream {
        var bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func read(_ count: Int) -> [UInt8] {
            let taken = Array(bytes.prefix(count))
            bytes.removeFirst(taken.count)
            return taken
        }
    }

    @Test func a_framed_message_reads_back_and_the_stream_then_ends() throws {
        let json = Array(#"{"type":"hello"}"#.utf8)
        let framed = try #require(NativeMessage.frame(json))
        #expect(Array(framed.prefix(4)) == withUnsafeBytes(of: UInt32(16), Array.init))
        let stream = Stream(framed + framed)
        #expect(try NativeMessage.next(stream.read) == json)
        #expect(try NativeMessage.next(stream.read) == json)
        #expect(try NativeMessage.next(stream.read) == nil)
    }

    @Test func a_stream_cut_inside_a_header_or_a_body_is_cut_short() {
        #expect(throws: NativeMessage.Failure.cutShort) { try NativeMessage.next(Stream([5, 0]).read) }
        #expect(throws: NativeMessage.Failure.cutShort) { try NativeMessage.next(Stream([5, 0, 0, 0, 65, 66]).read) }
    }

    @Test(arguments: [[0, 0, 0, 0], [1, 0, 1, 0], [255, 255, 255, 255]] as [[UInt8]])
    func an_empty_or_overlong_length_is_refused_before_anything_is_read(header: [UInt8]) {
        let stream = Stream(header + [UInt8](repeating: 65, count: 10))
        #expect(throws: NativeMessage.Failure.self) { try NativeMessage.next(stream.read) }
        #expect(stream.bytes.count == 10)
    }

    @Test func an_answer_longer_than_the_browser_takes_is_not_framed() {
        #expect(NativeMessage.frame([UInt8](repeating: 32, count: NativeMessage.longestOutgoing)) != nil)
        #expect(NativeMessage.frame([UInt8](repeating: 32, count: NativeMessage.longestOutgoing + 1)) == nil)
    }
}
