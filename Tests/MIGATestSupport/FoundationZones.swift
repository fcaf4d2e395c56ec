import Foundation
import MIGACore
import MIGAStore

// The tests compute what they expect with Foundation's calendar and its
// `TimeZone` (ICU's rules, a reckoning apart from the C library's that MIGA
// uses), and hand MIGA the same zone by its name.

extension LocalZone {
    public init(_ zone: TimeZone) {
        guard let local = LocalZone(identifier: zone.identifier) else { fatalError("no zone \(zone.identifier) here") }
        self = local
    }
}

extension LocalDay {
    public init(_ instant: Date, in zone: TimeZone) { self.init(instant, in: LocalZone(zone)) }
    public func start(in zone: TimeZone) -> Date { start(in: LocalZone(zone)) }
    public static func dayAndHour(of instant: Date, in zone: TimeZone) -> (day: LocalDay, hour: Int) {
        dayAndHour(of: instant, in: LocalZone(zone))
    }
}

extension FocusHours {
    public func contains(_ date: Date, in zone: TimeZone) -> Bool { contains(date, in: LocalZone(zone)) }
}
