#if canImport(Glibc)
import Glibc
#endif
import CSQLite
import FoundationEssentials
import MIGACore

extension SessionStore {
    /// Opens the store at `path`; when the file is damaged (not a database,
    /// or cut short), moves it aside under a timestamped name, never deleting
    /// it, and begins a new one. Returns the store and, after a rescue, what
    /// happened in words for the person.
    public static func openRescuing(path: String, role: Role = .command, now: Date = Date()) throws -> (SessionStore, rescued: String?) {
        do {
            return (try SessionStore(path: path, role: role), nil)
        } catch where isDamage(error) {
            let (store, words) = try rescue(path: path, damage: error, role: role, now: now)
            return (store, words)
        }
    }

    /// Moves the damaged store at `path` aside and begins a new one there;
    /// `damage` is what showed it (on opening, or on a later read).
    package static func rescue(path: String, damage: Error, role: Role = .command, now: Date) throws -> (SessionStore, String) {
        let kept = try moveAside(path: path, now: now)
        return (try SessionStore(path: path, role: role),
                "the history at \(path) is damaged (\(describe(damage))); it was moved to \(kept) and a new one begun")
    }

    /// Whether `error` says the file itself is broken, rather than busy or unwritable.
    public static func isDamage(_ error: Error) -> Bool {
        (error as? SQLiteError)?.isDamage == true
    }

    /// What a damage says in words: "it is not a database", "it is cut short or corrupted".
    public static func describe(_ error: Error) -> String {
        guard let error = error as? SQLiteError else { return "\(error)" }
        return error.code == SQLITE_NOTADB ? "it is not a database" : "it is cut short or corrupted"
    }

    /// Renames the store and its -wal and -shm files to `…damaged-20261122T044600Z`
    /// (a number added when that name is taken); returns the store's new name.
    @discardableResult
    public static func moveAside(path: String, now: Date) throws -> String {
        var formatter = Date.ISO8601FormatStyle()
        formatter.timeZone = .gmt
        let stamp = now.formatted(formatter).filter { $0 != "-" && $0 != ":" }
        var target = "\(path).damaged-\(stamp)"
        var number = 1
        while access(target, F_OK) == 0 {
            number += 1
            target = "\(path).damaged-\(stamp)-\(number)"
        }
        // The journal files first: the store without them is still whole
        // enough to read, they without it are nothing.
        for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
            if rename(path + suffix, target + suffix) != 0 { throw FileSystemError(path: path + suffix, code: errno) }
        }
        if rename(path, target) != 0 { throw FileSystemError(path: path, code: errno) }
        return target
    }
}
