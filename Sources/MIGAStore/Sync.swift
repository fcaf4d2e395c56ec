#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore

/// One history across machines, through a folder that a file-sync tool
/// (Syncthing, Nextcloud…) already replicates.
///
/// Each machine appends its completed sessions, one JSON line each, to a file
/// of its own in the folder, named by its device id; it reads every other
/// `miga-*.jsonl` there (conflict copies included) and adds the sessions it
/// lacks. No machine ever rewrites another's file, sessions are never changed
/// once complete, and ids are unique, so syncing in any order converges.
public enum Sync {
    public struct Report: Equatable, Sendable {
        public let ownFile: String
        /// Sessions of this machine newly appended to its file.
        public let written: Int
        /// Sessions from other machines newly added to the store.
        public let merged: Int
        /// Other devices' files read.
        public let devices: Int
        /// Lines that were not whole sessions (a file still arriving, say), skipped.
        public let skipped: Int
    }

    public static func run(store: SessionStore, folder: String, now: Date = Date()) throws(MigaError) -> Report {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory else {
            throw MigaError("\(folder) is not a folder (create it, or give the folder your sync tool shares)")
        }
        do {
            let device = try store.deviceID()
            let ownName = "miga-\(device).jsonl"
            let ownFile = folder + "/" + ownName
            let sessions = try store.sessions()

            // Append what this machine has and its file lacks: its own
            // sessions and those it imported, never what another file brought.
            let written = try appendMissing(sessions.filter { $0.device.isEmpty && $0.outcome != .open },
                                            to: ownFile, device: device, now: now)

            // Add what the other machines have and this store lacks. A file
            // is another machine's by its name (conflict copies included);
            // one named for this machine holds nothing new, and is never
            // taken as this machine's own.
            var incoming: [SessionRecord] = []
            var skipped = 0
            var devices: Set<String> = []
            for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
                guard let fileDevice = Self.device(ofFile: name), fileDevice != device else { continue }
                let (_, records, bad) = read(folder + "/" + name, device: fileDevice, localDevice: device, now: now)
                devices.insert(fileDevice)
                incoming += records
                skipped += bad
            }
            let merged = try store.insertMissing(incoming)
            return Report(ownFile: ownFile, written: written, merged: merged, devices: devices.count, skipped: skipped)
        } catch let error as MigaError {
            throw error
        } catch {
            throw MigaError("\(error)")
        }
    }

    /// The device whose sync file this is, from its name: `miga-ID.jsonl`, or
    /// a sync tool's conflict copy of it (`miga-ID.sync-conflict-….jsonl`).
    static func device(ofFile name: String) -> String? {
        guard name.hasPrefix("miga-"), name.hasSuffix(".jsonl") else { return nil }
        let id = String(name.dropFirst(5).prefix(36))
        let shape = id.count == 36 && id.enumerated().allSatisfy { index, character in
            [8, 13, 18, 23].contains(index) ? character == "-" : character.isHexDigit
        }
        return shape ? id.lowercased() : nil
    }

    /// The ids and sessions in the sync file of `device`, and how many lines
    /// were not whole sessions of that device. A line says which machine
    /// published it, and only its own file's machine may: anything else is
    /// skipped. Its sessions are kept as that device's, never this machine's.
    static func read(_ path: String, device: String, localDevice: String, now: Date) -> (ids: Set<String>, records: [SessionRecord], skipped: Int) {
        guard let text = (try? readTextFile(path)) ?? nil else { return ([], [], 0) }
        return parse(text, device: device, localDevice: localDevice, now: now)
    }

    /// The ids and sessions in the text of the sync file of `device`.
    package static func parse(_ text: String, device: String, localDevice: String, now: Date) -> (ids: Set<String>, records: [SessionRecord], skipped: Int) {
        var ids: Set<String> = []
        var records: [SessionRecord] = []
        var skipped = 0
        let decoder = JSONDecoder()
        for (index, line) in text.lines().enumerated() {
            guard let record = try? decoder.decode(Exchange.Record.self, from: Data(line.utf8)), record.device.lowercased() == device,
                  var session = try? Exchange.session(record, place: "line \(index + 1)", now: now) else {
                skipped += 1
                continue
            }
            session.device = device
            if session.origin == localDevice { session.origin = "" }
            ids.insert(session.id)
            records.append(session)
        }
        return (ids, records, skipped)
    }

    /// Appends the sessions this machine's file lacks, as the file's one
    /// writer at a time: under an exclusive lock the ids are read from the
    /// file itself, so syncs that overlap never write a session twice; a
    /// line that a killed writer left cut short is ended first, so the next
    /// line is never glued to it. Only this machine's own regular file: a
    /// link put in its place is not followed (the lines would land in a file
    /// outside the folder), and a pipe is not waited on. Returns how many
    /// sessions it wrote.
    static func appendMissing(_ sessions: [SessionRecord], to path: String, device: String,
                              now: Date) throws(FileSystemError) -> Int {
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        if fd < 0 {
            let code = errno
            throw FileSystemError(path: path, code: code, reason: code == ELOOP ? "a link, not this machine's file; not followed" : nil)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw FileSystemError(path: path, code: EINVAL, reason: "not a regular file; nothing was written to it")
        }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw FileSystemError(path: path, code: errno) }
        }
        defer { flock(fd, LOCK_UN) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        lseek(fd, 0, SEEK_SET)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw FileSystemError(path: path, code: errno) }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > readLimit { throw FileSystemError(path: path, code: EFBIG, reason: "larger than MIGA reads; nothing was written to it") }
        }
        let written = parse(String(decoding: bytes, as: UTF8.self), device: device, localDevice: device, now: now).ids
        let missing = sessions.filter { !written.contains($0.id) }
        guard !missing.isEmpty else { return 0 }
        var text = missing.map { Exchange.line($0, localDevice: device) + "\n" }.joined()
        if let last = bytes.last, last != UInt8(ascii: "\n") { text = "\n" + text }
        guard writeAll(fd, text), fsync(fd) == 0 else { throw FileSystemError(path: path, code: errno) }
        return missing.count
    }
}

