/// The arrangement setup and the hub share: a quiet header at the top, hints
/// at the bottom, and the body centred in between with room to breathe.
enum ScreenLayout {
    static func compose(size: TerminalSize, header: [Line], body: [Line], footer: [Line]) -> Frame {
        let room = size.rows - header.count - footer.count - 2
        let body = Array(body.prefix(max(0, room)))
        let above = max(1, (room - body.count) * 2 / 5)
        var lines: [Line] = [.blank] + header
        lines += Array(repeating: .blank, count: above)
        lines += body
        lines += Array(repeating: .blank, count: max(0, size.rows - lines.count - footer.count - 1))
        lines += footer
        return Frame(size: size, lines: lines)
    }

    /// `text` wrapped to `measure` and centred, in `tone`.
    static func paragraph(_ text: String, measure: Int, width: Int, tone: Tone = .body) -> [Line] {
        TextWrap.balancedLines(text, measure: measure).map { Line.centered($0, tone, in: width) }
    }
}
