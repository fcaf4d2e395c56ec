import MIGACore

/// The machines that share one history, and naming one of them.
extension SessionStore {
    /// Every device sessions happened on, this machine's first, then the others by id.
    public func devices() throws -> [String] {
        let local = try deviceID()
        let others = try queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT DISTINCT CASE WHEN origin != '' THEN origin ELSE device END AS machine FROM sessions
                WHERE device != '' OR origin != '' ORDER BY machine
                """)
        }
        return [local] + others.filter { $0 != local }
    }

    /// The device `name` stands for: `this`, a whole id, or the start of one
    /// as `miga history` shows it (its first eight characters). Unknown and
    /// ambiguous names are refused with the devices there are.
    public func device(named name: String) throws(MigaError) -> String {
        let all: [String]
        do {
            all = try devices()
        } catch {
            throw MigaError("the history cannot be read (\(error))")
        }
        if name == "this" { return all[0] }
        let lowered = name.lowercased()
        let matches = all.filter { $0.hasPrefix(lowered) }
        func listed(_ ids: [String]) -> String {
            ids.map { $0.prefix(8) + ($0 == all[0] ? " (this machine)" : "") }.joined(separator: ", ")
        }
        guard !lowered.isEmpty, !matches.isEmpty else {
            throw MigaError(usage: "no device starts with \"\(printable(name))\"; the devices here are \(listed(all))")
        }
        guard matches.count == 1 else {
            throw MigaError(usage: "\"\(printable(name))\" starts more than one device's id: \(listed(matches)); give more of it")
        }
        return matches[0]
    }
}

