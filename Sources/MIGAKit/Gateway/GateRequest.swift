import FoundationEssentials
import Glibc
import MIGACore
import MIGATerminal
import MIGADesktop

/// What `miga gate` was asked to open: the invocation (the program and the
/// options, `GateInvocation`) and the program's arguments, byte for byte.
/// `request.command`, `request.pause` and the rest read the invocation's.
@dynamicMemberLookup
public struct GateRequest: Equatable, Sendable {
    public var invocation: GateInvocation
    /// The program's arguments, byte for byte.
    public var arguments: [[UInt8]]

    public init(_ invocation: GateInvocation, arguments: [[UInt8]] = []) {
        self.invocation = invocation
        self.arguments = arguments
    }

    public init(command: String, arguments: [[UInt8]] = [], pause: Int? = nil, detach: Bool = false, identity: String? = nil,
                window: Bool = false, loginStart: Bool = false, readyFile: String? = nil) {
        self.init(GateInvocation(command: command, pause: pause, detach: detach, window: window, loginStart: loginStart,
                                 identity: identity, readyFile: readyFile), arguments: arguments)
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<GateInvocation, Value>) -> Value {
        get { invocation[keyPath: keyPath] }
        set { invocation[keyPath: keyPath] = newValue }
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
    /// in at the file given, waiting as long as the seconds given; nil opens
    /// it for real (tests record instead).
    public var openWindow: ((Launch, WindowCheckIn, Double) -> WindowCheckIn.Outcome)?

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
    /// The request of a `miga gate` command line (`GateInvocation.read`): the
    /// form shims, desktop entries and the pause's window write; nil for
    /// anything else (help, mistakes), which the full parser handles.
    /// `arguments` are the words after the executable's name, `raw` the same as bytes.
    public init?(launchCommandLine arguments: [String], raw: [[UInt8]]) {
        guard arguments.count == raw.count, let (invocation, taken) = GateInvocation.read(arguments) else { return nil }
        self.init(invocation, arguments: Array(raw.dropFirst(taken)))
    }
}
