#if canImport(Glibc)
import Glibc
#endif

/// The store's write-ahead log, kept between runs (see `init(path:role:)`):
/// checkpointed only as a store closes, and begun afresh there.
extension SessionStore {
    /// How long the write-ahead log may grow, in bytes, before a store that
    /// closes checkpoints it. A launch that finds no other connection reads
    /// the whole log before its first frame (about 0.6 ms a megabyte here),
    /// so it stays short: a pause adds some 70 KB, so every fourth or so
    /// checkpoints, after its pause.
    static let longLog = 256 << 10

    /// Keeps the log short, as the store closes (SQLite's own checkpoint at
    /// close is switched off): a log longer than `longLog` is checkpointed
    /// and begun afresh here, with one small write. A log begun afresh has
    /// its new header synced to disk, and a new log file its folder: done
    /// here, after a pause, so that the next launch's first write goes on
    /// at the end of the log and syncs nothing before its first frame.
    /// Best effort: a log it cannot checkpoint now is left for the next.
    func keepLogShort() {
        var info = stat()
        guard stat(path + "-wal", &info) == 0, Int(info.st_size) > Self.longLog else { return }
        try? queue.withConnection { db in
            // PASSIVE waits for no one. Its answer: blocked, frames in the log, frames checkpointed.
            guard let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)"),
                  row[0] as Int == 0, row[1] as Int == row[2] as Int else { return }
            // Begun afresh by a write of page 1 that changes nothing (the
            // tables' version, written as it stands).
            try db.transaction(.immediate) {
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                try db.execute(sql: "PRAGMA user_version = \(version)")
            }
        }
    }
}
