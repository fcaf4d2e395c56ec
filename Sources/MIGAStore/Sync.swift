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
/// Another machine's file is read from where the last sync stopped (see
/// `SyncPosition`), and what could not be read is named in the report.
public enum Sync {
    public struct Report: Equatable, Sendable {
        public let ownFile: String
        /// Sessions of this machine newly appended to its file.
        public let written: Int
        /// Sessions from other machines newly added to the store.
        public let merged: Int
        /// Other devices whose files are there.
        public let devices: Int
        /// What this sync read of each other machine's file, by name.
        public let files: [PeerFile]

        /// Whether every other machine's file could be read (all of it, or
        /// as much as one sync reads): `miga sync` fails when one could not.
        public var readEveryFile: Bool { !files.contains(where: \.failed) }

        /// Lines set aside this time, in every file.
        public var setAside: Int { files.reduce(0) { $0 + $1.setAside } }

        /// What the sync did, in words for the person: what was written
        /// and added, then each other machine's file whose reading is worth
        /// a word (lines set aside or early, said once; what was left unread, and why).
        public var lines: [String] {
            let plural = { (count: Int, word: String) in "\(count) \(word)\(count == 1 ? "" : "s")" }
            var lines = ["Wrote \(plural(written, "new session")) to \(ownFile); added \(merged) from \(plural(devices, "other device"))."]
            for file in files {
                if file.setAside > 0 {
                    lines.append("\(file.name): set aside \(plural(file.setAside, "line")) that "
                                 + (file.setAside == 1 ? "is not a whole, possible session" : "are not whole, possible sessions")
                                 + " of its machine (cut short, or from elsewhere); they stay in the file, and are not read again.")
                }
                if file.early > 0 {
                    lines.append("\(file.name): \(plural(file.early, "session")) dated ahead of this clock; "
                                 + "added when their time comes.")
                }
                if let unread = file.unread { lines.append("\(file.name) \(unread).") }
            }
            return lines
        }
    }

    /// One other machine's file, as a sync read it.
    public struct PeerFile: Equatable, Sendable {
        /// Its name in the folder.
        public let name: String
        /// Bytes read this time: 0 when nothing was appended since.
        public let bytesRead: Int64
        /// Lines met for the first time that are not whole, possible sessions
        /// of the file's machine: they stay in the file, and are not read again.
        public let setAside: Int
        /// Sessions met for the first time that are dated ahead of this
        /// clock: each sync looks at them again, and adds them once their time has come.
        public let early: Int
        /// Why it was not read to its end, when it was not: it cannot be read,
        /// or more was new than one sync reads.
        public let unread: String?
        /// It could not be opened or read (as against more being new than one sync reads).
        public let failed: Bool

        public init(name: String, bytesRead: Int64, setAside: Int = 0, early: Int = 0, unread: String? = nil,
                    failed: Bool = false) {
            self.name = name
            self.bytesRead = bytesRead
            self.setAside = setAside
            self.early = early
            self.unread = unread
            self.failed = failed
        }
    }

    /// How much a sync reads of one file at a time.
    public struct Limits: Sendable {
        /// Bytes of one file read by one sync; the rest is read by the next.
        public var perSync: Int
        /// The longest line read as a session; a longer one is set aside unread.
        public var longestLine: Int

        public init(perSync: Int = readLimit, longestLine: Int = 1 << 20) {
            self.perSync = perSync
            self.longestLine = longestLine
        }
    }

    public static func run(store: SessionStore, folder: String, now: Date = Date(),
                           limits: Limits = Limits()) throws(MigaError) -> Report {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory else {
            throw MigaError("\(folder) is not a folder (create it, or give the folder your sync tool shares)")
        }
        // Where the files were read is kept by the folder's one name, however it was given.
        let folder = realpath(folder) ?? folder
        do {
            let device = try store.deviceID()
            let ownName = "miga-\(device).jsonl"
            let ownFile = folder + "/" + ownName

            // Append what this machine has and its file lacks: its own
            // sessions and those it imported, never what another file brought.
            let written = try appendMissing(try store.sessionsToPublish(), to: ownFile, device: device, now: now)

            // Add what the other machines have and this store lacks. A file
            // is another machine's by its name (conflict copies included);
            // one named for this machine holds nothing new, and is never
            // taken as this machine's own.
            var merged = 0
            var files: [PeerFile] = []
            var devices: Set<String> = []
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            for name in names {
                guard let fileDevice = Self.device(ofFile: name), fileDevice != device else { continue }
                devices.insert(fileDevice)
                let (file, added) = try readOn(name, in: folder, device: fileDevice, localDevice: device, store: store,
                                               now: now, limits: limits)
                files.append(file)
                merged += added
            }
            try store.forgetSyncPositions(in: folder, keeping: Set(files.map(\.name)))
            return Report(ownFile: ownFile, written: written, merged: merged, devices: devices.count, files: files)
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

    /// What one line of the sync file of `device` is.
    enum Line: Equatable {
        /// A whole session of the file's machine, kept as that device's.
        case session(SessionRecord)
        /// A session of the file's machine dated ahead of this clock: it may
        /// be read again once its time has come.
        case early
        /// Anything else: not a session, another machine's, impossible.
        case setAside
    }

    /// What `line` of the sync file of `device` is. A line says which machine
    /// published it, and only its own file's machine may: anything else is
    /// set aside. Its session is kept as that device's, never this machine's.
    static func read(line: some Collection<UInt8>, number: Int, device: String, localDevice: String, now: Date) -> Line {
        // Most of what is no session is no JSON object either: said before decoding.
        guard line.first(where: { ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains($0) }) == UInt8(ascii: "{"),
              let record = try? JSONDecoder().decode(Exchange.Record.self, from: Data(line)),
              record.device.lowercased() == device else { return .setAside }
        guard var session = try? Exchange.session(record, place: "line \(number)", now: now) else {
            // Possible but for this clock: a session of a machine whose clock runs ahead.
            let later = try? Exchange.session(record, place: "line \(number)", now: .distantFuture)
            return later == nil ? .setAside : .early
        }
        session.device = device
        if session.origin == localDevice { session.origin = "" }
        return .session(session)
    }

    /// The ids and sessions in the text of the sync file of `device`, and how
    /// many lines were not whole sessions of that device now.
    package static func parse(_ text: String, device: String, localDevice: String, now: Date) -> (ids: Set<String>, records: [SessionRecord], skipped: Int) {
        var ids: Set<String> = []
        var records: [SessionRecord] = []
        var skipped = 0
        for (index, line) in text.lines().enumerated() {
            guard case .session(let session) = read(line: line.utf8, number: index + 1, device: device, localDevice: localDevice,
                                                    now: now) else {
                skipped += 1
                continue
            }
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
