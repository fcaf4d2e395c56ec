import Testing
@testable import MIGAStore

/// A spreadsheet reads a CSV file by code points: a comma or a quote is one
/// whatever follows it. Followed by a combining mark, it is one Character
/// with the mark in Swift, and must still be quoted, doubled and read back.
@Suite struct CSVCodePointTests {
    @Test func a_comma_before_a_combining_mark_still_quotes_the_cell() {
        #expect(Array(Exchange.csvField("a,\u{301}b").unicodeScalars) == Array("\"a,\u{301}b\"".unicodeScalars))
    }

    @Test func a_quote_before_a_combining_mark_is_doubled() {
        #expect(Array(Exchange.csvField("say \"\u{301}hi").unicodeScalars) == Array("\"say \"\"\u{301}hi\"".unicodeScalars))
    }

    @Test(arguments: ["a,\u{301}b", "say \"\u{301}hi\"\u{301}", "\"\u{301}", ",\u{301}", "line\n\u{301}next", "plain", "=\u{301}1"])
    func each_cell_reads_back_as_written(value: String) throws {
        let line = [value, "next"].map(Exchange.csvField).joined(separator: ",") + "\r\n"
        let rows = try Exchange.csvRows(line + line)
        #expect(rows.count == 2)
        for row in rows {
            #expect(row.count == 2)
            #expect(Array(Exchange.csvText(row.first ?? "").unicodeScalars) == Array(value.unicodeScalars))
        }
    }

    @Test func a_break_is_a_lone_line_feed_a_lone_return_or_both() throws {
        #expect(try Exchange.csvRows("a\nb\rc\r\nd") == [["a"], ["b"], ["c"], ["d"]])
        #expect(try Exchange.csvRows("\"x\r\ny\",z\r\n") == [["x\r\ny", "z"]])
    }
}
