import MIGACore

/// The arrangement setup and the hub share: a quiet header at the top, hints
/// at the bottom, and the body centred in between with room to breathe.
package enum ScreenLayout {
    /// `margins`: a blank row at the top and bottom and above the body;
    /// without them (a window that needs every row), none.
    package static func compose(size: TerminalSize, header: [Line], body: [Line], footer: [Line], margins: Bool = true) -> Frame {
        let room = size.rows - header.count - footer.count - (margins ? 2 : 0)
        let body = Array(body.prefix(max(0, room)))
        let above = max(margins ? 1 : 0, (room - body.count) * 2 / 5)
        var lines: [Line] = (margins ? [.blank] : []) + header
        lines += Array(repeating: .blank, count: above)
        lines += body
        lines += Array(repeating: .blank, count: max(0, size.rows - lines.count - footer.count - (margins ? 1 : 0)))
        lines += footer
        return Frame(size: size, lines: lines)
    }

    /// `text` wrapped to `measure` and centred, in `tone`.
    package static func paragraph(_ text: String, measure: Int, width: Int, tone: Tone = .body) -> [Line] {
        TextWrap.balancedLines(text, measure: measure).map { Line.centered($0, tone, in: width) }
    }
}
