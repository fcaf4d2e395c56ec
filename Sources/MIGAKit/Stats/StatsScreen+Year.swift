import FoundationEssentials
import MIGACore
import MIGATerminal

/// `miga stats --year`: a year of exits, a cell a day.
extension StatsScreen {
    /// The weeks of a year's grid: the year and the week it began in.
    static let yearWeeks = 53

    /// A year of conscious exits, a column per week and a row per weekday.
    /// A window too narrow for the whole year gets it folded into parts,
    /// one under the other, each with its own month names.
    public static func year(_ exits: [LocalDay: Int], today: LocalDay, width: Int) -> [Line] {
        let thisMonday = today.monday.number
        let weeks = yearWeeks
        let firstMonday = thisMonday - (weeks - 1) * LocalDay.daysInWeek
        let shades: [(Character, Tone)] = [("·", .track), ("░", .accent(glow: 0)), ("▒", .accent(glow: 0)), ("▓", .accent(glow: 0)), ("█", .accent(glow: 0))]
        func shade(_ count: Int) -> (Character, Tone) {
            shades[count == 0 ? 0 : count == 1 ? 1 : count == 2 ? 2 : count <= 4 ? 3 : 4]
        }
        let room = max(10, width - margin.count - 4)
        let parts = (weeks + room - 1) / room
        let partWeeks = (weeks + parts - 1) / parts
        var lines = wrapped("Conscious exits · the last \(weeks) weeks", width: width, tone: .muted)
        let names = ["Mon", "", "Wed", "", "Fri", "", "Sun"]
        for part in 0..<parts {
            let first = part * partWeeks
            let count = min(partWeeks, weeks - first)
            let partMonday = firstMonday + first * LocalDay.daysInWeek
            if part > 0 { lines.append(.blank) }
            // A month at both ends of the year is named at the end, where it is now.
            let now = part == 0 && parts > 1 ? LocalDay(number: thisMonday).components.1 : nil
            lines.append(Line([Span(margin + "    " + monthLabels(firstMonday: partMonday, weeks: count, room: max(count, room),
                                                                  namedLater: now), .muted)]))
            for row in 0..<LocalDay.daysInWeek {
                var spans = [Span(margin + names[row].rightPadded(to: 4), .muted)]
                for week in 0..<count {
                    let day = LocalDay(number: partMonday + week * LocalDay.daysInWeek + row)
                    guard day <= today else { spans.append(Span(" ")); continue }
                    let (glyph, tone) = shade(exits[day] ?? 0)
                    spans.append(Span(String(glyph), tone))
                }
                lines.append(Line(spans))
            }
        }
        lines.append(Line([Span(margin + "    less ", .muted)] + shades.map { Span(String($0.0) + " ", $0.1) } + [Span("more", .muted)]))
        return lines
    }

    /// The row of month names over a grid of `weeks` columns from `firstMonday`,
    /// in `room` cells: each name over the first week of its month, or as
    /// close after it as the name before allows. A month at both ends (a
    /// grid of 53 weeks is longer than a year) is named at the end, where it
    /// is now; the last names move left when they would run out of room.
    /// `namedLater`: a month named in a later part of a folded year, not at this part's start.
    static func monthLabels(firstMonday: Int, weeks: Int, room: Int, namedLater: Int? = nil) -> String {
        var starts: [(week: Int, month: Int)] = []
        for week in 0..<weeks {
            let (_, month, _) = LocalDay(number: firstMonday + week * LocalDay.daysInWeek).components
            if starts.last?.month != month { starts.append((week, month)) }
        }
        if starts.count > 1, starts.first?.month == starts.last?.month || starts.first?.month == namedLater { starts.removeFirst() }
        let label = 3, spacing = 4 // a name, and the space after it
        while starts.count > 1 && starts.count * spacing - 1 > room { starts.removeFirst() }
        var places: [Int] = []
        for start in starts { places.append(max(start.week, (places.last ?? -spacing) + spacing)) }
        if let last = places.last, last + label > room {
            places[places.count - 1] = room - label
            for index in places.indices.dropLast().reversed() { places[index] = min(places[index], places[index + 1] - spacing) }
        }
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var row = Array(repeating: Character(" "), count: max(room, weeks))
        for (start, place) in zip(starts, places) where place >= 0 {
            for (offset, letter) in names[start.month - 1].enumerated() where place + offset < row.count { row[place + offset] = letter }
        }
        while row.last == " " { row.removeLast() }
        return String(row)
    }
}
