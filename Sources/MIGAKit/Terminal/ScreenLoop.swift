/// A screen driven by keys alone (setup, the hub): a pure state machine that
/// answers each key and draws itself for a size.
public protocol InteractiveScreen {
    associatedtype Result
    /// What a key does: nothing to end with yet, or the screen's result.
    mutating func handle(_ key: Key) -> Result?
    func frame(size: TerminalSize) -> Frame
    /// Told the size before each drawing, for screens whose keys depend on it
    /// (up and down in a grid).
    mutating func resize(_ size: TerminalSize)
}

extension InteractiveScreen {
    public mutating func resize(_ size: TerminalSize) {}
}

/// Shows `screen` on `terminal` until it has a result. Nil when a signal or
/// a closed window ends it first. The terminal stays entered: the caller leaves.
public func run<Screen: InteractiveScreen>(_ screen: inout Screen, on terminal: TerminalDevice,
                                           palette: Palette) -> Screen.Result? {
    var renderer = FrameRenderer(palette: palette)
    terminal.enter()
    screen.resize(terminal.size)
    terminal.write(renderer.render(screen.frame(size: terminal.size)))
    while true {
        for event in terminal.nextEvents(timeout: 60) {
            switch event {
            case .key(.control("z")), .suspendRequested:
                terminal.suspend()
                renderer.invalidate()
            case .key(.control("l")), .resized, .resumed:
                renderer.invalidate()
            case .key(let key):
                if let result = screen.handle(key) { return result }
            case .signal, .hangup:
                return nil
            }
        }
        screen.resize(terminal.size)
        terminal.write(renderer.render(screen.frame(size: terminal.size)))
    }
}

/// Lines to read (the stats, inside the hub) until any key is pressed.
public struct ReadingScreen: InteractiveScreen {
    public let lines: [Line]
    public let footer: String

    public init(lines: [Line], footer: String) {
        self.lines = lines
        self.footer = footer
    }

    public mutating func handle(_ key: Key) -> Bool? { true }

    public func frame(size: TerminalSize) -> Frame {
        let room = max(0, size.rows - 2)
        let shown = Array(lines.prefix(room))
        return Frame(size: size, lines: shown + Array(repeating: .blank, count: max(0, size.rows - shown.count - 1))
                     + [Line.centered(footer, .muted, in: size.columns)])
    }
}
