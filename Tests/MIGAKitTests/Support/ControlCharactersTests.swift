import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGAStore
@testable import MIGATestSupport

/// A name from another machine's history holding a C1 control (U+009B is
/// CSI, U+009D OSC) or a bidi override (U+202E turns the rest of a line
/// around) reaches neither a terminal nor a JSON reader that prints strings
/// as they are: on screen it is cleaned, in JSON it is escaped.
@Suite struct ControlCharactersTests {
    static let hostile = "discord\u{9B}2J\u{9D}52;c;eA==\u{7}\u{202E}txt.exe\u{2066}"

    @Test func on_screen_c1_controls_and_bidi_marks_are_cleaned() {
        let shown = printable(Self.hostile)
        #expect(!shown.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || isBidiControl($0) }, "\(shown.debugDescription)")
        #expect(shown.hasPrefix("discord"))
    }

    @Test func every_json_output_escapes_c1_controls_and_bidi_marks() throws {
        let record = SessionRecord(id: "s1", program: Self.hostile, startedAt: Date(milliseconds: 1_800_000_000_000),
                                   endedAt: Date(milliseconds: 1_800_000_060_000), outcome: .exit, pausedSeconds: 60,
                                   device: "other", intention: "see \u{202E}this")
        let later = Date(milliseconds: 1_800_000_100_000)
        let export = Exchange.encode([record], as: .json, localDevice: "here")
        let line = Exchange.line(record, localDevice: "here")
        for text in [export, line] {
            #expect(!text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || isBidiControl($0) }, "\(text)")
            #expect(text.contains("\\u009b") && text.contains("\\u202e"), "\(text)")
        }
        // Still the same data for a JSON reader.
        #expect(try Exchange.decode(export, localDevice: "here", now: later).first?.program == Self.hostile)
        #expect(Sync.parse(line + "\n", device: "other", localDevice: "here", now: later).records.first?.program == Self.hostile)
        let folder = TemporaryDirectory()
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        try store.insertMissing([record])
        let report = try StatsReport.compute(from: store, now: Date(milliseconds: 1_800_000_100_000), timeZone: .utc)
        let json = report.json(now: Date(milliseconds: 1_800_000_100_000), timeZone: .utc, coverage: [])
        #expect(!json.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || isBidiControl($0) }, "\(json)")
    }
}
