#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAConfig

/// Kept rules: a program or a site whose table stays in the config while
/// MIGA does not protect it. `miga uninstall` (without `--purge`) leaves
/// every one so, that `miga protect NAME` (or `--site NAME`) brings it back
/// as it was. Until then it is not protected: no route is missing, nothing
/// it starts goes around a pause, `doctor --fix` writes nothing for it, and
/// the browsers are given no rule for a kept site.
///
/// Uninstall names them in `kept` in MIGA's data folder, one a line (a site
/// by its program name, `site:NAME`); protect and unprotect take a name out
/// again. A program whose routes could not all be written is not kept: it
/// is protected, with routes missing.
public struct KeptRules: Sendable {
    let path: String
    /// The list's name in the data folder.
    public static let fileName = "kept"

    public init(paths: XDGPaths) {
        path = paths.dataDirectory + "/" + Self.fileName
    }

    /// The programs and sites of `config` whose rules are kept, not protected, by their history names.
    public func names(in config: Config) -> Set<String> {
        let text = ((try? readTextFile(path)) ?? nil) ?? ""
        return Set(text.split(separator: "\n").map(String.init))
            .intersection(Set(config.programs.keys).union(config.protectedSites.map(\.historyName)))
    }

    /// `config` as protection has it: the kept programs and sites left out.
    public func protectedOnly(_ config: Config) -> Config {
        let kept = names(in: config)
        guard !kept.isEmpty else { return config }
        var protected = config
        protected.programs = config.programs.filter { !kept.contains($0.key) }
        protected.sites = config.sites.filter { !kept.contains($0.value.command) }
        return protected
    }

    /// Names every site of `config` as kept, and its programs too unless
    /// `sitesOnly` (uninstall without `--purge`: the sites first, so that the
    /// browsers can be told before anything is removed).
    func keepAll(of config: Config, sitesOnly: Bool = false) throws(MigaError) {
        let names = (sitesOnly ? [] : config.programs.keys.sorted()) + config.protectedSites.map(\.historyName)
        guard !names.isEmpty else {
            unlink(path)
            return
        }
        do {
            try makeDirectories(String(path.dropLast(Self.fileName.count + 1)))
            try atomicWrite(names.joined(separator: "\n") + "\n", to: path, mode: 0o600)
        } catch {
            throw MigaError("cannot write \(path): \(error)")
        }
    }

    /// `name` is protected again, or not at all: no longer kept.
    func stopKeeping(_ name: String) {
        guard let text = (try? readTextFile(path)) ?? nil else { return }
        let names = text.split(separator: "\n").map(String.init).filter { $0 != name }
        guard !names.isEmpty else {
            unlink(path)
            return
        }
        try? atomicWrite(names.joined(separator: "\n") + "\n", to: path, mode: 0o600)
    }
}

extension Protection {
    var kept: KeptRules { KeptRules(paths: paths) }

    /// The programs of `config` whose rules are kept, not protected.
    public func keptCommands(in config: Config) -> Set<String> {
        kept.names(in: config).intersection(config.programs.keys)
    }

    /// `config` as protection has it: the kept programs and sites left out.
    public func protectedOnly(_ config: Config) -> Config {
        kept.protectedOnly(config)
    }

    /// What `miga list` and `miga doctor` say of a kept program.
    public static func keptNote(_ command: String) -> String {
        "kept, not protected — `miga protect \(printable(command))` turns it back on"
    }

    /// What `miga list` says of a kept site.
    public static func keptNote(_ site: Site) -> String {
        "kept, not protected — `miga protect --site \(printable(site.name))` turns it back on"
    }

    /// Names every program and site as kept (uninstall without `--purge`); with `sitesOnly`, the sites alone.
    func keepAll(sitesOnly: Bool = false) throws(MigaError) {
        try kept.keepAll(of: config, sitesOnly: sitesOnly)
    }

    /// `command` (or a site's `site:NAME`) is protected again, or not at all: no longer kept.
    func stopKeeping(_ command: String) {
        kept.stopKeeping(command)
    }

    /// When `command` became protected this time: the oldest of the routes
    /// MIGA wrote for it that are there now (a shim stays as written while it
    /// points at this miga). A process of it that started before then went
    /// around nothing. Nil when none is there.
    public func protectedSince(_ command: String) -> Date? {
        let names = Set(shimNames(of: command).filter { $0 != "flatpak" })
        let places = Manifest(path: manifestPath).entries.compactMap { entry -> String? in
            switch entry {
            case .shim(let path): names.contains(baseName(of: path)) ? path : nil
            case .desktopEntry(let override): override.program == command ? override.path : nil
            case .service(let path, let program): program == command ? path : nil
            case .hookLine, .unit, .browserPart, .createdFile: nil
            }
        }
        return places.compactMap(modificationDate).min()
    }
}
