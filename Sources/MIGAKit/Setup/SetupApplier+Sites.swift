import MIGACore
import MIGAConfig
import MIGADesktop

/// Setup's sites put into effect, through the same config editing as
/// `miga protect --site` and `miga unprotect --site`.
extension SetupApplier {
    /// The sites unticked taken out (but those in `keeping`, by history name,
    /// whose switch-off pause ended in Exit to Focus), the new ones protected,
    /// and one whose rules were kept after uninstall protected again; a site
    /// protected already is not written again. The browsers connected now
    /// have the change before setup ends.
    func applySites(_ chosen: [String], keeping: Set<String>, before: Config) -> (done: [String], problems: [String]) {
        var done: [String] = []
        var problems: [String] = []
        for site in before.protectedSites where !chosen.contains(site.name) && !keeping.contains(site.historyName) {
            do {
                try protection.unprotectSite(site)
                done.append("No longer protected: \(site.name).")
            } catch {
                problems.append(error.line)
            }
        }
        let kept = KeptRules(paths: protection.paths).names(in: before)
        for name in chosen where before.sites[name].map({ kept.contains($0.command) }) ?? true {
            do {
                let site = try protection.protectSite(name).site
                done.append("Protected \(site.name).")
            } catch {
                problems.append(error.line)
            }
        }
        if chosen.sorted() != before.sites.keys.sorted() || !kept.isEmpty {
            done += BrowserConnections(paths: protection.paths).catchUp()
        }
        return (done, problems)
    }
}
