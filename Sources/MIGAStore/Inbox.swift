#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore

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
        self.init(directory: folderName(of: storePath) + "/inbox")
    }

    /// Drops a pass-through: `id`, the instant in milliseconds, the program,
    /// and why it passed when a rule let it (`passthrough:allowed`).
    public func dropPassThrough(id: String, program: String, at date: Date, reason: PassReason? = nil) throws(FileSystemError) {
        try checkOwn(directory, file: false)
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

    /// Drops how a pause ended, when the store was too busy to take it in
    /// time: a finished pause is never lost, and the next process that opens
    /// the store writes it into its row.
    public func dropEnding(_ ending: InboxEnding) throws(FileSystemError) {
        try checkOwn(directory, file: false)
        try makeDirectories(directory)
        let data = (try? JSONEncoder().encode(ending)) ?? Data()
        let hidden = "\(directory)/.\(ending.id).ending.tmp"
        let fd = open(hidden, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if fd < 0 { throw FileSystemError(path: hidden, code: errno) }
        let written = data.withUnsafeBytes { writeAll(fd, $0) }
        close(fd)
        guard written, rename(hidden, "\(directory)/\(ending.id).ending") == 0 else {
            let code = errno
            unlink(hidden)
            throw FileSystemError(path: hidden, code: code)
        }
    }

    /// Drops that the program a session proceeded to stopped at once, when
    /// the store could not take it: the next process that opens the store
    /// keeps it with the session. The words alone, as the file's whole text.
    public func dropEarlyStop(sessionID: String, _ stop: EarlyStop) throws(FileSystemError) {
        // The id names the file: never a path of its own.
        guard !sessionID.isEmpty, !sessionID.contains("/"), !sessionID.hasPrefix(".") else {
            throw FileSystemError(path: "\(directory)/\(sessionID)", code: EINVAL)
        }
        try checkOwn(directory, file: false)
        try makeDirectories(directory)
        let hidden = "\(directory)/.\(sessionID).stopped.tmp"
        let fd = open(hidden, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if fd < 0 { throw FileSystemError(path: hidden, code: errno) }
        let written = writeAll(fd, stop.words)
        close(fd)
        guard written, rename(hidden, "\(directory)/\(sessionID).stopped") == 0 else {
            let code = errno
            unlink(hidden)
            throw FileSystemError(path: hidden, code: code)
        }
    }

    /// The stops waiting: file, session id, and the words, cleaned again (a
    /// file in the inbox is read as any file is).
    func pendingEarlyStops() -> [(file: String, sessionID: String, stop: EarlyStop)] {
        guard (try? checkOwn(directory, file: false)) != nil, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".stopped") && !$0.hasPrefix(".") }.sorted().compactMap { name in
            let path = "\(directory)/\(name)"
            guard let text = (try? readTextFile(path)) ?? nil, case let words = EarlyStop.cleaned(text), !words.isEmpty else { return nil }
            return (path, String(name.dropLast(".stopped".count)), EarlyStop(words: words))
        }
    }

    /// The endings waiting, with their file names.
    func pendingEndings() -> [(file: String, ending: InboxEnding)] {
        guard (try? checkOwn(directory, file: false)) != nil, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".ending") }.sorted().compactMap { name in
            let path = "\(directory)/\(name)"
            guard let text = (try? readTextFile(path)) ?? nil,
                  let ending = try? JSONDecoder().decode(InboxEnding.self, from: Data(text.utf8)) else { return nil }
            return (path, ending)
        }
    }

    /// The events waiting, with their file names.
    func pending() -> [(file: String, event: InboxEvent)] {
        guard (try? checkOwn(directory, file: false)) != nil, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
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
        // Line breaks at either end (any of Unicode's) are no part of the event.
        let breaks: Set<Unicode.Scalar> = ["\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{2028}", "\u{2029}"]
        var scalars = line.unicodeScalars[...]
        while let first = scalars.first, breaks.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, breaks.contains(last) { scalars.removeLast() }
        let fields = Substring(scalars).split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
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

/// How a pause ended, waiting in the inbox for its row.
public struct InboxEnding: Codable, Equatable, Sendable {
    public let id: String
    /// The program and the start, for a pause whose row was never begun (the
    /// store was busy as it opened): the ending is then the whole session.
    public let program: String
    public let startedAt: Int64
    public let outcome: SessionOutcome
    public let endedAt: Int64
    public let pausedSeconds: Double
    public let deepenCount: Int
    public let quotes: [String]
    public let intention: String?
    public let reason: PassReason?
    /// Absent from endings an earlier miga left in the inbox.
    public let kind: PauseKind?
    public let typed: Bool?
    public let alternative: String?

    public init(id: String, program: String, startedAt: Date, outcome: SessionOutcome, endedAt: Date, _ progress: PauseProgress,
                intention: String?, reason: PassReason?) {
        self.id = id
        self.program = program
        self.startedAt = startedAt.milliseconds
        self.outcome = outcome
        self.endedAt = endedAt.milliseconds
        pausedSeconds = progress.pausedSeconds
        deepenCount = progress.deepenCount
        quotes = progress.quotes
        self.intention = intention
        self.reason = reason
        kind = progress.kind
        typed = progress.typed
        alternative = progress.alternative
    }
}
