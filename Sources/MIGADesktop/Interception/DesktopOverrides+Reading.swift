import FoundationEssentials
import Glibc
import MIGACore

/// Reading menu entries as launchers read them, and copying them whole.
extension DesktopOverrides {
    /// Whether `entry` starts `command`: by its Exec program (past `env`
    /// assignments), its TryExec, its file name, a Flatpak's app ID, the ID's
    /// last part, `--command=` or the window class, or the name a Flatpak or
    /// AppImage is shown by (which survives the versioned file names of
    /// AppImage tools). Names compare without regard to case.
    ///   - programs: the files the program runs, when it is installed; an Exec of one of them counts.
    static func launches(_ entry: DesktopEntry, _ command: String, fileName: String, programs: Set<FileIdentity> = []) -> Bool {
        // A login start switched off for GNOME (X-GNOME-Autostart-enabled=false)
        // is still run by other desktops and by `dex -a`: it is covered too,
        // and its override keeps the key, so GNOME still leaves it alone.
        guard entry.value("Type") == "Application", entry.value("Hidden")?.lowercased() != "true",
              entry.value(programKey) == nil else { return false }
        if fileName == command + ".desktop" { return true }
        if let tryExec = entry.value("TryExec"), baseName(of: tryExec) == command { return true }
        let texts = entry.value("Exec").map { DesktopExec.words($0) } ?? []
        let program = DesktopExec.program(in: texts)
        if program.map(baseName(of:)) == command { return true }
        if let program, program.hasPrefix("/"), let identity = FileIdentity(path: program), programs.contains(identity) { return true }
        return packagedNames(entry, execTexts: texts).contains(command.lowercased())
    }

    /// The names a Flatpak or AppImage entry answers to, lowercased; none for other entries.
    static func packagedNames(_ entry: DesktopEntry, execTexts: [String]) -> Set<String> {
        var names: [String?] = []
        if let appID = flatpakID(entry, execTexts: execTexts) {
            let command = execTexts.first { $0.hasPrefix("--command=") }.map { baseName(of: String($0.dropFirst("--command=".count))) }
            names += [appID, appID.split(separator: ".").last.map(String.init), command, entry.value("StartupWMClass"), entry.value("Name")]
        } else if entry.value("X-AppImage-Name") != nil || execTexts.first?.lowercased().hasSuffix(".appimage") == true {
            names += [entry.value("X-AppImage-Name"), entry.value("Name")]
        }
        return Set(names.compactMap { $0?.lowercased() }.filter { !$0.isEmpty })
    }

    /// The Flatpak app an entry runs: its `X-Flatpak` key, else the app of a `flatpak run` in its Exec.
    static func flatpakID(_ entry: DesktopEntry, execTexts: [String]? = nil) -> String? {
        if let id = entry.value("X-Flatpak"), !id.isEmpty { return id }
        let texts = execTexts ?? entry.value("Exec").map(DesktopExec.texts) ?? []
        guard texts.first.map(baseName(of:)) == "flatpak" else { return nil }
        return FlatpakRun.appID(in: Array(texts.dropFirst()))
    }

    static func read(_ path: String) -> DesktopEntry? {
        guard let text = readText(path) else { return nil }
        return try? DesktopEntry(text: text)
    }

    static func readText(_ path: String) -> String? {
        (try? readTextFile(path)) ?? nil
    }

    /// Copies a file of the person's with its bytes and mode.
    static func copy(_ path: String, to destination: String) throws(FileSystemError) {
        guard let bytes = FileManager.default.contents(atPath: path) else { throw FileSystemError(path: path, code: errno == 0 ? EIO : errno) }
        var info = stat()
        let mode = stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o600
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(FileSystemError) in try atomicWrite(buffer, to: destination, mode: mode) }
        }.get()
        if chmod(destination, mode) != 0 { throw FileSystemError(path: destination, code: errno) }
    }

    static func sameBytes(_ first: String, _ second: String) -> Bool {
        FileManager.default.contents(atPath: first) == FileManager.default.contents(atPath: second)
    }
}
