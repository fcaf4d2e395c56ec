import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore

/// The real binary as the browser starts it: by the name the host manifests
/// give (`miga-native-host`), or as `miga native-host`, with the caller's
/// words, speaking native messaging on its standard input and output.
@Suite(.endToEnd) struct NativeHostEndToEndTests {
    let sandbox = Sandbox()
    static let chromiumOrigin = "chrome-extension://cbgolgnocihlfhpkfbbocelojnaodpbo/"

    /// Messages framed as the browser frames them (each short enough that
    /// its length is one ASCII byte and three NULs).
    func framed(_ messages: [String]) -> String {
        messages.map { message in
            precondition(message.utf8.count < 128)
            return String(UnicodeScalar(UInt8(message.utf8.count))) + "\0\0\0" + message
        }.joined()
    }

    @Test func started_by_its_manifests_name_it_answers_the_extension() throws {
        try sandbox.config("[sites.\"youtube.com\"]\npause = 30\n")
        let link = sandbox.root + "/bin/miga-native-host"
        #expect(symlink(migaBinary, link) == 0)
        let chromium = try run(link, [Self.chromiumOrigin], environment: sandbox.environment,
                               input: framed([#"{"type":"rules"}"#, #"{"type":"nonsense"}"#]))
        #expect(chromium.status == 0, "\(chromium.error)")
        #expect(chromium.output.contains(#""host":"youtube.com""#) && chromium.output.contains(#""pause":30,"program":"site:youtube.com""#),
                "\(chromium.output)")
        #expect(chromium.output.contains(#""type":"error""#))
        let firefox = try run(migaBinary, ["native-host", sandbox.root + "/.mozilla/native-messaging-hosts/miga.json", "sites@miga"],
                              environment: sandbox.environment, input: framed([#"{"type":"rules"}"#]))
        #expect(firefox.status == 0, "\(firefox.error)")
        #expect(firefox.output.contains(#""program":"site:youtube.com""#))
    }

    /// Exit to Focus in the tab is celebrated as a pause in a terminal is: a
    /// desktop notification from a process of its own, the host's answer
    /// never waiting for it. A Proceed is not celebrated.
    @Test func an_exit_to_focus_in_the_tab_sends_the_celebration_and_a_proceed_none() throws {
        try sandbox.config("[sites.\"youtube.com\"]\npause = 1\n")
        let server = try NotificationServer(folder: sandbox.root + "/notifications")
        var environment = sandbox.environment
        environment["DISPLAY"] = server.display
        environment["DBUS_SESSION_BUS_ADDRESS"] = server.busAddress
        let pause = #"{"type":"pause","url":"https://www.youtube.com/watch?v=1"}"#

        let proceeding = try HostConversation(migaBinary, ["native-host", Self.chromiumOrigin], environment: environment)
        #expect(try proceeding.ask(pause)["type"] as? String == "state")
        try eventually("Proceed open at zero") {
            (try proceeding.ask(#"{"type":"tick"}"#)["state"] as? [String: Any])?["proceedOpen"] as? Bool == true ? true : nil
        }
        #expect(try proceeding.ask(#"{"type":"choose","choice":{"choice":"proceed"}}"#)["ending"] as? String == "proceed")
        #expect(try proceeding.finish() == 0)

        let exiting = try HostConversation(migaBinary, ["native-host", Self.chromiumOrigin], environment: environment)
        #expect(try exiting.ask(pause)["type"] as? String == "state")
        #expect(try exiting.ask(#"{"type":"choose","choice":{"choice":"exitToFocus"}}"#)["ending"] as? String == "exitToFocus")
        try eventually("the celebration", timeout: 30) { server.monitorLog.contains("You stepped away from youtube.com") ? true : nil }
        #expect(try exiting.finish() == 0)
        _ = try server.settledCalls(summary: "Your first conscious exit — the start of a streak")
        #expect(server.monitorLog.components(separatedBy: "You stepped away from").count - 1 == 1, "\(server.monitorLog)")
    }

    @Test func any_other_caller_is_refused_with_status_77_before_anything_is_read() throws {
        let link = sandbox.root + "/bin/miga-native-host"
        #expect(symlink(migaBinary, link) == 0)
        for (binary, words) in [(link, ["chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"]), (link, []),
                                (migaBinary, ["native-host", "/x/miga.json", "evil@addon"])] {
            let refused = try run(binary, words, environment: sandbox.environment, input: framed([#"{"type":"rules"}"#]))
            #expect(refused.status == ExitStatus.notPermitted, "\(words)")
            #expect(refused.output.isEmpty)
            #expect(refused.error.contains("only MIGA's browser extension"))
        }
    }

    @Test func a_broken_frame_ends_the_host_with_status_65_and_nothing_recorded() throws {
        let broken = try run(migaBinary, ["native-host", Self.chromiumOrigin], environment: sandbox.environment,
                             input: "\u{7F}\u{7F}\u{7F}\u{7F}{\"type\":\"rules\"}")
        #expect(broken.status == ExitStatus.dataError)
        #expect(broken.output.isEmpty)
        #expect(try sandbox.sessions().isEmpty)
    }

    /// A thousand messages in a row, of every kind the host cannot use (no
    /// JSON, an unknown type, a tick with no pause, an address on no
    /// protected site): each answered with an error, in order, nothing
    /// recorded, and the host ends cleanly when the browser closes the stream.
    @Test func a_thousand_messages_it_cannot_use_each_get_an_error_and_nothing_is_recorded() throws {
        try sandbox.config("[sites.\"youtube.com\"]\npause = 30\n")
        let unusable = ["not json", #"{"type":"nonsense"}"#, #"{"type":"tick"}"#, #"{"type":"pause","url":"https://elsewhere.example/"}"#,
                        #"{"type":"choose","choice":{"choice":"proceed"}}"#, #"{"type":7}"#, "[]", #"{"type":"pause"}"#]
        let messages = (0..<1000).map { unusable[$0 % unusable.count] }
        let host = try run(migaBinary, ["native-host", Self.chromiumOrigin], environment: sandbox.environment, input: framed(messages))
        #expect(host.status == ExitStatus.success, "\(host.error)")
        #expect(host.output.components(separatedBy: #""type":"error""#).count - 1 == 1000)
        #expect(try sandbox.sessions().isEmpty)
    }

    /// The browser closes the stream before a word: the host ends at once, cleanly, answering nothing.
    @Test func a_stream_closed_at_once_ends_the_host_cleanly() throws {
        let host = try run(migaBinary, ["native-host", Self.chromiumOrigin], environment: sandbox.environment, input: "")
        #expect(host.status == ExitStatus.success, "\(host.error)")
        #expect(host.output.isEmpty)
    }

    /// A message of exactly 64 KiB is read (and answered); one byte more ends
    /// the host with 65 before the body is read, the messages before it answered.
    @Test func a_message_of_the_longest_length_is_answered_and_one_byte_longer_ends_the_host() throws {
        let longest = 64 * 1024
        func padded(to length: Int) -> String {
            let head = #"{"type":"nonsense","pad":""#
            return head + String(repeating: "x", count: length - head.utf8.count - 2) + #""}"#
        }
        // The length's bytes, little-endian as on the machines MIGA runs on: all ASCII here.
        func header(_ length: Int) -> String {
            String((0..<4).map { Character(UnicodeScalar(UInt8(truncatingIfNeeded: length >> (8 * $0)))) })
        }
        let fits = try run(migaBinary, ["native-host", Self.chromiumOrigin], environment: sandbox.environment,
                           input: header(longest) + padded(to: longest))
        #expect(fits.status == ExitStatus.success, "\(fits.error)")
        #expect(fits.output.contains(#""type":"error""#))
        let over = try run(migaBinary, ["native-host", Self.chromiumOrigin], environment: sandbox.environment,
                           input: framed([#"{"type":"tick"}"#]) + header(longest + 1) + padded(to: longest + 1))
        #expect(over.status == ExitStatus.dataError)
        #expect(over.output.components(separatedBy: #""type":"error""#).count - 1 == 1)
    }

}
