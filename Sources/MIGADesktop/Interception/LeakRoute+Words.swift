import MIGACore
import MIGATerminal

/// A route in words, for doctor, stats and the look back.
extension LeakRoute: CustomStringConvertible {
    /// A few words for a summary: "at login", "from the menu", "from /snap/bin/firefox", "from bash".
    public var shortName: String {
        switch self {
        case .login: "at login"
        case .menu: "from the menu"
        case .path(let path): "from " + Self.shortened(path)
        case .launcher(let line):
            "from " + (line.split(separator: " ").first.map { baseName(of: String($0)) } ?? line)
        case .unknown: "from a launcher that has exited"
        }
    }

    /// Where it came from, in full enough to act on: doctor's words.
    public var description: String {
        switch self {
        case .login(let line): "at login (\(Self.shortened(line)))"
        case .menu(let entry): "from the application menu (\(Self.shortened(entry)))"
        case .path(let path): "from \(Self.shortened(path)), a path no shim sees"
        case .launcher(let line): "from \(Self.shortened(line))"
        case .unknown: "from a launcher that has exited"
        }
    }

    /// At most 60 cells, keeping the end of a path, where its name is.
    static func shortened(_ text: String) -> String {
        TextWrap.truncateStart(text, width: 60)
    }
}
