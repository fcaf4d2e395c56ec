#if canImport(Glibc)
import Glibc
#endif
import MIGACore

/// Edits others make to an override of MIGA's. A desktop edits it too:
/// `xdg-settings set default-web-browser` on a generic desktop rewrites the
/// MimeType line of `~/.local/share/applications/NAME.desktop`, and a menu
/// editor changes a Name or an Icon. An edit that leaves the gate as MIGA
/// wrote it (every Exec, Terminal, DBusActivatable, MIGA's mark) changes
/// nothing that matters: the override stays MIGA's, keeps that edit, and
/// follows its source in everything else. An edit of the gate is the
/// person's own, kept as it is.
///
/// Telling them apart needs what MIGA last wrote: a copy of it is kept in
/// `written`, and the manifest's fingerprint says the copy is that text.
extension DesktopOverrides {
    /// How the file at an override's path stands against what MIGA wrote there.
    enum Edits {
        /// No edit, or edits that leave the gate alone. `base` is what MIGA
        /// wrote; nil for an override from before fingerprints, taken as untouched.
        case leavingTheGate(base: DesktopEntry?)
        /// An edit of the gate, or of a file whose original is not known.
        case ofTheGate
    }

    /// How `text`, at `recorded`'s path, stands against what MIGA wrote.
    ///   - derivedNow: the override of its source now, which is what MIGA
    ///     wrote when the source has not changed since (for an override
    ///     written before copies were kept).
    func edits(of text: String, recorded: Manifest.MenuOverride, derivedNow: String?) -> Edits {
        guard let print = recorded.fingerprint else { return .leavingTheGate(base: nil) }
        let candidates = [Self.readText(copyPath(recorded.path)), text, derivedNow]
        guard let written = candidates.lazy.compactMap({ $0 }).first(where: { Manifest.MenuOverride.fingerprint(of: $0) == print }),
              let base = try? DesktopEntry(text: written) else { return .ofTheGate }
        guard written != text else { return .leavingTheGate(base: base) }
        guard let current = try? DesktopEntry(text: text), Self.gate(of: current) == Self.gate(of: base) else { return .ofTheGate }
        return .leavingTheGate(base: base)
    }

    /// What the override should say now: `derived` (its source's override
    /// now) with the edits made to `text` since MIGA wrote `base`. When the
    /// source brings nothing new, that is `text` itself, as it was left.
    static func wanted(_ text: String, base: DesktopEntry?, derived: DesktopEntry) -> String {
        guard let base, base.text != text, let current = try? DesktopEntry(text: text) else { return derived.text }
        if base.text == derived.text { return text }
        return merged(base: base, edited: current, derived: derived).text
    }

    /// `derived`, with every key `edited` set, changed or removed since `base` the way `edited` has it.
    static func merged(base: DesktopEntry, edited: DesktopEntry, derived: DesktopEntry) -> DesktopEntry {
        let before = Dictionary(uniqueKeysWithValues: values(of: base).map { ($0.place, $0.value) })
        let after = values(of: edited)
        var result = derived
        for (place, value) in after where before[place] != value {
            result.setValue(value, for: place.key, in: place.group)
        }
        let kept = Set(after.map(\.place))
        for (place, _) in values(of: base) where !kept.contains(place) {
            result.removeValue(for: place.key, in: place.group)
        }
        return result
    }

    /// Where a key is: its group and its name.
    struct KeyPlace: Hashable {
        let group: String
        let key: String
    }

    /// Every key of `entry` with its value, in file order.
    static func values(of entry: DesktopEntry) -> [(place: KeyPlace, value: String)] {
        entry.groups.flatMap { group in
            entry.keys(in: group).compactMap { key in entry.value(key, in: group).map { (KeyPlace(group: group, key: key), $0) } }
        }
    }

    /// The keys that make an override MIGA's gate, with their values: every
    /// Exec, and those of the main group MIGA sets.
    static func gate(of entry: DesktopEntry) -> [KeyPlace: String] {
        let ownKeys = ["Terminal", "DBusActivatable", programKey]
        return Dictionary(uniqueKeysWithValues: values(of: entry).filter { place, _ in
            place.key == "Exec" || (place.group == DesktopEntry.mainGroup && ownKeys.contains(place.key))
        }.map { ($0.place, $0.value) })
    }

    /// Where the copy of what MIGA last wrote at `path` is kept.
    func copyPath(_ path: String) -> String {
        written + "/" + baseName(of: path)
    }

    /// Keeps `text` as what MIGA last wrote at `path`.
    func keepCopy(_ text: String, of path: String) throws(FileSystemError) {
        try makeDirectories(written)
        try writeIfChanged(text, to: copyPath(path), mode: 0o600)
    }
}
