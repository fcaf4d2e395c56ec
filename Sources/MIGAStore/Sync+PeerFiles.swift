#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore

/// How far a sync read another machine's file, kept in the store so that the
/// next sync reads only what was appended since.
public struct SyncPosition: Codable, Equatable, Sendable {
    /// The file it was (its device and inode) and its length, when last read.
    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// Where the next sync reads on: after the last whole line read.
    var offset: Int64
    /// FNV-1a of the bytes just before `offset` (up to 4 KiB). The same
    /// bytes there mean the same file, longer: a sync tool replaces a file
    /// with a longer copy under a new inode (Syncthing does, at every
    /// change), so the bytes, not the inode, say whether it is still the
    /// file that was read. A file shorter than `offset`, or different there,
    /// was replaced or rewritten, and is read again from the top.
    var tail: String
    /// Where the lines dated ahead of this clock begin: each sync looks at them again.
    var early: [Int64]
    /// Why the file was not read to its end the last time, when it was not.
    public var unread: String?

    static let unreadYet = SyncPosition(device: 0, inode: 0, size: 0, offset: 0, tail: "", early: [], unread: nil)
}

extension Sync {
    /// Reads on in another machine's file, from where the last sync stopped,
    /// and adds the sessions it holds that the store lacks. Returns what was
    /// read, and how many sessions were new.
    static func readOn(_ name: String, in folder: String, device: String, localDevice: String, store: SessionStore,
                       now: Date, limits: Limits) throws -> (file: PeerFile, merged: Int) {
        let path = folder + "/" + name
        let known = try store.syncPosition(of: path)
        // A file that cannot be read is named, and what was read of it is kept for when it can be again.
        func unreadable(_ words: String) throws -> (file: PeerFile, merged: Int) {
            var position = known ?? .unreadYet
            position.unread = words
            if position != known { try store.setMeta(SessionStore.syncPositionKey(path), position.encoded) }
            return (PeerFile(name: name, bytesRead: 0, unread: words, failed: true), 0)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        // Gone since the folder was listed: as if it never was.
        if fd < 0 && errno == ENOENT { return (PeerFile(name: name, bytesRead: 0), 0) }
        if fd < 0 { return try unreadable("cannot be read (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return try unreadable("cannot be read (\(String(cString: strerror(errno))))") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return try unreadable("is not a regular file (a folder, a pipe or a device); MIGA reads only files")
        }
        var read = PeerFileRead(fd: fd, name: name, key: SessionStore.syncPositionKey(path), device: device,
                                localDevice: localDevice, store: store, now: now, limits: limits, info: info, known: known)
        try read.lookAgainAtEarlyLines()
        try read.readNewLines()
        return try read.finish()
    }
}

/// One sync's read of another machine's file: the lines dated ahead that
/// wait in it looked at again, then what was appended since the last sync,
/// up to `Limits.perSync`; the sessions added in batches, each with how far
/// the file was read, in one transaction.
private struct PeerFileRead {
    let fd: Int32
    let name: String
    let key: String
    let device: String
    let localDevice: String
    let store: SessionStore
    let now: Date
    let limits: Sync.Limits
    let known: SyncPosition?
    let size: Int64
    /// Where this read began.
    let start: Int64
    /// As it will be kept.
    var position: SyncPosition
    var batch: [SessionRecord] = []
    var merged = 0
    var setAside = 0
    var early = 0
    /// Bytes read of what was new.
    var bytesRead: Int64 = 0
    /// Reading stopped at an error, not at the end of what one sync reads.
    var failed = false

    /// Sessions added in one transaction at most.
    static let batchSize = 5000
    /// Bytes read at a time.
    static let chunk = 1 << 20
    /// How many lines dated ahead a file may keep waiting; any more are set aside.
    static let mostEarly = 1000

    init(fd: Int32, name: String, key: String, device: String, localDevice: String, store: SessionStore, now: Date,
         limits: Sync.Limits, info: stat, known: SyncPosition?) {
        (self.fd, self.name, self.key, self.device, self.localDevice) = (fd, name, key, device, localDevice)
        (self.store, self.now, self.limits, self.known) = (store, now, limits, known)
        size = Int64(info.st_size)
        var position = SyncPosition(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: size, offset: 0,
                                    tail: "", early: [], unread: nil)
        // Read on only in the file that was read, longer; anything else from the top.
        if let known, known.offset <= size, Self.tail(of: fd, before: known.offset) == known.tail {
            position.offset = known.offset
            position.early = known.early
        }
        start = position.offset
        self.position = position
    }

    /// The lines dated ahead of this clock, read again: those whose time
    /// has come are added, and stop waiting.
    mutating func lookAgainAtEarlyLines() throws {
        var waiting: [Int64] = []
        for offset in position.early {
            guard let line = line(at: offset) else { continue }
            switch Sync.read(line: line, number: 0, device: device, localDevice: localDevice, now: now) {
            case .session(let session): batch.append(session)
            case .early: waiting.append(offset)
            case .setAside: break
            }
        }
        position.early = waiting
    }

    /// What was appended since the last sync, whole lines, up to `Limits.perSync`.
    mutating func readNewLines() throws {
        let end = min(size, start + Int64(limits.perSync))
        var buffer = [UInt8](repeating: 0, count: Self.chunk)
        var line: [UInt8] = []
        var lineStart = start
        var tooLong = false
        var cursor = start
        while cursor < end {
            let want = Int(min(Int64(Self.chunk), end - cursor))
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, want, off_t(cursor)) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                position.unread = "could not be read to its end (\(String(cString: strerror(errno))))"
                failed = true
                break
            }
            if count == 0 { break }
            var index = 0
            while index < count {
                let newline = Self.newline(in: buffer, from: index, to: count)
                let piece = buffer[index..<(newline ?? count)]
                if !tooLong && line.count + piece.count > limits.longestLine {
                    tooLong = true
                    line.removeAll()
                }
                if !tooLong { line += piece }
                guard let newline else { break }
                // The place after the line first: a batch kept with this line in it is kept with it.
                let begun = lineStart
                index = newline + 1
                lineStart = cursor + Int64(index)
                position.offset = lineStart
                try take(tooLong ? nil : line, at: begun)
                line.removeAll(keepingCapacity: true)
                tooLong = false
            }
            cursor += Int64(count)
        }
        // Past the part of a line too long to read, never back to its start.
        if tooLong { position.offset = cursor }
        bytesRead = cursor - start
        if end < size && position.unread == nil {
            position.unread = "holds more that is new than one sync reads: read \(Self.mebibytes(bytesRead)) of its "
                + "\(Self.mebibytes(size - start)) new; the rest at the next sync"
        }
    }

    /// A whole line met for the first time, starting at `offset`; nil: one too long to read.
    mutating func take(_ line: [UInt8]?, at offset: Int64) throws {
        guard let line else {
            setAside += 1
            return
        }
        guard !line.isEmpty else { return }
        switch Sync.read(line: line, number: 0, device: device, localDevice: localDevice, now: now) {
        case .session(let session):
            batch.append(session)
            if batch.count >= Self.batchSize { try keep() }
        case .early where position.early.count < Self.mostEarly:
            early += 1
            position.early.append(offset)
        case .early, .setAside:
            setAside += 1
        }
    }

    /// Adds the batch, and keeps how far the file was read, in one transaction.
    mutating func keep() throws {
        position.tail = Self.tail(of: fd, before: position.offset)
        merged += try store.insertMissing(batch, keeping: (key, position.encoded))
        batch.removeAll()
    }

    /// Keeps what is left, and how far the file was read when that changed; what was read, said.
    mutating func finish() throws -> (file: Sync.PeerFile, merged: Int) {
        position.tail = Self.tail(of: fd, before: position.offset)
        if !batch.isEmpty || position != known { try keep() }
        return (Sync.PeerFile(name: name, bytesRead: bytesRead, setAside: setAside, early: early, unread: position.unread,
                              failed: failed),
                merged)
    }

    /// The line that begins at `offset`, when it is whole and not too long
    /// (a session's line is well under 64 KiB, so that is read first).
    func line(at offset: Int64) -> ArraySlice<UInt8>? {
        for length in [min(1 << 16, limits.longestLine + 1), limits.longestLine + 1] {
            var bytes = [UInt8](repeating: 0, count: length)
            let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, length, off_t(offset)) }
            guard count > 0 else { return nil }
            if let newline = Self.newline(in: bytes, from: 0, to: count) {
                return bytes[0..<newline]
            }
            if count < length { return nil }
        }
        return nil
    }

    /// Where the first line break in `bytes[from..<to]` is, found by the C
    /// library (a sync reads megabytes, which a loop over each byte takes
    /// long over in a build without optimization).
    static func newline(in bytes: [UInt8], from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        return bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base + from, Int32(UInt8(ascii: "\n")), to - from) else {
                return nil
            }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// FNV-1a of the (up to) 4 KiB before `offset`, in hexadecimal.
    static func tail(of fd: Int32, before offset: Int64) -> String {
        let length = Int(min(offset, 4096))
        var bytes = [UInt8](repeating: 0, count: length)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, length, off_t(offset) - off_t(length)) }
        var hash = FNV1a()
        hash.mix(bytes: bytes.prefix(max(0, count)))
        return String(hash.value, radix: 16)
    }

    /// `bytes` in MiB, as a person reads them: "64.0 MiB".
    static func mebibytes(_ bytes: Int64) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}

extension SyncPosition {
    /// As the store keeps it: JSON, its keys in order.
    var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
