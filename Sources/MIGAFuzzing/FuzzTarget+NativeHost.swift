import FoundationEssentials
import Glibc
import MIGACore
import MIGAKit

/// The native host's promises for any stream a browser could send: every
/// message the framing lets through gets one answer, a JSON object of a
/// type the extension knows, short enough for the browser to take; a
/// broken frame ends the conversation and nothing more is read.
extension FuzzTarget {
    /// The types of answer the extension reads (docs/SITES.md).
    static let hostAnswerTypes: Set<String> = ["rules", "open", "state", "ended", "recorded", "error"]
    /// More messages than a fuzzer's input holds in practice; a bound, so one input stays quick.
    static let mostHostMessages = 64

    func nativeHostBrokenPromises(_ input: [UInt8]) -> [String] {
        Self.hostAnswers(to: input).compactMap { answer in
            if NativeMessage.frame(answer) == nil { return "an answer of \(answer.count) bytes, more than the browser takes" }
            guard let type = Self.answerType(answer), Self.hostAnswerTypes.contains(type) else {
                return "an answer the extension cannot read: \(String(decoding: answer.prefix(120), as: UTF8.self).debugDescription)"
            }
            return nil
        }
    }

    /// The host's answers to the messages framed in `input`, up to the first broken frame.
    static func hostAnswers(to input: [UInt8]) -> [[UInt8]] {
        var rest = input[...]
        let host = NativeHost(context: hostContext(), browser: .chromium)
        defer { host.finish() }
        var answers: [[UInt8]] = []
        while answers.count < mostHostMessages,
              let message = try? NativeMessage.next({ count in
                  let taken = rest.prefix(count)
                  rest = rest.dropFirst(taken.count)
                  return Array(taken)
              }) {
            answers.append(host.answer(message))
        }
        return answers
    }

    /// An answer's `type`; nil when it is no JSON object with one.
    static func answerType(_ answer: [UInt8]) -> String? {
        (try? JSONDecoder().decode(AnswerType.self, from: Data(answer)))?.type
    }

    private struct AnswerType: Decodable {
        let type: String
    }

    /// A host with a home of its own, where one site is protected with a short
    /// pause, so that messages reach a pause's flow and the store; no
    /// notification leaves it, and its clocks and randomness are fixed.
    private static func hostContext() -> GatewayContext {
        GatewayContext(environment: hostHome, time: SteppingTime(instant: now), generator: SeededGenerator(seed: 7), terminal: nil,
                       messages: { _ in }, gatewayIdentity: nil, processID: 1, gatewayPath: nil,
                       remind: { _ in }, lookBack: {})
    }

    /// Made once for every input: the same config each time.
    private static let hostHome: [String: String] = {
        let home = "/tmp/miga-fuzz-host-\(getpid())"
        let config = home + "/config/miga"
        try? FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try? atomicWrite("pause = 3\n\n[sites.\"site.example\"]\npause = 3\n", to: config + "/config.toml", mode: 0o600)
        return ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
                "XDG_RUNTIME_DIR": home + "/run", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    }()
}

/// A wall clock that stands still, and a monotonic one a second on at each
/// look, so that a countdown ends within an input, the same way each time.
private final class SteppingTime: TimeSource, @unchecked Sendable {
    let instant: Date
    private var seconds = 0.0

    init(instant: Date) { self.instant = instant }

    func now() -> Date { instant }

    func monotonic() -> Double {
        seconds += 1
        return seconds
    }
}
