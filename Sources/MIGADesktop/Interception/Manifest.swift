import FoundationEssentials
import Glibc
import MIGACore

/// Everything MIGA has written outside its own folders, so that undoing it
/// (`unprotect --all`, `uninstall`) removes exactly that and touches nothing else.
public struct Manifest: Equatable, Sendable {
    public enum Entry: Hashable, Sendable {
        /// A shim link.
        case shim(path: String)
        /// A desktop entry override.
        case desktopEntry(MenuOverride)
        /// A line added to a shell's start-up file.
        case hookLine(file: String, line: String)
        /// A D-Bus service file that sends an activation through the gateway.
        case service(path: String, program: String)
        /// A systemd user unit (the refresh on changes of the application folders, the sync timer).
        case unit(path: String)
        /// What lets a browser reach MIGA: a host manifest, the host's link,
        /// the extension's folder in MIGA's data folder.
        case browserPart(path: String)
        /// A file that was not there until MIGA wrote a line to it (a start-up
        /// file): taken away with the line if nothing else is left in it.
        case createdFile(path: String)

        /// Where it was written: two entries at one path are one thing written twice.
        var path: String {
            switch self {
            case .shim(let path): path
            case .desktopEntry(let override): override.path
            case .hookLine(let file, let line): file + "\n" + line
            case .service(let path, _): path
            case .unit(let path): path
            case .browserPart(let path): path
            case .createdFile(let path): "created\n" + path
            }
        }
    }

    /// A menu override MIGA wrote: for which program, where the person's own
    /// file at that path was set aside (to be put back on undo), and a
    /// fingerprint of the override as MIGA derived it from its source, which
    /// tells later edits (a desktop's, the person's) from MIGA's own work and
    /// vouches for the copy of it MIGA keeps (`DesktopOverrides.written`).
    /// Overrides written before fingerprints have none.
    public struct MenuOverride: Hashable, Sendable {
        public let path: String
        public let backup: String?
        public let program: String
        public let fingerprint: String?

        public init(path: String, backup: String?, program: String, fingerprint: String?) {
            self.path = path
            self.backup = backup
            self.program = program
            self.fingerprint = fingerprint
        }

        /// The fingerprint of an override's text as MIGA derived it.
        public static func fingerprint(of text: String) -> String {
            String(FNV1a.hash([text]), radix: 16)
        }
    }

    public private(set) var entries: [Entry] = []
    public let path: String

    /// Where MIGA keeps it: its data folder.
    public static func path(in paths: XDGPaths) -> String { paths.dataDirectory + "/manifest" }

    /// The manifest at `path`, empty when there is none yet.
    public init(path: String) {
        self.path = path
        let text = ((try? readTextFile(path)) ?? nil) ?? ""
        entries = text.split(separator: "\n").compactMap(Self.entry)
    }

    /// Remembers `entry`, in place of what was recorded at the same path.
    public mutating func record(_ entry: Entry) {
        if let index = entries.firstIndex(where: { $0.path == entry.path }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
    }

    public mutating func forget(_ entry: Entry) {
        entries.removeAll { $0.path == entry.path }
    }

    /// The menu overrides recorded, for every program or for one.
    public func menuOverrides(for program: String? = nil) -> [MenuOverride] {
        entries.compactMap { entry in
            guard case .desktopEntry(let override) = entry, program == nil || override.program == program else { return nil }
            return override
        }
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
        case .desktopEntry(let override):
            "desktop\t\(override.path)\t\(override.backup ?? "-")\t\(override.program)\t\(override.fingerprint ?? "-")"
        case .hookLine(let file, let line): "hook\t\(file)\t\(line)"
        case .service(let path, let program): "service\t\(path)\t\(program)"
        case .unit(let path): "unit\t\(path)"
        case .browserPart(let path): "browser\t\(path)"
        case .createdFile(let path): "created\t\(path)"
        }
    }

    private static func entry(_ line: Substring) -> Entry? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        func optional(_ index: Int) -> String? { index < fields.count && fields[index] != "-" ? fields[index] : nil }
        switch (fields.first, fields.count) {
        case ("shim", 2): return .shim(path: fields[1])
        // Four fields: written before overrides had fingerprints.
        case ("desktop", 4), ("desktop", 5):
            return .desktopEntry(MenuOverride(path: fields[1], backup: optional(2), program: fields[3], fingerprint: optional(4)))
        case ("hook", 3): return .hookLine(file: fields[1], line: fields[2])
        case ("service", 3): return .service(path: fields[1], program: fields[2])
        case ("unit", 2): return .unit(path: fields[1])
        case ("browser", 2): return .browserPart(path: fields[1])
        case ("created", 2): return .createdFile(path: fields[1])
        default: return nil
        }
    }
}
