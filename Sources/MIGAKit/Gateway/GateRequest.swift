import FoundationEssentials
import Glibc
import MIGACore
import MIGATerminal
import MIGADesktop

/// What `miga gate` was asked to open.
public struct GateRequest: Equatable, Sendable {
    /// The command as typed: a name found on PATH, or a path.
    public var command: String
    /// Its arguments, byte for byte.
    public var arguments: [[UInt8]]
    /// `--pause SECONDS`, which wins over the config.
    public var pause: Int?
    /// `--detach`: on Proceed, start the program in a session of its own, so it
    /// outlives the terminal window the pause was shown in.
    public var detach: Bool
    /// `--as NAME`: the protected program this launch is, when the command
    /// says otherwise (a desktop entry that runs `flatpak run … spotify`).
    public var identity: String?
    /// `--window`: without a terminal, open the pause in a window of MIGA's
    /// choosing, whatever the program's non_interactive policy (the menu, a
    /// start at login, D-Bus activation: the person is there to see it).
    public var window: Bool
    /// `--at-login`: a start at login, which the program's at_login setting decides.
    public var loginStart: Bool
    /// `--ready-file PATH`: this gateway runs in a window opened for the
    /// launch, whose opener waits for it to check in (see `WindowCheckIn`).
    public var readyFile: String?

    public init(command: String, arguments: [[UInt8]] = [], pause: Int? = nil, detach: Bool = false, identity: String? = nil,
                window: Bool = false, loginStart: Bool = false, readyFile: String? = nil) {
        self.readyFile = readyFile
        self.command = command
        self.arguments = arguments
        self.pause = pause
        self.detach = detach
        self.identity = identity
        self.window = window
        self.loginStart = loginStart
    }
}

/// What the executable does once the gateway has decided.
public enum GateDecision: Equatable, Sendable {
    /// Become the real program.
    case launch(Launch)
    /// End with this exit status.
    case finish(Int32)
}

/// Everything the gateway takes from the world, so tests can supply their own.
public struct GatewayContext {
    public var environment: [String: String]
    public var time: TimeSource
    /// The zone streak days are counted in; nil means the system's, looked up
    /// only when a streak is needed (the lookup loads ICU's zone data).
    public var timeZone: LocalZone?
    public var generator: SeededGenerator
    /// The terminal to pause in; nil when there is none (a script, a pipe).
    public var terminal: TerminalDevice?
    /// Overrides the notifier the config would choose (tests record instead).
    public var notifier: Notifier?
    /// Where messages for the person go (standard error).
    public var messages: (String) -> Void
    /// The running gateway binary, which the PATH search must never return.
    public var gatewayIdentity: FileIdentity?
    /// This process's id, which survives exec and so marks one launch.
    public var processID: Int32
    /// The path of the `miga` binary, for starting it again in a terminal window.
    public var gatewayPath: String?
    /// Keeps the reminder at the end of an allowance; nil starts `miga remind`
    /// (tests record instead).
    public var remind: ((AllowanceReminder) -> Void)?
    /// Sends the weekly look back in the background; nil starts `miga look-back`
    /// (tests record instead).
    public var lookBack: (() -> Void)?
    /// Opens the pause's window and says whether the gateway in it checked
    /// in at the file given; nil opens it for real (tests record instead).
    public var openWindow: ((Launch, WindowCheckIn) -> Bool)?

    public init(environment: [String: String], time: TimeSource = SystemTime(), timeZone: LocalZone? = nil,
                generator: SeededGenerator = .fresh(), terminal: TerminalDevice?, notifier: Notifier? = nil,
                messages: @escaping (String) -> Void = printError,
                gatewayIdentity: FileIdentity? = FileIdentity.currentExecutable, processID: Int32 = getpid(),
                gatewayPath: String? = ShimDirectory.runningGateway, remind: ((AllowanceReminder) -> Void)? = nil,
                lookBack: (() -> Void)? = nil) {
        self.environment = environment
        self.time = time
        self.timeZone = timeZone
        self.generator = generator
        self.terminal = terminal
        self.notifier = notifier
        self.messages = messages
        self.gatewayIdentity = gatewayIdentity
        self.processID = processID
        self.gatewayPath = gatewayPath
        self.remind = remind
        self.lookBack = lookBack
    }

    /// The real world: this process's environment and terminal.
    public static func live() -> GatewayContext {
        GatewayContext(environment: processEnvironment(), terminal: TTY.open())
    }

    /// Local midnight before `instant`, in the zone a test gives or the system's.
    func startOfDay(_ instant: Date) -> Date {
        let zone = timeZone ?? .system
        return LocalDay(instant, in: zone).start(in: zone)
    }
}

extension GateRequest {
    /// The request when the command line is exactly `gate PROGRAM` or
    /// `gate PROGRAM -- ARGS…`, the form shims and desktop entries use; nil for
    /// anything else (options, help, mistakes), which the full parser handles.
    /// `arguments` are the words after the executable's name, `raw` the same as bytes.
    public init?(launchCommandLine arguments: [String], raw: [[UInt8]]) {
        guard arguments.count >= 2, arguments.count == raw.count, arguments[0] == "gate",
              !arguments[1].isEmpty, !arguments[1].hasPrefix("-") else { return nil }
        guard arguments.count == 2 || arguments[2] == "--" else { return nil }
        self.init(command: arguments[1], arguments: Array(raw.dropFirst(3)))
    }
}
