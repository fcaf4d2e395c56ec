import FoundationEssentials
import Glibc
import Synchronization

/// A time zone by the C library's rules: the tz database that `localtime_r`
/// reads, which is what the rest of the desktop uses. The system's own zone
/// (TZ, else /etc/localtime) for every figure and rule; a named one for a
/// test of a zone this machine is not in.
///
/// Foundation's `TimeZone` knows named zones only through ICU, which would
/// be most of the binary's size; MIGA asks the C library one question (the
/// offset from UTC at an instant) and does the calendar arithmetic itself
/// (see `LocalDay`).
public struct LocalZone: Sendable, Hashable, CustomStringConvertible {
    /// The TZ value that stands for the zone; nil: the system's own.
    private let rule: String?

    /// The zone of this machine and of the person at it.
    public static let system = LocalZone(rule: nil)
    /// Coordinated Universal Time.
    public static let utc = LocalZone(rule: "UTC0")

    private init(rule: String?) { self.rule = rule }

    /// A zone of the tz database ("Europe/Berlin", "America/St_Johns"), when
    /// this machine has its rules.
    public init?(identifier: String) {
        let parts = identifier.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
              identifier.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 }),
              access("/usr/share/zoneinfo/" + identifier, R_OK) == 0 else { return nil }
        rule = ":" + identifier
    }

    /// Seconds the wall clock is ahead of UTC at `date` (east positive).
    public func secondsFromGMT(for date: Date) -> Int {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        // TZ is the process's: a named zone is read with TZ set for the
        // moment, and every reading takes the lock, so no other one sees it.
        return zoneRules.withLock { _ in
            guard let rule else {
                localtime_r(&seconds, &parts)
                return parts.tm_gmtoff
            }
            let previous = getenv("TZ").map { String(cString: $0) }
            setenv("TZ", rule, 1)
            tzset()
            localtime_r(&seconds, &parts)
            if let previous { setenv("TZ", previous, 1) } else { unsetenv("TZ") }
            tzset()
            return parts.tm_gmtoff
        }
    }

    /// The wall clock at `date`: its local day, and the seconds since that day's midnight.
    public func wallClock(at date: Date) -> (day: LocalDay, secondOfDay: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + secondsFromGMT(for: date)
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (LocalDay(number: day), seconds - day * 86_400)
    }

    /// The first instant after `date`, up to `limit`, from which the zone's
    /// offset from UTC is another (a change of clocks); nil when none comes.
    /// Looked for a day at a time, then to the second: zones change their
    /// clocks months apart.
    public func nextOffsetChange(after date: Date, through limit: Date) -> Date? {
        let offset = secondsFromGMT(for: date)
        var before = date.timeIntervalSince1970.rounded(.down)
        while before < limit.timeIntervalSince1970 {
            var after = Swift.min(before + 86_400, limit.timeIntervalSince1970.rounded(.up))
            guard secondsFromGMT(for: Date(timeIntervalSince1970: after)) != offset else {
                before = after
                continue
            }
            while after - before > 1 {
                let middle = ((before + after) / 2).rounded(.down)
                if secondsFromGMT(for: Date(timeIntervalSince1970: middle)) == offset { before = middle } else { after = middle }
            }
            return Date(timeIntervalSince1970: after)
        }
        return nil
    }

    /// The wall clock at `date` to the minute, `2026-11-22 09:41`.
    public func minuteText(at date: Date) -> String {
        let clock = wallClock(at: date)
        return "\(clock.day) \(zeroPadded(clock.secondOfDay / 3600, width: 2)):\(zeroPadded(clock.secondOfDay / 60 % 60, width: 2))"
    }

    /// The zone's name in the tz database ("Europe/Berlin"), as TZ or
    /// /etc/localtime give it for the system's; "UTC" when neither names one.
    public var identifier: String {
        if let rule { return rule == "UTC0" ? "UTC" : String(rule.dropFirst()) }
        if let name = getenv("TZ").map({ String(cString: $0) }), !name.isEmpty {
            return name.hasPrefix(":") ? String(name.dropFirst()) : name
        }
        var target = [CChar](repeating: 0, count: 4096)
        let length = readlink("/etc/localtime", &target, target.count - 1)
        guard length > 0 else { return "UTC" }
        let link = String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return link.firstRange(of: "zoneinfo/").map { String(link[$0.upperBound...]) } ?? "UTC"
    }

    public var description: String { identifier }
}

/// Held while the C library's zone is read (see `LocalZone.secondsFromGMT`).
private let zoneRules = Mutex(())

/// The process's environment as `NAME=value` entries, read while no zone
/// reading has TZ changed: a spawn on another thread that reads `environ`
/// itself may meet the array just as `setenv` replaces it (EFAULT).
public func steadyEnvironmentEntries() -> [String] {
    zoneRules.withLock { _ in
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            entries.append(String(cString: entry))
            cursor += 1
        }
        return entries
    }
}
