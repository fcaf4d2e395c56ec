import FoundationEssentials
import MIGACore

/// The store's small key-value table: this machine's id, and the counters
/// runs claim so that a chore is done once (the weekly look back).
extension SessionStore {
    /// This machine's id among the devices that sync one history, made on first use.
    public func deviceID() throws -> String {
        if let lookingDeviceID { return lookingDeviceID }
        return try immediate { db in
            if let id = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'device_id'") { return id }
            let id = newUUID()
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('device_id', ?)", arguments: [id])
            return id
        }
    }

    /// A value kept in the store's small key-value table.
    public func meta(_ key: String) throws -> String? {
        try queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) }
    }

    public func setMeta(_ key: String, _ value: String) throws {
        try immediate { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }

    /// What `claim` found: the counter stood at the value or beyond already,
    /// or this run raised it (from the value it stood at; nil when it had none).
    package enum Claim: Equatable {
        case taken
        case claimed(after: Int?)
    }

    /// Raises the counter kept under `key`, which only goes up, to `value`, in
    /// one write under the lock: of two runs at once, one claims it.
    package func claim(_ key: String, upTo value: Int) throws -> Claim {
        // Claimed already, as on nearly every run: a read says so without taking the write lock.
        if let stood = try meta(key).flatMap({ Int($0) }), stood >= value { return .taken }
        return try immediate { db in
            let stood = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]).flatMap { Int($0) }
            if let stood, stood >= value { return .taken }
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, String(value)])
            return .claimed(after: stood)
        }
    }
}
