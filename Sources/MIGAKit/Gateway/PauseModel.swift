import MIGACore
import MIGATerminal

/// The full screen's front end of the pause: its keys read into choices
/// for the pause's model (`PauseFlow`), the field and the answer edited a
/// key at a time, pastes told from typing, and the model drawn as a frame.
/// Pure: `PauseLoop` runs it on a terminal.
struct PauseModel: ScreenModel {
    typealias Work = PauseWork

    var flow: PauseFlow
    var session: PauseSession {
        get { flow.session }
        set { flow.session = newValue }
    }
    let look: PauseLook
    /// Inside a bracketed paste: nothing in it is a key pressed. A paste
    /// whose end marker never comes ends after a quiet second.
    private var pasting = false
    private var lastPasted = -Double.infinity
    static let pasteQuiet = 1.0
    /// The characters typed in quick succession, and where the line stood before them.
    private var burst = (count: 0, typedBefore: 0, last: -Double.infinity)

    /// Characters closer together than this come from a paste (or a
    /// program), not a hand: a fast typist's keys are 30 ms or more apart.
    static let burstGap = 0.008
    /// This many such characters in a row make a burst (two keys pressed
    /// together arrive closer than any gap).
    static let burstLength = 3

    init(session: PauseSession, look: PauseLook, checksYield: Bool = false) {
        flow = PauseFlow(session: session, checksYield: checksYield)
        self.look = look
    }

    mutating func update(_ input: ScreenInput?, at now: Double) -> [ScreenCommand<PauseEnding, Work>] {
        guard input != .resumed else {
            // Back from a stop: the time away does not count.
            flow.resume(at: now)
            return [.redraw]
        }
        flow.advance(to: now)
        if pasting && input == nil && now - lastPasted > Self.pasteQuiet { pasting = false }
        switch input {
        case .key(let key): return respond(to: key, at: now)
        case .resized: return [.redraw]
        case .resumed, nil: return commands(flow.tick(at: now))
        }
    }

    private func commands(_ effects: [PauseEffect]) -> [ScreenCommand<PauseEnding, Work>] {
        effects.map {
            switch $0 {
            case .finish(let ending): .finish(ending)
            case .perform(let work): .perform(work)
            }
        }
    }

    private mutating func choose(_ choice: PauseChoice, at now: Double) -> [ScreenCommand<PauseEnding, Work>] {
        commands(flow.choose(choice, at: now))
    }

    private mutating func respond(to key: Key, at now: Double) -> [ScreenCommand<PauseEnding, Work>] {
        switch key {
        case .focusOut: return choose(.focus(false), at: now)
        case .focusIn: return choose(.focus(true), at: now)
        case .control("z"):
            return [.suspend]
        case .control("l"):
            return [.redraw]
        case .control("n") where session.declinableKind != nil:
            // "Not this kind": a control key, so that it means the same while letters type a line or an answer.
            session.declinesKind = true
            return [.redraw]
        case .pasteStart:
            pasting = true
            lastPasted = now
            if session.isTyping { session.refusePaste(keeping: session.typed.count) }
            return []
        case .pasteEnd:
            pasting = false
            return []
        default:
            break
        }
        // Pasted text is not keys pressed: a "p" in it proceeds nowhere.
        if pasting {
            lastPasted = now
            return []
        }
        if session.isTyping { return typeBack(key, at: now) }
        if session.isAskingIntention { return answer(key, at: now) }
        switch PauseAction(key: key) {
        case .exitToFocus: return choose(.exitToFocus, at: now)
        case .chooseAlternative: return choose(.alternative, at: now)
        case .deepen: return choose(.deepen, at: now)
        case .proceed: return choose(.proceed, at: now)
        case .wholeQuote:
            session.showsWholeQuote.toggle()
            return [.redraw]
        case nil: return []
        }
    }

    /// Keys while the typing field is open: the line's characters, Backspace,
    /// Enter once it is typed, Esc (back) and Ctrl-C (exit). A burst of
    /// characters no hand types is taken back.
    private mutating func typeBack(_ key: Key, at now: Double) -> [ScreenCommand<PauseEnding, Work>] {
        let character: Character? = switch key {
        case .character(let character): character
        case .space: " "
        default: nil
        }
        if let character {
            // A key that joins the cluster before it (an input method's
            // vowel sign, an accent) is part of one character, not a burst.
            let joins = !session.typed.isEmpty && (session.typed + String(character)).count == session.typed.count
            burst = now - burst.last < Self.burstGap
                ? (burst.count + (joins ? 0 : 1), burst.typedBefore, now)
                : (1, session.typed.count, now)
            session.type(character, at: now)
            if burst.count >= Self.burstLength { session.refusePaste(keeping: burst.typedBefore) }
            return []
        }
        switch key {
        case .backspace: session.eraseTyped()
        case .enter: return choose(.proceed, at: now)
        case .escape: return choose(.back, at: now)
        case .control("c"), .control("d"): return choose(.exitToFocus, at: now)
        default: break
        }
        return []
    }

    /// Keys while the intention question is open: they type the answer, except
    /// Enter (proceed, once there are words), Esc (back; Exit to Focus when the
    /// question is the pause's own), Tab (deepen, then) and Ctrl-C (exit).
    private mutating func answer(_ key: Key, at now: Double) -> [ScreenCommand<PauseEnding, Work>] {
        switch key {
        case .escape where session.asksWhileCounting: return choose(.exitToFocus, at: now)
        case .tab where session.asksWhileCounting: return choose(.deepen, at: now)
        case .character(let character): session.typeIntention(character)
        case .space: session.typeIntention(" ")
        case .backspace: session.eraseIntention()
        case .control("w"): session.eraseIntention(word: true)
        case .control("u"): session.clearIntention()
        // An intention pause asks from the start: the answer waits for zero.
        case .enter: return choose(.proceed, at: now)
        case .escape: return choose(.back, at: now)
        case .control("c"), .control("d"): return choose(.exitToFocus, at: now)
        default: break
        }
        return []
    }

    func frame(size: TerminalSize) -> Frame {
        PauseScreen.frame(session, size: size, look: look)
    }

    /// Motion wants about ten frames a second; a still screen changes only
    /// when the seconds do (or when a reminder fades).
    func wait(at now: Double) -> Double {
        if look.motion { return 0.1 }
        if session.isNudging { return 0.25 }
        if session.canProceed { return 1 }
        let untilNextSecond = (Double(session.length) - session.countdownElapsed)
            .truncatingRemainder(dividingBy: 1)
        return max(0.02, untilNextSecond + 0.005)
    }
}
