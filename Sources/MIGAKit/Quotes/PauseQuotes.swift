/// The quotes as a pause needs them: the ids it may draw, and the words of
/// only the quote it shows.
///
/// `QuoteLibrary` makes a `Quote` of every line, which is right for listing
/// them and wasteful at every launch: a fortune collection of 20 000 entries
/// would cost the pause some 40 ms. Here the person's files are only checked
/// (with the same rules, and the same problems reported), and a drawn quote
/// is read from its line when it is needed.
public struct PauseQuotes {
    /// The ids the pause draws from: the built-in bank's, then the person's,
    /// narrowed to `interests` unless that leaves none.
    public let pool: [String]
    /// Lines of the person's files that could not be read, with where they are.
    public let problems: [QuoteFileProblem]
    /// The person's files, as text.
    private let files: [(path: String, text: String)]
    /// For each of the person's ids, its file and the bytes of its line there.
    private let places: [String: (file: Int, line: Range<Int>)]

    public init(folder: String, interests: [String]) {
        let builtIn = QuoteBank.builtIn
        let wanted = Set(interests.map { $0.lowercased() })
        var all: [String] = []
        var matching: [String] = []
        for quote in builtIn.quotes {
            all.append(quote.id)
            if quote.tags.contains(where: { wanted.contains($0.lowercased()) }) { matching.append(quote.id) }
        }
        var files: [(path: String, text: String)] = []
        var places: [String: (file: Int, line: Range<Int>)] = [:]
        var problems: [QuoteFileProblem] = []
        for path in QuoteLibrary.files(in: folder) {
            do {
                // Decoded as text first, as QuoteLibrary reads it: a byte that
                // is not UTF-8 becomes U+FFFD in both.
                guard var text = try readTextFile(path) else { continue }
                let fileIndex = files.count
                // About one quote in every 64 bytes: room made once, not regrown.
                places.reserveCapacity(places.count + text.utf8.count / 64)
                all.reserveCapacity(all.count + text.utf8.count / 64)
                problems += text.withUTF8 { buffer in
                    QuoteBank.scan(bytes: buffer, file: path) { line in
                        // Built-in ids win, then the first file that has it (as in QuoteLibrary).
                        guard builtIn[line.id] == nil, places[line.id] == nil else { return }
                        places[line.id] = (fileIndex, line.line)
                        all.append(line.id)
                        if !wanted.isEmpty, QuoteBank.tags(buffer, line.tags).contains(where: { range in
                            wanted.contains(String(decoding: buffer[range], as: UTF8.self).lowercased())
                        }) {
                            matching.append(line.id)
                        }
                    }
                }
                files.append((path, text))
            } catch {
                problems.append(QuoteFileProblem(file: path, line: 0, message: "cannot be read (\(error))"))
            }
        }
        pool = matching.isEmpty ? all : matching
        self.files = files
        self.places = places
        self.problems = problems
    }

    /// The quote with `id`, read from its line; nil for an id not in the pool's sources.
    public subscript(id: String) -> Quote? {
        if let quote = QuoteBank.builtIn[id] { return quote }
        guard let (fileIndex, line) = places[id] else { return nil }
        var (path, text) = files[fileIndex]
        return text.withUTF8 { buffer in
            QuoteBank.parse(bytes: UnsafeBufferPointer(rebasing: buffer[line]), file: path).quotes.first
        }
    }

    /// A quote for when nothing else can be had.
    public static var fallback: Quote { QuoteBank.builtIn.quotes[0] }
}
