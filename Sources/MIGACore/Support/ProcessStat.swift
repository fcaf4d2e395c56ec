/// What `/proc/PID/stat` says of a process: its state and its start time.
/// Read in one place: the command name in parentheses may hold spaces and
/// parentheses, so fields are counted after the last `)`.
package struct ProcessStat {
    /// `R`, `S`, `D`… ; `Z` for a zombie waiting for its parent, `X` for dead.
    package let state: Character
    /// Clock ticks since boot when it started (field 22).
    package let startTicks: UInt64?
    /// The parent process (field 4); nil for the first process.
    package let parent: Int32?

    /// Nil when there is no such process.
    package init?(pid: Int32, proc: String = "/proc") {
        guard pid > 0, let text = (try? readTextFile("\(proc)/\(pid)/stat")) ?? nil,
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard let state = fields.first?.first else { return nil }
        self.state = state
        startTicks = fields.count > 19 ? UInt64(fields[19]) : nil
        parent = fields.count > 1 ? Int32(fields[1]).flatMap { $0 > 0 ? $0 : nil } : nil
    }

    /// Running: neither a zombie nor dead.
    package var isLive: Bool { state != "Z" && state != "X" }
}
