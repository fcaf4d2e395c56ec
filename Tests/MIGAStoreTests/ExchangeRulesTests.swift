import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGATestSupport

@Suite struct ExchangeRulesTests {
    let start = Date(milliseconds: 1_800_000_000_123) // the store keeps whole milliseconds
    static let intention = "reply to Ana, then \"close\" it — café ☕"

    var sessions: [SessionRecord] {
        [SessionRecord(id: "p1", program: "discord", startedAt: start, endedAt: start, outcome: .passthrough, reason: .allowed),
         SessionRecord(id: "p2", program: "steam", startedAt: start + 60, endedAt: start + 60, outcome: .passthrough,
                       device: "laptop-2", reason: .outsideHours),
         SessionRecord(id: "s1", program: "discord", startedAt: start + 120, endedAt: start + 210, outcome: .proceed,
                       pausedSeconds: 90, quotes: ["zen-001"], intention: Self.intention),
         SessionRecord(id: "p3", program: "steam", startedAt: start + 300, endedAt: start + 300, outcome: .passthrough)]
    }

    func failure(_ text: String) -> String? {
        do {
            _ = try Exchange.decode(text, localDevice: "this-machine", now: testNow)
            return nil
        } catch {
            return error.message
        }
    }

    // MARK: Exchange

    @Test(arguments: Exchange.Format.allCases)
    func reasons_and_intentions_read_back_the_same(format: Exchange.Format) throws {
        let text = Exchange.encode(sessions, as: format, localDevice: "this-machine")
        var expected = sessions.map { record in
            var record = record
            // Read back, even this machine's own keep where they say they happened.
            record.origin = "this-machine"
            return record
        }
        (expected[1].device, expected[1].origin) = ("", "laptop-2")
        #expect(try Exchange.decode(text, localDevice: "this-machine", now: testNow) == expected)
    }

    @Test func json_spells_the_reasons_out_and_leaves_them_out_when_there_are_none() throws {
        let json = Exchange.encode(sessions, as: .json, localDevice: "this-machine")
        #expect(json.contains("\"reason\" : \"allowed\""))
        #expect(json.contains("\"reason\" : \"outside-hours\""))
        // Only the two pass-throughs with a reason carry the key, and one session an intention.
        #expect(json.components(separatedBy: "\"reason\"").count - 1 == 2)
        #expect(json.components(separatedBy: "\"intention\"").count - 1 == 1)
    }

    @Test func csv_has_the_new_columns_last_and_quotes_the_intention() throws {
        var imported = sessions
        (imported[3].device, imported[3].origin) = ("", "desktop-3")
        let csv = Exchange.encode(imported, as: .csv, localDevice: "this-machine")
        let lines = csv.components(separatedBy: "\r\n")
        #expect(lines[0] == "id,program,started_at,ended_at,outcome,paused_seconds,deepen_count,quotes,device,reason,intention,origin,kind,typed,alternative,stopped_at_once")
        #expect(lines[1].hasSuffix(",this-machine,allowed,,,,,,"))
        #expect(lines[2].hasSuffix(",laptop-2,outside-hours,,,,,,"))
        #expect(lines[3].hasSuffix(",this-machine,,\"reply to Ana, then \"\"close\"\" it — café ☕\",,,,,"))
        #expect(lines[4].hasSuffix(",this-machine,,,desktop-3,,,,"))
    }

    @Test func an_intention_with_a_line_break_survives_csv() throws {
        var record = sessions[2]
        record.intention = "two things:\nchat, then music"
        let csv = Exchange.encode([record], as: .csv, localDevice: "d")
        record.origin = "d"
        #expect(try Exchange.decode(csv, localDevice: "d", now: testNow) == [record])
    }

    @Test func an_empty_intention_reads_as_none() throws {
        var record = sessions[2]
        record.intention = ""
        let json = Exchange.encode([record], as: .json, localDevice: "d")
        (record.intention, record.origin) = (nil, "d")
        #expect(try Exchange.decode(json, localDevice: "d", now: testNow) == [record])
    }

    @Test func a_csv_with_the_first_nine_column_header_still_reads() throws {
        let csv = """
            id,program,started_at,ended_at,outcome,paused_seconds,deepen_count,quotes,device\r
            a1,firefox,2027-01-15T08:00:00.123Z,2027-01-15T08:00:42.623Z,exit,42.5,2,zen-001 poetry-004,\r
            a2,steam,2027-01-15T09:00:00Z,2027-01-15T09:00:00Z,passthrough,0,0,,laptop-1\r

            """
        let read = try Exchange.decode(csv, localDevice: "this-machine", now: testNow)
        let eight = try #require(Exchange.date("2027-01-15T08:00:00.123Z"))
        let later = try #require(Exchange.date("2027-01-15T08:00:42.623Z"))
        let nine = try #require(Exchange.date("2027-01-15T09:00:00Z"))
        #expect(read == [
            SessionRecord(id: "a1", program: "firefox", startedAt: eight, endedAt: later, outcome: .exit,
                          pausedSeconds: 42.5, deepenCount: 2, quotes: ["zen-001", "poetry-004"], origin: Exchange.importedOrigin),
            SessionRecord(id: "a2", program: "steam", startedAt: nine, endedAt: nine, outcome: .passthrough, origin: "laptop-1"),
        ])
    }

    @Test func a_row_must_have_as_many_fields_as_its_header() throws {
        let csv = "id,program,started_at,ended_at,outcome,paused_seconds,deepen_count,quotes,device\r\n"
            + "a1,steam,2027-01-15T09:00:00Z,2027-01-15T09:00:00Z,passthrough,0,0,,,allowed\r\n"
        #expect(failure(csv) == "line 2: expected 9 fields, found 10")
    }

    @Test(arguments: Exchange.Format.allCases)
    func a_reason_on_a_session_that_was_not_a_pass_through_is_refused_naming_where(format: Exchange.Format) throws {
        var records = sessions
        records[2].reason = .allowed // the proceed
        let text = Exchange.encode(records, as: format, localDevice: "this-machine")
        let place = format == .json ? "session 3" : "line 4"
        #expect(failure(text)
                == "\(place): a reason (allowed, outside-hours, autostart, no-window) belongs to a passthrough only, not \"allowed\" on proceed")
    }

    @Test(arguments: Exchange.Format.allCases)
    func an_unknown_reason_is_refused_naming_where(format: Exchange.Format) throws {
        let text = Exchange.encode(sessions, as: format, localDevice: "this-machine")
            .replacingOccurrences(of: "outside-hours", with: "bored")
        let place = format == .json ? "session 2" : "line 3"
        #expect(failure(text)
                == "\(place): a reason (allowed, outside-hours, autostart, no-window) belongs to a passthrough only, not \"bored\" on passthrough")
    }

    @Test func importing_keeps_reasons_and_intentions_in_the_store() throws {
        let folder = TemporaryDirectory()
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        let text = Exchange.encode(sessions, as: .csv, localDevice: "elsewhere")
        #expect(try store.insertMissing(try Exchange.decode(text, localDevice: "this-machine", now: testNow)) == 4)
        let read = try store.sessions()
        #expect(read.map(\.reason) == [.allowed, .outsideHours, nil, nil])
        #expect(read.map(\.intention) == [nil, nil, Self.intention, nil])
    }

    // MARK: Inbox

    @Test func pass_throughs_dropped_with_a_reason_are_folded_in_with_it() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/data/miga/miga.sqlite"
        let inbox = Inbox(besideStoreAt: path)
        try inbox.dropPassThrough(id: "p1", program: "discord", at: start, reason: .allowed)
        try inbox.dropPassThrough(id: "p2", program: "steam", at: start + 1, reason: .outsideHours)
        try inbox.dropPassThrough(id: "p3", program: "steam", at: start + 2)
        let rows = try SessionStore(path: path).sessions()
        #expect(rows == [
            SessionRecord(id: "p1", program: "discord", startedAt: start, endedAt: start, outcome: .passthrough, reason: .allowed),
            SessionRecord(id: "p2", program: "steam", startedAt: start + 1, endedAt: start + 1, outcome: .passthrough,
                          reason: .outsideHours),
            SessionRecord(id: "p3", program: "steam", startedAt: start + 2, endedAt: start + 2, outcome: .passthrough),
        ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox.directory).isEmpty)
    }

    @Test func an_event_of_an_unknown_kind_is_left_in_the_inbox_unread() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/data/miga/miga.sqlite"
        let inbox = Inbox(besideStoreAt: path)
        try inbox.dropPassThrough(id: "p1", program: "discord", at: start, reason: .allowed)
        // Perhaps from a newer miga: kept for it, rather than folded without its meaning.
        try folder.write("passthrough:xyz\tp9\t\(start.milliseconds)\tsteam\n", to: "data/miga/inbox/p9.event")
        let rows = try SessionStore(path: path).sessions()
        #expect(rows.map(\.id) == ["p1"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox.directory) == ["p9.event"])
    }

    @Test func an_event_line_names_its_reason_after_a_colon() throws {
        let event = try #require(InboxEvent(line: "passthrough:outside-hours\tp1\t1800000000123\tmy\tapp\n"))
        #expect(event == InboxEvent(line: "passthrough:outside-hours\tp1\t1800000000123\tmy\tapp"))
        #expect(event.reason == .outsideHours)
        #expect(event.program == "my\tapp") // the program is the rest of the line
        #expect(try #require(InboxEvent(line: "passthrough\tp1\t5\tsteam")).reason == nil)
        #expect(InboxEvent(line: "passthrough:\tp1\t5\tsteam") == nil)
        #expect(InboxEvent(line: "passthroughs\tp1\t5\tsteam") == nil)
        #expect(InboxEvent(line: "passthrough:allowed\tp1\tsoon\tsteam") == nil)
    }

    /// The line breaks an event's line may end (or begin) with are those Foundation's `.newlines` trims.
    @Test(arguments: ["\r\n", "\n\n", "\r", "\u{2028}", "\u{85}\u{0B}", "\u{0C}"])
    func an_event_line_reads_the_same_whatever_line_breaks_end_it(breaks: String) throws {
        let line = breaks + "passthrough\tp1\t5\tmy app" + breaks
        let event = try #require(InboxEvent(line: line))
        #expect(event.program == "my app")
        #expect(event == InboxEvent(line: line.trimmingCharacters(in: .newlines)))
    }
}
