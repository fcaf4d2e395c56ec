import FoundationEssentials
import MIGACore

/// What `Sync` keeps in the store: how far it read each other machine's file
/// (in the key-value table, one key a file), and which sessions are this
/// machine's to publish.
extension SessionStore {
    /// The key under which how far `file` was read is kept.
    static func syncPositionKey(_ file: String) -> String { syncPositionPrefix + file }

    private static let syncPositionPrefix = "sync-read:"

    /// How far `file` was read, when it was.
    func syncPosition(of file: String) throws -> SyncPosition? {
        try meta(Self.syncPositionKey(file)).flatMap { try? JSONDecoder().decode(SyncPosition.self, from: Data($0.utf8)) }
    }

    /// Every file a sync read, with how far it read it, by path.
    public func syncPositions() throws -> [(file: String, position: SyncPosition)] {
        let prefix = Self.syncPositionPrefix
        let rows = try queue.read { db in
            // The keys that start with the prefix, through the key's index.
            try Row.fetchAll(db, sql: "SELECT key, value FROM meta WHERE key >= ? AND key < ? ORDER BY key",
                             arguments: [prefix, String(prefix.dropLast()) + ";"])
        }
        return rows.compactMap { row in
            let key: String = row["key"], value: String = row["value"]
            guard let position = try? JSONDecoder().decode(SyncPosition.self, from: Data(value.utf8)) else { return nil }
            return (String(key.dropFirst(prefix.count)), position)
        }
    }

    /// Forgets how far the files of `folder` were read, but for those named in `kept`.
    func forgetSyncPositions(in folder: String, keeping kept: Set<String>) throws {
        let gone = try syncPositions().map(\.file).filter { file in
            file.hasPrefix(folder + "/") && !kept.contains(String(file.dropFirst(folder.count + 1)))
        }
        guard !gone.isEmpty else { return }
        try immediate { db in
            for file in gone { try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [Self.syncPositionKey(file)]) }
        }
    }

    /// The finished sessions this machine publishes: its own and those it
    /// imported, never what another machine's file brought.
    func sessionsToPublish() throws -> [SessionRecord] {
        try sessions(where: "device = '' AND outcome != 'open'")
    }
}
