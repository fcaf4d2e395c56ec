#if canImport(Glibc)
import Glibc
#endif
import MIGACore

/// The quotes as a pause needs them: the ids it may draw, and the words of
/// only the quote it shows.
///
/// `QuoteLibrary` makes a `Quote` of every line, which is right for listing
/// them and wasteful at every launch: a fortune collection of 20 000 entries
/// would cost each pause tens of milliseconds. Here the person's files are
/// only checked (with the same rules, reporting the same problems), the
/// result is kept in a small cache beside the history until a file or the
/// interests change, and a drawn quote is read from its line when shown.
public struct QuotePool {
    /// The ids the pause draws from: the built-in bank's, then the person's,
    /// narrowed to `interests` unless that leaves none.
    public let pool: [String]
    /// Lines of the person's files that could not be read, with where they are.
    public let problems: [QuoteFileProblem]
    /// The person's files, in the order they are read.
    private let files: [String]
    /// One line per quote of the person's: id, file number, and the byte
    /// range of its line in the file, tab-separated. Searched only for a quote drawn.
    private let index: String

    // 2: a line's place counts the bytes on disk (1 counted them after repairs).
    static let cacheFormat = "miga-quote-pool 2"

    /// - Parameter cache: where to keep what the files held; nil reads them every time.
    public init(folder: String, interests: [String], cache: String? = nil) {
        let files = QuoteLibrary.files(in: folder)
        // No files of one's own (the usual case): nothing to cache, no key to make.
        guard let cache, !files.isEmpty else {
            self.init(reading: files, interests: interests)
            return
        }
        let key = Self.key(files: files, interests: interests)
        if let text = (try? readTextFile(cache)) ?? nil, let kept = Self(cached: text, key: key, files: files) {
            self = kept
            return
        }
        self.init(reading: files, interests: interests)
        // A cache that cannot be written only costs the next pause a reading.
        try? atomicWrite(cacheText(key: key), to: cache, mode: 0o600)
    }

    private init(reading files: [String], interests: [String]) {
        let wanted = Set(interests.map { $0.lowercased() })
        var all: [String] = []
        var matching: [String] = []
        for quote in BuiltInQuotes.entries {
            all.append(quote.id)
            if !wanted.isEmpty, quote.tags.contains(where: { wanted.contains($0.lowercased()) }) { matching.append(quote.id) }
        }
        var claimed: Set<String> = []
        var index = ""
        var problems: [QuoteFileProblem] = []
        var readable: [String] = []
        for path in files {
            do {
                // The bytes as they are on disk, so that a line's place is
                // where `subscript` finds it. QuoteLibrary decodes the file
                // as text first; both come to the same, as the fields are cut
                // at ASCII bytes and a byte that is not UTF-8 becomes U+FFFD
                // as each field is decoded.
                guard let bytes = try readFileBytes(path) else { continue }
                let fileNumber = readable.count
                readable.append(path)
                // About one quote in every 64 bytes: room made once, not regrown.
                claimed.reserveCapacity(claimed.count + bytes.count / 64)
                all.reserveCapacity(all.count + bytes.count / 64)
                problems += bytes.withUnsafeBufferPointer { buffer in
                    QuoteBank.scan(bytes: buffer, file: path) { line in
                        // Built-in ids win, then the first file that has it (as in QuoteLibrary).
                        guard !BuiltInQuotes.contains(line.id), claimed.insert(line.id).inserted else { return }
                        index += "\(line.id)\t\(fileNumber)\t\(line.line.lowerBound)\t\(line.line.upperBound)\n"
                        all.append(line.id)
                        if !wanted.isEmpty, QuoteBank.tags(buffer, line.tags).contains(where: { range in
                            wanted.contains(String(decoding: buffer[range], as: UTF8.self).lowercased())
                        }) {
                            matching.append(line.id)
                        }
                    }
                }
            } catch {
                problems.append(QuoteFileProblem(file: path, line: 0, message: "cannot be read (\(error))"))
            }
        }
        pool = matching.isEmpty ? all : matching
        self.problems = problems
        self.files = readable
        self.index = index
    }

    /// The quote with `id`, read from its line alone (a big collection is
    /// megabytes, a line a few hundred bytes); nil for an id in no source.
    public subscript(id: String) -> Quote? {
        if let quote = BuiltInQuotes.quote(id) { return quote }
        guard let (fileNumber, range) = place(of: id), fileNumber < files.count,
              let line = (try? readFileBytes(files[fileNumber], range: range)) ?? nil, line.count == range.count else { return nil }
        return line.withUnsafeBufferPointer { QuoteBank.parse(bytes: $0, file: files[fileNumber]).quotes.first { $0.id == id } }
    }

    /// A quote for when nothing else can be had.
    public static var fallback: Quote { BuiltInQuotes.first }

    private func place(of id: String) -> (Int, Range<Int>)? {
        let needle = Array("\n\(id)\t".utf8)
        var haystack = "\n" + index
        return haystack.withUTF8 { bytes -> (Int, Range<Int>)? in
            guard let start = Self.find(needle, in: bytes) else { return nil }
            var end = start + needle.count
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let fields = String(decoding: bytes[(start + needle.count)..<end], as: UTF8.self).split(separator: "\t")
            guard fields.count == 3, let file = Int(fields[0]), let low = Int(fields[1]), let high = Int(fields[2]),
                  low <= high else { return nil }
            return (file, low..<high)
        }
    }

    private static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard needle.count <= bytes.count, let base = bytes.baseAddress else { return nil }
        return needle.withUnsafeBufferPointer { pattern in
            // From one occurrence of the needle's first byte (a newline) to the next.
            var offset = 0
            while offset + pattern.count <= bytes.count,
                  let hit = memchr(base + offset, Int32(pattern[0]), bytes.count - offset - pattern.count + 1) {
                let position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + position, pattern.baseAddress!, pattern.count) == 0 { return position }
                offset = position + 1
            }
            return nil
        }
    }

    // MARK: The cache

    /// What the pool depends on: the files (by name, size, time and inode),
    /// the interests, and the built-in bank, as one hash.
    static func key(files: [String], interests: [String]) -> String {
        var hasher = FNV1a()
        func mix(_ text: String) { hasher.mix(text) }
        mix(cacheFormat)
        mix(interests.joined(separator: ","))
        let builtIn = BuiltInQuotes.entries
        mix("\(builtIn.count) \(builtIn.first?.id ?? "") \(builtIn.last?.id ?? "")")
        for path in files {
            var info = stat()
            guard stat(path, &info) == 0 else { mix("\(path) missing"); continue }
            mix("\(path) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ino) \(info.st_dev)")
        }
        return String(hasher.value, radix: 16)
    }

    func cacheText(key: String) -> String {
        var text = "\(Self.cacheFormat)\nkey \(key)\nfiles \(files.count)\n"
        for file in files { text += file + "\n" }
        text += "problems \(problems.count)\n"
        for problem in problems {
            // Messages name ids, which hold no whitespace; the file goes last, as it may.
            let message = problem.message.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
            text += "\(problem.line)\t\(message)\t\(problem.file.replacingOccurrences(of: "\n", with: " "))\n"
        }
        text += "pool \(pool.count)\n"
        for id in pool { text += id + "\n" }
        return text + "index\n" + index
    }

    /// The pool as a cache kept it, if it was kept for exactly these files.
    /// Read line by line over bytes: splitting 40 000 lines as Characters
    /// would cost more than the reading it saves.
    private init?(cached text: String, key: String, files: [String]) {
        var text = text
        guard let parsed = text.withUTF8({ bytes -> ([String], [QuoteFileProblem], [String], String)? in
            var cursor = 0
            func next() -> String? {
                guard cursor < bytes.count else { return nil }
                var end = cursor
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                defer { cursor = end + 1 }
                return String(decoding: bytes[cursor..<end], as: UTF8.self)
            }
            func count(_ word: String) -> Int? {
                guard let line = next(), line.hasPrefix(word + " ") else { return nil }
                return Int(line.dropFirst(word.count + 1))
            }
            guard next() == Self.cacheFormat, next() == "key \(key)", let fileCount = count("files") else { return nil }
            var kept: [String] = []
            for _ in 0..<fileCount { guard let file = next() else { return nil }; kept.append(file) }
            // Files that could not be read are not in the list; every one kept must still be there.
            guard kept.allSatisfy(files.contains), let problemCount = count("problems") else { return nil }
            var problems: [QuoteFileProblem] = []
            for _ in 0..<problemCount {
                guard let line = next() else { return nil }
                let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
                guard fields.count == 3, let number = Int(fields[0]) else { return nil }
                problems.append(QuoteFileProblem(file: String(fields[2]), line: number, message: String(fields[1])))
            }
            guard let poolCount = count("pool") else { return nil }
            var pool: [String] = []
            pool.reserveCapacity(poolCount)
            for _ in 0..<poolCount { guard let id = next() else { return nil }; pool.append(id) }
            guard next() == "index" else { return nil }
            let index = String(decoding: bytes[min(cursor, bytes.count)...], as: UTF8.self)
            return (pool, problems, kept, index)
        }) else { return nil }
        (pool, problems, self.files, index) = parsed
    }
}
