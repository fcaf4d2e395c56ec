#if canImport(Glibc)
import Glibc
#endif

/// The person's own alternatives to opening a program ("read ten pages"),
/// one a line in `~/.config/miga/instead.txt`; lines starting with `#` are
/// notes. A pause of the kind `instead` offers one, and choosing it is an
/// Exit to Focus recorded with the alternative.
public struct Instead: Sendable {
    public let file: String
    /// The alternatives, in the file's order.
    public private(set) var items: [String] = []
    /// Lines that were skipped, and why ("line 3: longer than 80 characters").
    public private(set) var problems: [String] = []

    /// One line on the pause: longer ones are not kept.
    public static let longest = 80
    /// A list, not a library.
    public static let most = 100
    static let sizeLimit = 64 << 10

    /// Reads the file; a missing file is an empty list, an unreadable one a problem.
    public init(file: String) {
        self.file = file
        do {
            guard let text = try readTextFile(file, limit: Self.sizeLimit) else { return }
            for (index, line) in text.lines(omittingEmpty: false).enumerated() {
                let item = line.trimmingWhitespace()
                if item.isEmpty || item.hasPrefix("#") { continue }
                if let problem = Self.problem(with: item) {
                    problems.append("\(file):\(index + 1): \(problem); skipped")
                } else if items.count < Self.most, !items.contains(where: { Self.same($0, item) }) {
                    items.append(item)
                }
            }
        } catch {
            problems.append("\(error)")
        }
    }

    public init(paths: XDGPaths) {
        self.init(file: paths.configDirectory + "/instead.txt")
    }

    /// Whether the list holds an alternative to offer: the `hasAlternatives`
    /// that `Config.kindsInUse` asks for the gateway, `miga stats` and the
    /// hub's stats alike. It reads the file, and is asked only when it matters.
    public static func anyAlternative(in paths: XDGPaths) -> Bool {
        !Instead(paths: paths).items.isEmpty
    }

    /// Why `item` cannot be an alternative, if it cannot.
    package static func problem(with item: String) -> String? {
        if item.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "holds a control character"
        }
        if item.count > longest { return "longer than \(longest) characters" }
        return nil
    }

    static func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }

    /// Adds `text` at the end of the file. False when it was there already.
    @discardableResult
    public mutating func add(_ text: String) throws(MigaError) -> Bool {
        let item = text.trimmingWhitespace()
        guard !item.isEmpty else { throw MigaError(usage: "an alternative needs a few words, like \"read ten pages\"") }
        if let problem = Self.problem(with: item) { throw MigaError(usage: "that alternative \(problem)") }
        if items.contains(where: { Self.same($0, item) }) { return false }
        guard items.count < Self.most else { throw MigaError("the list already holds \(Self.most) alternatives; remove one first") }
        let current = try currentText()
        let separator = current.isEmpty || current.hasSuffix("\n") ? "" : "\n"
        try write(current + separator + item + "\n")
        items.append(item)
        return true
    }

    /// Removes the alternative written `text` (any case), or the one numbered
    /// so in `miga instead list`. Returns what was removed.
    public mutating func remove(_ text: String) throws(MigaError) -> String {
        let wanted = text.trimmingWhitespace()
        let item: String
        if let number = Int(wanted), items.indices.contains(number - 1) {
            item = items[number - 1]
        } else if let found = items.first(where: { Self.same($0, wanted) }) {
            item = found
        } else {
            throw MigaError(usage: "\"\(printable(wanted))\" is not among your alternatives (miga instead list)")
        }
        let current = try currentText()
        // Every other line as it was, notes included.
        let kept = current.lines(omittingEmpty: false).filter { $0.trimmingWhitespace() != item }
        let text = kept.joined(separator: "\n")
        try write(text.isEmpty || text.hasSuffix("\n") ? text : text + "\n")
        items.removeAll { $0 == item }
        return item
    }

    /// The file as it is now: empty when missing; one that cannot be read
    /// (too large, not a regular file) is never written over.
    private func currentText() throws(MigaError) -> String {
        do {
            return try readTextFile(file, limit: Self.sizeLimit) ?? ""
        } catch {
            throw MigaError("\(error); nothing was changed")
        }
    }

    private func write(_ text: String) throws(MigaError) {
        do {
            try atomicWrite(text, to: file, mode: 0o600)
        } catch {
            throw MigaError("\(error)")
        }
    }

    /// The alternative a pause offers: a different one from pause to pause.
    public func offer(using generator: inout some RandomNumberGenerator) -> String? {
        items.randomElement(using: &generator)
    }
}
