#if canImport(Glibc)
import Glibc
#endif
import MIGACore

/// What an override MIGA wrote does now, as `miga doctor` reads it.
extension DesktopOverrides {
    /// What an override MIGA wrote does now, read as a launcher reads it.
    public enum State: Equatable, Sendable {
        /// It starts the live gateway once, then the program its source names, with the source's field codes.
        case inPlace(source: String)
        /// Its gate (an Exec, Terminal) edited by hand since MIGA wrote it, and
        /// kept; whether its Exec still reaches the gateway. (Other edits, a
        /// desktop's MimeType or a person's Icon, leave it in place.)
        case editedByHand(reachesGateway: Bool)
        /// The file is gone.
        case missing
        /// It no longer carries MIGA's mark: the person has made it their own.
        case disowned
        /// The entry it stood for is gone (the package was removed), or no longer starts the program.
        case sourceGone
        /// The person's own entry set aside for it is gone.
        case backupGone(String)
        /// Its Exec wraps a gateway inside a gateway.
        case nested
        /// Its Exec starts another program where the gateway should be.
        case foreignGateway(String)
        /// Its Exec starts a gateway that no longer exists.
        case deadGateway(String)
        /// It no longer matches its source (updated by its package since).
        case stale(source: String)

        /// What is wrong, as the end of a sentence that starts with the override's path.
        public var summary: String {
            switch self {
            case .inPlace(let source): "starts the pause, then the program as \(source) says"
            case .editedByHand(let reaches): "was edited by hand" + (reaches ? "" : " and no longer starts the pause")
            case .missing: "is missing"
            case .disowned: "no longer carries MIGA's mark"
            case .sourceGone: "stands for an entry that is gone"
            case .backupGone(let backup): "had your own entry set aside at \(backup), which is gone"
            case .nested: "wraps the gateway inside the gateway, so the program never starts"
            case .foreignGateway(let path): "starts \(path), not this miga"
            case .deadGateway(let path): "starts \(path), which is gone"
            case .stale(let source): "no longer matches \(source), which has changed since"
            }
        }
    }

    /// How `override` stands, compared with what MIGA would write from its source now.
    public func state(of override: Manifest.MenuOverride) -> State {
        guard let text = Self.readText(override.path) else { return .missing }
        guard let current = try? DesktopEntry(text: text), current.value(Self.programKey) == override.program else { return .disowned }
        let name = baseName(of: override.path)
        if let backup = override.backup, access(backup, F_OK) != 0 { return .backupGone(backup) }
        let source = source(named: name).flatMap { family(of: override.program).starts($0) ? $0 : nil }
        let expected = source.flatMap { try? overriding($0.entry, for: override.program) }
        guard case .leavingTheGate(let base) = edits(of: text, recorded: override, derivedNow: expected?.text) else {
            return .editedByHand(reachesGateway: reachesGateway(current))
        }
        guard let source, let expected else { return .sourceGone }
        if Self.wanted(text, base: base, derived: expected) == text { return .inPlace(source: source.path) }
        for group in [DesktopEntry.mainGroup] + current.actionGroups {
            guard let exec = current.value("Exec", in: group), let words = try? DesktopExec.split(exec) else { continue }
            let gateways = words.filter { word in
                if case .text(let text) = word { Self.isGateway(text) } else { false }
            }
            if gateways.count > 1 { return .nested }
            if case .text(let first)? = words.first, !isLiveGateway(first) {
                return access(first, X_OK) == 0 ? .foreignGateway(first) : .deadGateway(first)
            }
        }
        return .stale(source: source.path)
    }

    /// Whether every Exec of `entry` starts the live gateway, once.
    func reachesGateway(_ entry: DesktopEntry) -> Bool {
        for group in [DesktopEntry.mainGroup] + entry.actionGroups {
            guard let exec = entry.value("Exec", in: group) else { continue }
            guard let words = try? DesktopExec.split(exec), case .text(let first)? = words.first, isLiveGateway(first),
                  words.dropFirst().allSatisfy({ word in if case .text(let text) = word { !Self.isGateway(text) } else { true } })
            else { return false }
        }
        return true
    }

    /// The same file as the gateway writing the overrides.
    func isLiveGateway(_ path: String) -> Bool {
        guard let identity = FileIdentity(path: path) else { return false }
        return identity == FileIdentity(path: gateway)
    }

    /// Whether `word` names a MIGA gateway: the live one, or any `miga` by its name.
    static func isGateway(_ word: String) -> Bool {
        word.hasPrefix("/") && baseName(of: word).hasPrefix("miga")
    }
}
