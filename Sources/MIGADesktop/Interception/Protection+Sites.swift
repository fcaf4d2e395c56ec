import MIGACore
import MIGAConfig

/// A protected website is its table in the config and nothing else on this
/// machine: MIGA's browser extension asks `miga native-host` for the sites
/// and pauses them in the tab, so there is no route to write or remove.
extension Protection {
    /// Protects the site `typed` names (idempotent; changes update its
    /// settings). Returns what was done, in words for the person: the site
    /// as kept, and a note of what was left out of what was typed.
    @discardableResult
    public func protectSite(_ typed: String, _ changes: ProgramChanges = ProgramChanges()) throws(MigaError) -> (site: Site, lines: [String]) {
        let (site, note) = try Site.read(typed)
        if let problem = changes.siteProblem ?? changes.problem {
            throw MigaError(usage: problem)
        }
        let already = protectedOnly(config).sites[site.name] != nil
        do {
            try editor.setSite(site.name, changes)
        } catch {
            throw MigaError("cannot change \(paths.configFile): \(error)")
        }
        stopKeeping(site.historyName)
        let done = switch (already, changes.values.isEmpty) {
        case (true, true): "\(site.name) is protected already."
        case (true, false): "\(site.name) is protected already; its settings are updated."
        case (false, _): "Protected \(site.name)" + (site.path.isEmpty ? ", with its subdomains." : " and the pages under it.")
        }
        return (site, [done] + (note.map { ["  " + $0] } ?? []))
    }

    /// Takes the site out of the config (idempotent): every table that reads
    /// as it, a name written by an earlier miga another way included.
    public func unprotectSite(_ site: Site) throws(MigaError) {
        let names = Set([site.name] + config.sites.filter { $0.value.protected.site == site }.keys)
        do {
            for name in names.sorted() { try editor.removeSite(name) }
        } catch {
            throw MigaError("cannot change \(paths.configFile): \(error)")
        }
        stopKeeping(site.historyName)
    }

    /// The sites of the config (protected, or kept after uninstall), in order.
    public func configuredSites() -> [Site] {
        config.protectedSites
    }

    /// Whether the site's rules are kept, not protected (after uninstall).
    public func isKept(_ site: Site) -> Bool {
        kept.names(in: config).contains(site.historyName)
    }
}
