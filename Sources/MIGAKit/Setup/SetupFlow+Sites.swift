import MIGACore

/// One website on setup's list, by its plain name (`youtube.com`).
public struct SetupSite: Equatable, Sendable {
    public let name: String
    public var selected: Bool

    public init(name: String, selected: Bool = true) {
        self.name = name
        self.selected = selected
    }
}

/// The program list's second section: the protected sites, ticked, and a row
/// to add one, typed as a person would (`https://www.YouTube.com/`) and made
/// plain by `Site`. A site unticked is no longer protected when setup finishes,
/// after the same pause as `miga unprotect --site`.
extension SetupFlow {
    /// The row of `sites[index]`, after the programs and "another command".
    func siteRow(_ index: Int) -> Int { programs.count + 1 + index }

    /// The "another site" row, after the sites.
    var anotherSiteRow: Int { siteRow(sites.count) }

    var selectedSiteCount: Int { sites.filter(\.selected).count }

    /// Space or Enter on the sites' section: a site ticked or unticked, or
    /// on "another site", a site to type.
    mutating func chooseSiteRow() {
        let index = cursor - siteRow(0)
        if sites.indices.contains(index) {
            sites[index].selected.toggle()
        } else if cursor == anotherSiteRow {
            field = ""
            typingSite = true
        }
    }

    /// The typed site added and ticked (or ticked where it is on the list
    /// already); what is no site is refused, saying why, and stays to be corrected.
    mutating func addSite(_ typed: String) {
        guard !typed.trimmingWhitespace().isEmpty else {
            (field, typingSite) = (nil, false)
            return
        }
        let site: Site, note: String?
        do {
            (site, note) = try Site.read(typed)
        } catch {
            message = error.message
            return
        }
        if let index = sites.firstIndex(where: { $0.name == site.name }) {
            sites[index].selected = true
            cursor = siteRow(index)
        } else {
            sites.append(SetupSite(name: site.name))
            cursor = siteRow(sites.count - 1)
        }
        (field, typingSite) = (nil, false)
        message = note
    }
}
