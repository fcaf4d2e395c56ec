#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

// The file helpers every room uses: reading, writing without tearing, folders.

/// Creates `path` and any missing parents with `mode` (0700 for MIGA's private
/// folders). Existing folders are left as they are.
public func makeDirectories(_ path: String, mode: mode_t = 0o700) throws(FileSystemError) {
    if access(path, F_OK) == 0 { return }
    var built = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
        built += "/" + component
        if mkdir(built, mode) != 0 && errno != EEXIST {
            throw FileSystemError(path: built, code: errno)
        }
    }
}

/// A failed file-system call, with the path and the system's reason (or
/// MIGA's own, for a file it will not read).
public struct FileSystemError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let code: Int32
    public let reason: String?

    public init(path: String, code: Int32, reason: String? = nil) {
        self.path = path
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(path): \(reason ?? String(cString: strerror(code)))" }
}

/// Checks that `path` is MIGA's own: a folder (or, with `file`, a regular
/// file) of this user's, not a link planted in its place, which would send
/// the history (or the inbox) somewhere else. Loose permissions are
/// tightened (0700 for a folder, 0600 for a file). Nil when it does not exist.
public func checkOwn(_ path: String, file: Bool) throws(FileSystemError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
        if errno == ENOENT { return }
        throw FileSystemError(path: path, code: errno)
    }
    let kind = info.st_mode & S_IFMT
    if kind == S_IFLNK {
        throw FileSystemError(path: path, code: ELOOP, reason: "a link; MIGA keeps its data only in files and folders of its own")
    }
    guard kind == (file ? S_IFREG : S_IFDIR) else {
        throw FileSystemError(path: path, code: EINVAL, reason: file ? "not a regular file" : "not a folder")
    }
    guard info.st_uid == getuid() else {
        throw FileSystemError(path: path, code: EPERM, reason: "owned by another user; MIGA uses only its own")
    }
    let mode: mode_t = file ? 0o600 : 0o700
    if info.st_mode & 0o077 != 0 { chmod(path, mode) }
}

/// How much of a file MIGA reads at most, unless a reader says otherwise: a
/// big fortune collection is a few megabytes; a link to /dev/zero is endless.
public let readLimit = 64 << 20

/// Writes `text` with `mode` unless the file already holds exactly that:
/// what MIGA writes again from any state leaves an unchanged file untouched.
public func writeIfChanged(_ text: String, to path: String, mode: mode_t) throws(FileSystemError) {
    var info = stat()
    if ((try? readTextFile(path)) ?? nil) == text && stat(path, &info) == 0 && info.st_mode & 0o7777 == mode { return }
    try atomicWrite(text, to: path, mode: mode)
    // An existing file keeps its own mode through atomicWrite; these are MIGA's.
    if chmod(path, mode) != 0 { throw FileSystemError(path: path, code: errno) }
}

/// The contents of a file as text, or nil when it does not exist. Only a
/// regular file is read, and at most `limit` bytes of it: a FIFO would
/// hang the reader (it is opened without waiting for a writer), a device
/// such as /dev/zero would never end, and neither is a file a person keeps.
public func readTextFile(_ path: String, limit: Int = readLimit) throws(FileSystemError) -> String? {
    guard let (fd, size) = try openRegularFile(path) else { return nil }
    defer { close(fd) }
    func tooLarge() -> FileSystemError { tooLargeError(path, limit: limit) }
    guard size <= limit else { throw tooLarge() }
    var failure: Int32 = 0
    // Read straight into the string's own storage (which repairs bytes that
    // are not UTF-8): a 2 MB quote collection read in chunks and copied
    // costs milliseconds at every pause.
    var text = String(unsafeUninitializedCapacity: size) { buffer in
        var filled = 0
        while filled < buffer.count {
            let count = read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { failure = errno }
            if count <= 0 { break }
            filled += count
        }
        return filled
    }
    if failure != 0 { throw FileSystemError(path: path, code: failure) }
    // A file that grew since fstat (or one /proc-like, of size 0): the rest.
    var rest: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw FileSystemError(path: path, code: errno)
        }
        if count == 0 { break }
        rest.append(contentsOf: chunk[0..<count])
        if size + rest.count > limit { throw tooLarge() }
    }
    if !rest.isEmpty {
        // Decoded together, so a character split across the two reads stays whole.
        text = String(decoding: Array(text.utf8) + rest, as: UTF8.self)
    }
    return text
}

/// The bytes of a regular file as they are on disk, or of `range` of them
/// (fewer where the file ends sooner), or nil when it does not exist; the
/// same refusals as `readTextFile`. For offsets that must point into the
/// file itself: a text's repairs of bytes that are not UTF-8 move them.
public func readFileBytes(_ path: String, range: Range<Int>? = nil, limit: Int = readLimit) throws(FileSystemError) -> [UInt8]? {
    guard let (fd, size) = try openRegularFile(path) else { return nil }
    defer { close(fd) }
    let start = max(0, range?.lowerBound ?? 0)
    let wanted = range.map { max(0, $0.upperBound - start) } ?? size + 1  // a byte more: a file that grew is noticed
    guard wanted <= limit + 1 else { throw tooLargeError(path, limit: limit) }
    var bytes = [UInt8](repeating: 0, count: wanted)
    var filled = 0
    while true {
        if filled == bytes.count {
            // A whole file that grew since fstat (or one /proc-like, of size 0): read on.
            guard range == nil else { break }
            guard filled <= limit else { throw tooLargeError(path, limit: limit) }
            bytes += [UInt8](repeating: 0, count: max(16_384, bytes.count))
        }
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(start + filled)) }
        if count < 0 && errno == EINTR { continue }
        if count < 0 { throw FileSystemError(path: path, code: errno) }
        if count == 0 { break }
        filled += count
    }
    guard filled <= limit else { throw tooLargeError(path, limit: limit) }
    bytes.removeLast(bytes.count - filled)
    return bytes
}

/// `path` opened for reading with its size, nil when it does not exist;
/// thrown unless it is a regular file: a FIFO would hang the reader (it is
/// opened without waiting for a writer), and a device is no file a person keeps.
private func openRegularFile(_ path: String) throws(FileSystemError) -> (Int32, size: Int)? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if fd < 0 {
        if errno == ENOENT { return nil }
        throw FileSystemError(path: path, code: errno)
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
        let code = errno
        close(fd)
        throw FileSystemError(path: path, code: code)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
        close(fd)
        throw FileSystemError(path: path, code: EINVAL, reason: "not a regular file (a folder, a pipe or a device); MIGA reads only files")
    }
    return (fd, max(0, Int(info.st_size)))
}

private func tooLargeError(_ path: String, limit: Int) -> FileSystemError {
    FileSystemError(path: path, code: EFBIG, reason: "larger than MIGA reads (\(limit >> 10) KiB at most); left unread")
}

/// Writes `text` to `path` through a temporary file in the same folder and a
/// rename, so readers see the old file or the new one, never a torn one. An
/// existing file keeps its permissions; a new one gets `mode`.
public func atomicWrite(_ text: String, to link: String, mode: mode_t) throws(FileSystemError) {
    var text = text
    // withUTF8 rethrows untyped errors: carry the typed one out in a Result.
    try text.withUTF8 { bytes in
        Result { () throws(FileSystemError) in try atomicWrite(UnsafeRawBufferPointer(bytes), to: link, mode: mode) }
    }.get()
}

/// The same for bytes that need not be text (a file of the person's own, set aside as it is).
public func atomicWrite(_ bytes: UnsafeRawBufferPointer, to link: String, mode: mode_t) throws(FileSystemError) {
    // Through a symbolic link (a dotfile manager's ~/.bashrc) to the file it
    // names, so the link stays a link.
    var info = stat()
    let path = lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK ? realpath(link) ?? link : link
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    try makeDirectories(folder.isEmpty ? "/" : folder)
    var existing = stat()
    let permissions = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : mode
    removeAbandonedTemporaries(of: path)
    let temporary = "\(path).\(getpid()).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
    if fd < 0 { throw FileSystemError(path: temporary, code: errno) }
    fchmod(fd, permissions)
    let written = writeAll(fd, bytes) && fsync(fd) == 0
    close(fd)
    guard written, rename(temporary, path) == 0 else {
        let code = errno
        unlink(temporary)
        throw FileSystemError(path: path, code: code)
    }
}

/// The names in `folder` (not "." or ".."), in the file system's order;
/// none when it cannot be read. `readdir` rather than FileManager: a pause
/// lists the quote folder before its first frame, and FileManager's first
/// use there cost more than the listing.
package func entries(in folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

/// Removes `PATH.PID.tmp` files that a writer killed outright (kill -9, a
/// power cut) left beside `path`: its process is gone, so nobody will
/// rename them. One of a writer still running is its own and stays.
func removeAbandonedTemporaries(of path: String) {
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let prefix = baseName(of: path) + "."
    for name in entries(in: folder.isEmpty ? "/" : folder) {
        guard name.hasPrefix(prefix), name.hasSuffix(".tmp"),
              let pid = pid_t(name.dropFirst(prefix.count).dropLast(".tmp".count)), pid > 0, pid != getpid(),
              kill(pid, 0) != 0, errno == ESRCH else { continue }
        unlink(folder + "/" + name)
    }
}

/// When the file or folder at `path` (itself, not what a link names) last
/// changed; nil when there is none.
package func modificationDate(of path: String) -> Date? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
}

/// The file a path leads to, following every link; nil when it does not exist.
package func realpath(_ path: String) -> String? {
    guard let resolved = Glibc.realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
