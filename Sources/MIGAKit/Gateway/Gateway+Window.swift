import MIGACore
import MIGAConfig
import MIGADesktop

/// Why a pause due in a window of its own is not shown in one.
enum NoWindow: Equatable {
    /// Neither DISPLAY nor WAYLAND_DISPLAY: no window can open anywhere.
    case noDisplay
    /// No terminal emulator on PATH.
    case noEmulator
    /// An emulator was started, and its gateway never checked in.
    case neverOpened(emulator: String)
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
    /// there and the window's gateway checks in; otherwise the
    /// verdict decides again, knowing that no window opened.
    func pauseInWindow(_ launch: Launch, request: GateRequest, settings: ProgramSettings, facts: GateFacts) -> GateDecision {
        let display = [context.environment["DISPLAY"], context.environment["WAYLAND_DISPLAY"]]
            .contains { !($0 ?? "").isEmpty }
        guard display else { return noWindow(.noDisplay, for: launch, settings: settings, facts: facts) }
        let checkIn = WindowCheckIn(environment: context.environment, processID: context.processID)
        guard let window = pauseInTerminalWindow(request, programName: settings.displayName, readyFile: checkIn.path) else {
            return noWindow(.noEmulator, for: launch, settings: settings, facts: facts)
        }
        guard context.openWindow?(window, checkIn) ?? checkIn.open(window) else {
            let emulator = baseName(of: String(decoding: window.arguments.first ?? [], as: UTF8.self))
            return noWindow(.neverOpened(emulator: emulator), for: launch, settings: settings, facts: facts)
        }
        return .finish(ExitStatus.success)
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
        case .neverOpened(let emulator): ("the window for the pause (\(printable(emulator))) did not open within \(Int(WindowCheckIn.patience)) s",
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
