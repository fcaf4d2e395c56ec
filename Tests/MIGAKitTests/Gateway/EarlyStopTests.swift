import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGADesktop

/// A program that stops at once after a detached Proceed: when that is
/// worth saying, and the line that says why.
@Suite struct EarlyStopTests {
    /// Chromium as root on Debian 12, as its wrapper and Chromium write it (measured).
    let chromium = Array("""
        /usr/bin/chromium: 9: [: 25276510208: unexpected operator
        [10398:10398:1125/184648.111430:ERROR:content/browser/zygote_host/zygote_host_impl_linux.cc:103] Running as root without --no-sandbox is not supported. See https://crbug.com/638180.

        """.utf8)

    @Test func a_failure_within_the_window_is_reported_with_what_the_program_said() {
        let stop = EarlyStop(ending: .exited(1), after: 0.3, errorOutput: chromium)
        #expect(stop?.words == "Running as root without --no-sandbox is not supported. See https://crbug.com/638180.")
        #expect(stop?.notification(programName: "Chromium")
                    == DesktopNotification(summary: "Chromium stopped at once",
                                           body: "Running as root without --no-sandbox is not supported. See https://crbug.com/638180."))
    }

    @Test func running_on_past_the_window_ending_after_it_or_ending_well_is_no_stop() {
        #expect(EarlyStop(ending: nil, after: 2, errorOutput: chromium) == nil)
        #expect(EarlyStop(ending: .exited(1), after: 2.5, errorOutput: chromium) == nil)
        // A browser already open takes the new window itself, and this process ends with 0.
        #expect(EarlyStop(ending: .exited(0), after: 0.1, errorOutput: chromium) == nil)
        #expect(EarlyStop(ending: .exited(1), after: EarlyStop.window, errorOutput: []) != nil)
    }

    @Test func a_program_that_said_nothing_is_described_by_how_it_ended() {
        #expect(EarlyStop(ending: .exited(3), after: 0.1, errorOutput: Array(" \n\t\n".utf8))?.words
                    == "it ended with status 3, saying nothing")
        #expect(EarlyStop(ending: .signalled(SIGSEGV), after: 0.1, errorOutput: [])?.words
                    == "it ended on signal 11 (Segmentation fault)")
    }

    @Test func the_wait_status_is_read_as_an_exit_or_a_signal() {
        #expect(ProcessEnding(waitStatus: 1 << 8) == .exited(1))
        #expect(ProcessEnding(waitStatus: 0) == .exited(0))
        #expect(ProcessEnding(waitStatus: SIGKILL) == .signalled(SIGKILL))
    }

    @Test func the_telling_line_is_the_last_with_words() {
        #expect(EarlyStop.tellingLine(Array("first\nsecond line\n\n  ---  \n".utf8)) == "second line")
        #expect(EarlyStop.tellingLine(Array("only, no newline".utf8)) == "only, no newline")
        #expect(EarlyStop.tellingLine(Array("progress 10%\rdone: failed\r\n".utf8)) == "done: failed")
        #expect(EarlyStop.tellingLine(Array("日本語のエラー\n".utf8)) == "日本語のエラー")
        #expect(EarlyStop.tellingLine(Array("\n \n".utf8)) == nil)
        #expect(EarlyStop.tellingLine([0xFF, 0xFE, 0x0A]) == nil)
    }

    @Test func no_control_sequence_or_character_survives() {
        let hostile = Array("\u{1B}[31merror:\u{1B}[0m cannot\u{07} open\u{1B}]0;owned\u{07} display\u{1B}]52;c;ZXZpbA==\u{1B}\\ :0\u{9B}\n".utf8)
        let line = EarlyStop.tellingLine(hostile)
        #expect(line == "error: cannot open display :0")
        #expect(line?.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) } == true)
        #expect(EarlyStop.cleaned("\ttabbed\u{0}\u{8}  ") == "tabbed")
    }

    @Test func a_logging_prefix_goes_and_a_bracket_that_is_words_stays() {
        #expect(EarlyStop.cleaned("[123:456:0101/000000.1:FATAL:x.cc(9)] Check failed") == "Check failed")
        #expect(EarlyStop.cleaned("[warning] low memory") == "[warning] low memory")
        #expect(EarlyStop.cleaned("[see the manual: page 3] for options") == "[see the manual: page 3] for options")
    }

    @Test func a_long_line_is_cut_with_an_ellipsis() {
        let line = EarlyStop.cleaned(String(repeating: "word ", count: 100))
        #expect(line.count <= EarlyStop.longestWords)
        #expect(line.hasSuffix("word…"))
    }

    @Test func the_kept_output_stays_small_and_keeps_whole_lines_of_its_end() {
        var tail = ErrorTail()
        for index in 0..<10_000 { tail.append(Array("noise line \(index)\n".utf8)) }
        tail.append(Array("the real reason\n".utf8))
        #expect(tail.bytes.count <= EarlyStop.keptOutput * 2)
        #expect(EarlyStop.tellingLine(tail.bytes) == "the real reason")
        #expect(String(decoding: tail.bytes, as: UTF8.self).hasPrefix("noise line "))
        // One endless line keeps its end rather than nothing.
        var endless = ErrorTail()
        for _ in 0..<100 { endless.append(Array(repeating: UInt8(ascii: "x"), count: 1000)) }
        #expect(endless.bytes.count <= EarlyStop.keptOutput * 2 && !endless.bytes.isEmpty)
    }
}
