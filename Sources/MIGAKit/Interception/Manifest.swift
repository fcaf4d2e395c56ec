import Foundation

/// Everything MIGA has written outside its own folders, so that undoing it
/// (`unprotect --all`, `uninstall`) removes exactly that and touches nothing else.
public struct Manifest: Equatable, Sendable {
    public enum Entry: Hashable, Sendable {
        /// A shim link.
        case shim(path: String)
        /// A desktop entry override for `program`, and where the person's own
        /// file at that path was set aside (to be put back on undo), if there was one.
        case desktopEntry(path: String, backup: String?, program: String)
        /// A line added to a shell's start-up file.
        case hookLine(file: String, line: String)
    }

    public private(set) var entries: [Entry] = []
    public let path: String

    /// The manifest at `path`, empty when there is none yet.
    public init(path: String) {
        self.path = path
        let text = ((try? readTextFile(path)) ?? nil) ?? ""
        entries = text.split(separator: "\n").compactMap(Self.entry)
    }

    public mutating func record(_ entry: Entry) {
        if !entries.contains(entry) { entries.append(entry) }
    }

    public mutating func forget(_ entry: Entry) {
        entries.removeAll { $0 == entry }
    }

    public func save() throws(FileSystemError) {
        if entries.isEmpty {
            unlink(path)
            return
        }
        try atomicWrite(entries.map(Self.line).joined(separator: "\n") + "\n", to: path, mode: 0o600)
    }

    // Tab-separated lines: a kind, then its fields ("-" for none).
    private static func line(_ entry: Entry) -> String {
        switch entry {
        case .shim(let path): "shim\t\(path)"
        case .desktopEntry(let path, let backup, let program): "desktop\t\(path)\t\(backup ?? "-")\t\(program)"
        case .hookLine(let file, let line): "hook\t\(file)\t\(line)"
        }
    }

    private static func entry(_ line: Substring) -> Entry? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        switch (fields.first, fields.count) {
        case ("shim", 2): return .shim(path: fields[1])
        case ("desktop", 4): return .desktopEntry(path: fields[1], backup: fields[2] == "-" ? nil : fields[2], program: fields[3])
        case ("hook", 3): return .hookLine(file: fields[1], line: fields[2])
        default: return nil
        }
    }
}
