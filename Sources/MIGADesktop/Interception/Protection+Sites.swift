import MIGACore
import MIGAConfig

/// A protected website is its table in the config and nothing else on this
/// machine: MIGA's browser extension asks `miga native-host` for the sites
/// and pauses them in the tab, so there is no route to write or remove.
extension Protection {
    /// Protects the site `typed` names (idempotent; changes update its
    /// settings). Returns the site as kept.
    @discardableResult
    public func protectSite(_ typed: String, _ changes: ProgramChanges = ProgramChanges()) throws(MigaError) -> Site {
        let site = try Site(typed)
        if let problem = changes.siteProblem ?? changes.problem {
            throw MigaError(usage: problem)
        }
        do {
            try editor.setSite(site.name, changes)
        } catch {
            throw MigaError("cannot change \(paths.configFile): \(error)")
        }
        return site
    }

    /// Takes the site out of the config (idempotent).
    public func unprotectSite(_ site: Site) throws(MigaError) {
        do {
            try editor.removeSite(site.name)
        } catch {
            throw MigaError("cannot change \(paths.configFile): \(error)")
        }
    }

    /// The protected sites, by their plain names, in order.
    public func protectedSites() -> [Site] {
        config.sites.keys.sorted().compactMap { try? Site($0) }
    }
}
