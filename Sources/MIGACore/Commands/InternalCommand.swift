/// The commands `miga` starts itself, never a person: in no help, manual page
/// or completion. Each is written by the process that starts it and read by
/// `miga`'s entry point, both through this value, so the words are spelled
/// here alone. What follows the first word is the starter's own grammar
/// (`AllowanceReminder.arguments`, `StartWatch`, `DetachedNotifier`, `NativeHost.caller`).
public enum InternalCommand: Equatable, Sendable {
    /// `remind …`: keeps the reminder at the end of an allowance.
    case remind([String])
    /// `look-back`: the weekly look back, sent in the background once a pause has ended.
    case lookBack
    /// `native-host …`: MIGA's browser extension's host, as the browser starts it.
    case nativeHost([String])
    /// `watch-start …`: watches the first moments of a program started detached.
    case watchStart([String])
    /// `notify …`: the notification of an Exit to Focus, sent once the terminal is given back.
    case notify([String])

    /// The name a browser starts the host by: its manifest names no words of MIGA's choosing.
    public static let nativeHostName = "miga-native-host"

    /// Its first word, which names it in a message.
    public var word: String { words[0] }

    /// The words after the executable's name.
    public var words: [String] {
        switch self {
        case .remind(let rest): ["remind"] + rest
        case .lookBack: ["look-back"]
        case .nativeHost(let rest): ["native-host"] + rest
        case .watchStart(let rest): ["watch-start"] + rest
        case .notify(let rest): ["notify"] + rest
        }
    }

    /// The internal command of `words` (the arguments after the executable's
    /// name), or nil when they are a person's command.
    public init?(words: [String]) {
        guard let first = words.first else { return nil }
        let rest = Array(words.dropFirst())
        switch first {
        case "remind": self = .remind(rest)
        case "look-back" where rest.isEmpty: self = .lookBack
        case "native-host": self = .nativeHost(rest)
        case "watch-start": self = .watchStart(rest)
        case "notify": self = .notify(rest)
        default: return nil
        }
    }

    /// The command of a `miga` started by another name (a link): the host's,
    /// when it is the name the browsers' manifests give.
    public init?(invokedAs name: String, arguments: [String]) {
        guard name == Self.nativeHostName else { return nil }
        self = .nativeHost(arguments)
    }
}
