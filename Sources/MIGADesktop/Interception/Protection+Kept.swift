#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAConfig

/// Kept rules: a program whose table stays in the config while no route of
/// MIGA's leads it to the pause. `miga uninstall` (without `--purge`) leaves
/// every program so, that `miga protect NAME` brings it back as it was. Until
/// then it is not protected: no route is missing, nothing it starts goes
/// around a pause, and `doctor --fix` writes nothing for it.
///
/// Uninstall names them in `kept` in MIGA's data folder, one a line; protect
/// and unprotect take a name out again. A program whose routes could not all
/// be written is not kept: it is protected, with routes missing.
extension Protection {
    var keptListPath: String { paths.dataDirectory + "/kept" }

    /// The programs of `config` whose rules are kept, not protected.
    public func keptCommands(in config: Config) -> Set<String> {
        let text = ((try? readTextFile(keptListPath)) ?? nil) ?? ""
        return Set(text.split(separator: "\n").map(String.init)).intersection(config.programs.keys)
    }

    /// `config` as protection has it: the kept programs left out.
    public func protectedOnly(_ config: Config) -> Config {
        let kept = keptCommands(in: config)
        guard !kept.isEmpty else { return config }
        var protected = config
        protected.programs = config.programs.filter { !kept.contains($0.key) }
        return protected
    }

    /// What `miga list` and `miga doctor` say of a kept program.
    public static func keptNote(_ command: String) -> String {
        "kept, not protected — `miga protect \(printable(command))` turns it back on"
    }

    /// Names every program of the config as kept (uninstall without `--purge`).
    func keepAll() throws(MigaError) {
        let names = config.programs.keys.sorted()
        guard !names.isEmpty else { return unlinkKeptList() }
        do {
            try makeDirectories(paths.dataDirectory)
            try atomicWrite(names.joined(separator: "\n") + "\n", to: keptListPath, mode: 0o600)
        } catch {
            throw MigaError("cannot write \(keptListPath): \(error)")
        }
    }

    /// `command` is protected again, or not at all: no longer kept.
    func stopKeeping(_ command: String) {
        guard let text = (try? readTextFile(keptListPath)) ?? nil else { return }
        let names = text.split(separator: "\n").map(String.init).filter { $0 != command }
        if names.isEmpty { return unlinkKeptList() }
        try? atomicWrite(names.joined(separator: "\n") + "\n", to: keptListPath, mode: 0o600)
    }

    private func unlinkKeptList() { unlink(keptListPath) }

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
            case .hookLine, .unit: nil
            }
        }
        return places.compactMap { place -> Date? in
            var info = stat()
            guard lstat(place, &info) == 0 else { return nil }
            return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        }.min()
    }
}
