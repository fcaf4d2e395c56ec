/// `miga gate [OPTIONS] PROGRAM [-- ARGS…]` as words: written by whatever
/// routes a launch through MIGA (a desktop entry's override, a D-Bus
/// service's, the window the gateway opens for its pause) and read on the
/// launch path, all here. The program's arguments are not part of it: they
/// follow `argumentsFollow`, byte for byte, or as a desktop entry's field codes.
/// The full parser (`miga gate --help`) declares the same options for help
/// and for explaining a mistake; a test holds the two to the same grammar.
public struct GateInvocation: Equatable, Sendable {
    public static let word = "gate"
    /// Ends the options: the program's arguments follow, passed on exactly.
    public static let argumentsFollow = "--"

    /// The command as typed: a name found on PATH, or a path.
    public var command: String
    /// `--pause SECONDS`, which wins over the config.
    public var pause: Int?
    /// `--detach`: on Proceed, start the program in a session of its own, so it
    /// outlives the terminal window the pause was shown in.
    public var detach: Bool
    /// `--window`: without a terminal, open the pause in a window of MIGA's
    /// choosing, whatever the program's policy without a terminal (the menu, a
    /// start at login, D-Bus activation: the person is there to see it).
    public var window: Bool
    /// `--at-login`: a start at login, which the program's setting for such starts decides.
    public var loginStart: Bool
    /// `--as NAME`: the protected program this launch is, when the command
    /// says otherwise (a desktop entry that runs `flatpak run … spotify`).
    public var identity: String?
    /// `--ready-file PATH`: this gateway runs in a window opened for the
    /// launch, whose opener waits for it to check in.
    public var readyFile: String?

    public init(command: String, pause: Int? = nil, detach: Bool = false, window: Bool = false, loginStart: Bool = false,
                identity: String? = nil, readyFile: String? = nil) {
        self.command = command
        self.pause = pause
        self.detach = detach
        self.window = window
        self.loginStart = loginStart
        self.identity = identity
        self.readyFile = readyFile
    }

    /// `gate [OPTIONS]`: the words before the program, for a writer whose
    /// program is not plain text (a desktop entry's Exec may quote it).
    public var wordsBeforeCommand: [String] {
        [Self.word] + (window ? ["--window"] : []) + (detach ? ["--detach"] : []) + (loginStart ? ["--at-login"] : [])
            + (pause.map { ["--pause", String($0)] } ?? []) + (readyFile.map { ["--ready-file", $0] } ?? [])
            + (identity.map { ["--as", $0] } ?? [])
    }

    /// `gate [OPTIONS] PROGRAM --`: the program's arguments come after.
    public var words: [String] { wordsBeforeCommand + [command, Self.argumentsFollow] }

    /// Reads `gate [OPTIONS] PROGRAM [-- ARGS…]` from the words after the
    /// executable's name; `taken` is how many words it is, the program's
    /// arguments being the rest. Nil for anything else (help, a mistake, an
    /// option given twice or spelled another way): the full parser explains it.
    public static func read(_ words: [String]) -> (invocation: GateInvocation, taken: Int)? {
        guard words.first == word else { return nil }
        var invocation = GateInvocation(command: "")
        var seen = Set<String>()
        var index = 1
        /// The value after an option, which must be there and must not look like one.
        func value() -> String? {
            guard index + 1 < words.count, !words[index + 1].hasPrefix("-") else { return nil }
            index += 1
            return words[index]
        }
        while index < words.count {
            let option = words[index]
            guard option.hasPrefix("-") else { break }
            guard seen.insert(option).inserted else { return nil }
            switch option {
            case "--window": invocation.window = true
            case "--detach": invocation.detach = true
            case "--at-login": invocation.loginStart = true
            case "--pause":
                guard let seconds = value().flatMap({ Int($0) }), PauseLength.seconds.contains(seconds) else { return nil }
                invocation.pause = seconds
            case "--as":
                guard let name = value() else { return nil }
                invocation.identity = name
            case "--ready-file":
                guard let path = value() else { return nil }
                invocation.readyFile = path
            default:
                return nil
            }
            index += 1
        }
        guard index < words.count, !words[index].isEmpty else { return nil }
        invocation.command = words[index]
        index += 1
        // Nothing may follow the program but the arguments, after `--`.
        guard index == words.count || words[index] == argumentsFollow else { return nil }
        return (invocation, min(index + 1, words.count))
    }
}

/// How long a pause may be, in seconds: what the config and `--pause` accept.
public enum PauseLength {
    public static let seconds = 1...3600
}
