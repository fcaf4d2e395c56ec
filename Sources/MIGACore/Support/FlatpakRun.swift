/// Reads a `flatpak` command line as flatpak does, far enough to know which
/// app `flatpak run` starts: the one launch of the `flatpak` shim that may
/// pause. Everything else (`flatpak update`, `flatpak list`) is never a launch.
public enum FlatpakRun {
    /// Options of `flatpak run` (and global ones) that take a value, which
    /// may come as the next word (`--branch stable`) as well as after `=`.
    static let optionsWithValue: Set<String> = [
        "--installation", "--arch", "--command", "--branch", "--runtime", "--runtime-version", "--cwd", "--share", "--unshare",
        "--socket", "--nosocket", "--device", "--nodevice", "--allow", "--disallow", "--filesystem", "--nofilesystem",
        "--env", "--env-fd", "--unset-env", "--own-name", "--talk-name", "--no-talk-name", "--system-own-name",
        "--system-talk-name", "--system-no-talk-name", "--add-policy", "--remove-policy", "--persist", "--app-path",
        "--usr-path", "--commit", "--runtime-commit", "--parent-pid", "--instance-id-fd", "--a11y-own-name", "--session-bus",
    ]

    /// The app ID that `flatpak ARGUMENTS` runs (`com.discordapp.Discord` for
    /// `--user run --branch=stable com.discordapp.Discord//stable @@u x @@`);
    /// nil when the command is not `run`.
    public static func appID(in arguments: [String]) -> String? {
        var index = 0
        var seenRun = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--" { continue }
            if word.hasPrefix("-") {
                if !word.contains("="), optionsWithValue.contains(word) { index += 1 }
                continue
            }
            if !seenRun {
                guard word == "run" else { return nil }
                seenRun = true
                continue
            }
            // `APP//BRANCH` or `APP/ARCH/BRANCH`: the ID is the first part.
            let id = word.split(separator: "/", omittingEmptySubsequences: false).first.map(String.init) ?? word
            return id.isEmpty ? nil : id
        }
        return nil
    }

    /// Whether `id` has the shape of an app ID: at least three dot-separated
    /// parts of ASCII letters, digits, `_` and `-`, none starting with a digit.
    public static func isAppID(_ id: String) -> Bool {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 3 && id.utf8.count <= 255 && parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
            return part.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
        }
    }
}
