#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Where launches that went straight through (no terminal, no pause) are
/// dropped, one small file each, to be folded into the store by the next
/// process that opens it.
///
/// A pass-through is on the path of every script that starts a protected
/// program; writing it costs a file create and a rename (tens of
/// microseconds) instead of opening the database (milliseconds). Each event
/// is written under a hidden name and published by an atomic rename, so a
/// reader never sees half an event; folding happens inside the store's write
/// transaction and inserts with OR IGNORE, so a fold cut short is simply
/// folded again, with nothing lost and nothing counted twice.
public struct Inbox: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The inbox of the store at `storePath`: a folder beside it.
    public init(besideStoreAt storePath: String) {
        self.init(directory: (storePath as NSString).deletingLastPathComponent + "/inbox")
    }

    /// Drops a pass-through: `id`, the instant in milliseconds, the program,
    /// and why it passed when a rule let it (`passthrough:allowed`).
    public func dropPassThrough(id: String, program: String, at date: Date, reason: PassReason? = nil) throws(FileSystemError) {
        try makeDirectories(directory)
        let kind = reason.map { "passthrough:\($0.rawValue)" } ?? "passthrough"
        let line = "\(kind)\t\(id)\t\(date.milliseconds)\t\(program)\n"
        let hidden = "\(directory)/.\(id).tmp"
        let fd = open(hidden, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 { throw FileSystemError(path: hidden, code: errno) }
        let written = writeAll(fd, line)
        close(fd)
        guard written, rename(hidden, "\(directory)/\(id).event") == 0 else {
            let code = errno
            unlink(hidden)
            throw FileSystemError(path: hidden, code: code)
        }
    }

    /// The events waiting, with their file names.
    func pending() -> [(file: String, event: InboxEvent)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".event") }.sorted().compactMap { name in
            let path = "\(directory)/\(name)"
            guard let text = (try? readTextFile(path)) ?? nil, let event = InboxEvent(line: text) else { return nil }
            return (path, event)
        }
    }
}

/// One launch waiting in the inbox.
struct InboxEvent: Equatable {
    let id: String
    let milliseconds: Int64
    let program: String
    let reason: PassReason?

    init?(line: String) {
        let fields = line.trimmingCharacters(in: .newlines).split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count == 4, let milliseconds = Int64(fields[2]) else { return nil }
        switch fields[0] {
        case "passthrough": reason = nil
        case let kind where kind.hasPrefix("passthrough:"):
            guard let known = PassReason(rawValue: String(kind.dropFirst("passthrough:".count))) else { return nil }
            reason = known
        default: return nil
        }
        id = String(fields[1])
        self.milliseconds = milliseconds
        program = String(fields[3])
    }
}
