import MIGACore
import MIGAConfig
import MIGADesktop

/// Why a pause due in a window of its own is not shown in one.
enum NoWindow: Equatable {
    /// Neither DISPLAY nor WAYLAND_DISPLAY: no window can open anywhere.
    case noDisplay
    /// No terminal emulator on PATH.
    case noEmulator
    /// Emulators were started, each in turn, and no gateway of theirs checked in.
    case neverOpened([UnopenedWindow])
}

/// An emulator tried for the pause's window, and how its window did not open.
struct UnopenedWindow: Equatable {
    let emulator: String
    let outcome: WindowCheckIn.Outcome

    var description: String {
        switch outcome {
        case .opened: "\(emulator) opened"
        case .ended(let status): "\(emulator) ended with status \(status)"
        case .silent(let seconds): "\(emulator) stayed silent for \(seconds) s"
        case .notStarted: "\(emulator) could not be started"
        }
    }
}

extension Gateway {
    /// In a window opened for the launch, the gateway checks in; in one that
    /// opened too late, the launch was decided without it: it ends here.
    func checkIn(_ request: GateRequest) -> GateDecision? {
        guard let readyFile = request.readyFile, !WindowCheckIn.checkIn(readyFile) else { return nil }
        context.messages("miga: this window opened too late; \(printable(request.command)) was already decided on without it.")
        return .finish(ExitStatus.success)
    }

    /// The pause in a terminal window, when a display and an emulator are
    /// there and the window's gateway checks in. The emulators are tried in
    /// MIGA's order for this session (`TerminalChoice`), the next one when a
    /// window does not open, for `WindowCheckIn.totalPatience` in all;
    /// when none opens, the verdict decides again, knowing that no window opened.
    func pauseInWindow(_ launch: Launch, request: GateRequest, settings: ProgramSettings, facts: GateFacts) -> GateDecision {
        let session = DisplaySession(environment: context.environment)
        guard !session.isEmpty else { return noWindow(.noDisplay, for: launch, settings: settings, facts: facts) }
        let choices = TerminalChoice.installed(searchPath: context.environment["PATH"], preferred: context.environment["TERMINAL"],
                                               session: session)
        guard !choices.isEmpty, let gateway = context.gatewayPath else {
            return noWindow(.noEmulator, for: launch, settings: settings, facts: facts)
        }
        let start = context.time.monotonic()
        var unopened: [UnopenedWindow] = []
        for choice in choices {
            let left = WindowCheckIn.totalPatience - (context.time.monotonic() - start)
            // Too little time left for a window to open in.
            guard left > 0.5 else { break }
            let name = choice.emulator.described
            guard let checkIn = WindowCheckIn(environment: context.environment, processID: context.processID) else {
                unopened.append(UnopenedWindow(emulator: name, outcome: .notStarted))
                break
            }
            let window = pauseInTerminalWindow(request, in: choice, gateway: gateway, programName: settings.displayName,
                                               readyFile: checkIn.path)
            let patience = min(WindowCheckIn.patience, left)
            let outcome = context.openWindow?(window, checkIn, patience) ?? checkIn.open(window, patience: patience)
            if outcome == .opened { return .finish(ExitStatus.success) }
            // A window that opens after this stands aside; and no file is left behind.
            checkIn.withdraw()
            unopened.append(UnopenedWindow(emulator: name, outcome: outcome))
        }
        return noWindow(.neverOpened(unopened), for: launch, settings: settings, facts: facts)
    }

    /// No window for the pause: the verdict on the same facts, without a
    /// window, decides (a refusal or a direct start), and the person is told either way.
    func noWindow(_ cause: NoWindow, for launch: Launch, settings: ProgramSettings, facts: GateFacts) -> GateDecision {
        let name = settings.displayName
        let (why, short) = switch cause {
        case .noDisplay: ("there is no display to open a window for the pause on (DISPLAY and WAYLAND_DISPLAY are unset)",
                          "MIGA had no display to open the pause on")
        case .noEmulator: ("no terminal emulator was found for the pause (tried \(TerminalEmulator.known.map(\.name).joined(separator: ", ")))",
                           "MIGA found no terminal emulator")
        case .neverOpened(let unopened):
            ("the window for the pause did not open (\(printable(unopened.map(\.description).joined(separator: ", then "))))",
             "the window for the pause did not open")
        }
        let summary = cause == .noEmulator ? "No window for the pause" : "The pause's window did not open"
        let window: GateFacts.WindowTry = if case .neverOpened = cause { .neverOpened } else { .impossible }
        let verdict = GateVerdict(facts.without(window: window))
        if verdict == .deny {
            context.messages("miga: \(why); not starting \(name) (non_interactive = \"deny\").")
            let install = cause == .noEmulator ? " Install one to pause in." : ""
            notify(DesktopNotification(summary: summary, body: "\(short), so \(name) did not open.\(install)"))
            return .finish(ExitStatus.denied)
        }
        let advice = cause == .noEmulator ? " Install one, or set non_interactive = \"pass\"." : ""
        context.messages("miga: \(why); starting \(name) directly.\(advice)")
        notify(DesktopNotification(summary: summary, body: "\(short), so \(name) opened directly."))
        guard case .passThrough(let reason) = verdict else { return .launch(launch) }
        return passThrough(launch, settings: settings, reason: reason)
    }
}
