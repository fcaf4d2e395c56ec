#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAConfig

/// `miga doctor --fix` and `miga refresh`: every route MIGA wrote put right.
extension Protection {
    /// Puts right every route MIGA wrote, as `miga doctor --fix` does: each
    /// menu override derived again from its source (and removed when that is
    /// gone), each shim pointed at this gateway, what is missing written.
    /// Overrides edited by hand, and everything MIGA did not write, are left
    /// alone. Returns what was done, a line each.
    public func repair() throws(MigaError) -> [String] {
        var manifest = Manifest(path: manifestPath)
        defer {
            try? manifest.save()
            noteRefreshed()
        }
        var done: [String] = []
        for override in manifest.menuOverrides() {
            let place = overrides(at: override.path)
            let state = place.state(of: override)
            switch state {
            case .inPlace, .editedByHand, .disowned:
                continue
            case .missing where override.backup != nil:
                // It stood in place of a file of the person's, and that place was
                // emptied since (an AppImage tool removing an old version's entry):
                // nothing to stand in front of. Their copy stays where it was kept.
                place.forget(override, in: &manifest)
                done.append("Forgot \(override.path), which was removed; your own copy of it stays at \(override.backup!).")
                continue
            case .sourceGone:
                try place.remove(override, from: &manifest)
                done.append("Removed \(override.path): the entry it stood for is gone.")
                continue
            case .backupGone(let backup):
                manifest.record(.desktopEntry(Manifest.MenuOverride(path: override.path, backup: nil, program: override.program,
                                                                     fingerprint: override.fingerprint)))
                done.append("Forgot \(backup), which is gone.")
            case .missing, .nested, .foreignGateway, .deadGateway, .stale:
                done.append("Wrote \(override.path) again from its source (\(state.summary)).")
            }
            // Derived again below with the rest of its program's routes; with no source left, removed.
            if place.source(named: baseName(of: override.path)) == nil,
               let current = manifest.menuOverrides().first(where: { $0.path == override.path }) {
                try place.remove(current, from: &manifest)
            }
        }
        // A service file of MIGA's whose original is gone, or no longer starts its program, goes.
        let programs = config.programs
        for case .service(let path, let program) in manifest.entries {
            let current = services.sources(for: program, appIDs: appIDs(of: program, settings: programs[program])).map { baseName(of: $0.path) }
            if programs[program] == nil || !current.contains(baseName(of: path)) {
                try services.remove(path: path, program: program, from: &manifest)
                done.append("Removed \(path): the service it stood for is gone.")
            }
        }
        done += repairHookLines(in: &manifest)
        done += try takeInOtherCommands()
        // Kept rules stay kept: only `miga protect` turns them back on.
        let protected = protectedOnly(config)
        for command in protected.programs.keys.sorted() where isInstalled(command) {
            for name in shimNames(of: command) where realProgram(name) != nil && shims.target(of: shims.path + "/" + name) != shims.gateway {
                done.append("Pointed the shim of \(name) at \(shims.gateway).")
            }
            done += try installRoutes(command, into: &manifest)
        }
        return done
    }
}
