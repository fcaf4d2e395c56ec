#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore

/// The history for a run that only looks (see `Upkeep`): it writes nothing,
/// not a byte of the store, its -wal and -shm files or its inbox, and makes
/// no store where there is none.
extension SessionStore {
    /// The history at `path`, read as it is: opened read only; when there is
    /// none, an empty one in memory. When what every reader counts needs a
    /// write first (tables of an older MIGA, pass-throughs waiting in the
    /// inbox, a pause whose gateway is gone), it is done to a copy in memory,
    /// so the figures are those a store opened to write would give.
    public static func reading(path: String) throws -> SessionStore {
        guard access(path, F_OK) == 0 else { return try inMemory(copying: nil, path: path) }
        let file = try SerialConnection.looking(at: path)
        let version = try Schema.version(of: file)
        if version > Schema.steps.count { throw StoreError.newerSchema(found: version, known: Schema.steps.count) }
        let deviceID = try file.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'device_id'") }
        let store = SessionStore(looking: file, path: path, deviceID: deviceID ?? newUUID())
        let inboxWaits = (try? FileManager.default.contentsOfDirectory(atPath: store.inbox.directory))?.contains { !$0.hasPrefix(".") } ?? false
        // (Abandoned pauses looked for in tables of this MIGA's only.)
        if version == Schema.steps.count, !inboxWaits, try !store.hasAbandoned() { return store }
        return try inMemory(copying: file, path: path, deviceID: deviceID)
    }

    /// Whether an `open` row's gateway is gone: a pause every reader counts as abandoned.
    func hasAbandoned() throws -> Bool {
        let owners = try queue.read { db in
            try String?.fetchAll(db, sql: "SELECT owner FROM sessions WHERE outcome = 'open'")
        }
        return owners.contains(where: { owner in owner.flatMap(ProcessIdentity.init)?.isRunning != true })
    }

    /// A store in memory: a copy of `file` (none: empty), brought up to date
    /// as a store opened to write would be, the inbox folded in and kept.
    private static func inMemory(copying file: SerialConnection?, path: String, deviceID: String? = nil) throws -> SessionStore {
        let memory = try SerialConnection(path: "", .memory)
        if let file { try file.backup(to: memory) }
        try Schema.migrate(memory, writeAheadLog: false)
        let store = SessionStore(looking: memory, path: path, deviceID: deviceID ?? newUUID())
        try store.foldInbox(removing: false)
        _ = try store.immediate { db in try settleAbandoned(db) }
        return store
    }
}
