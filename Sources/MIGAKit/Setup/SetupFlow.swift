import MIGACore
import MIGATerminal
import MIGAConfig
import MIGADesktop

/// One program on setup's list.
public struct SetupProgram: Equatable, Sendable {
    public let name: String
    public let command: String
    public let glyph: Character
    public let installed: Bool
    public var selected: Bool

    public init(name: String, command: String, glyph: Character, installed: Bool, selected: Bool = false) {
        self.name = name
        self.command = command
        self.glyph = glyph
        self.installed = installed
        self.selected = selected
    }
}

/// What setup asks, answered.
public struct SetupAnswers: Equatable, Sendable {
    public var programs: [SetupProgram]
    public var interests: [String]
    public var pause: Int
    public var addHook: Bool
    /// The sites to protect, by their plain names.
    public var sites: [String] = []
    /// Equip the browsers found for protected sites (`miga browser setup`).
    public var equipBrowsers = false
}

/// `miga setup` (seed S-001 … S-003) as a pure state machine: the pages, the
/// program list, interests, pause length, the shell hook and a summary.
/// Nothing is written until it finishes; leaving changes nothing.
public struct SetupFlow: InteractiveScreen {
    public enum Result: Equatable {
        case finished(SetupAnswers)
        case left
    }

    public enum Step: Equatable {
        case page(Int)
        case programs
        case interests
        case pause
        case hook
        case browsers
        case ready
    }

    public internal(set) var step: Step = .page(0)
    /// The very first run: the pages cannot be skipped and Esc does not leave
    /// (Ctrl-C always does, saving nothing).
    public let firstRun: Bool
    public private(set) var programs: [SetupProgram]
    /// Row of the program list; `programs.count` is the "another command" row,
    /// the sites' rows follow (SetupFlow+Sites.swift), and `continueRow` is the
    /// Continue button, reached with the arrows like any other.
    public internal(set) var cursor = 0
    /// A command being typed, when the person adds one of their own (a site, when `typingSite`).
    public internal(set) var field: String?
    public internal(set) var typingSite = false
    public internal(set) var message: String?
    /// The list's second section: the protected sites, and those added.
    public internal(set) var sites: [SetupSite]
    public let tags: [(tag: String, count: Int)]
    public private(set) var chosenTags: Set<String> = []
    public private(set) var tagCursor = 0
    public private(set) var pause: Int
    /// Interests in the config that are no tag of the bank now; kept.
    let otherInterests: [String]
    public let hook: HookOffer?
    public private(set) var addHook = true
    /// The browsers `miga browser setup` would equip: with a site ticked,
    /// setup asks about equipping them.
    public let browsers: [String]
    /// How to add MIGA's extension to each of them (`BrowserSetup.extensionSteps`).
    public let extensionSteps: [(browser: String, how: String)]
    public internal(set) var equipBrowsers = true
    /// Checks a typed command: nil when it can be protected, else why not.
    private let check: @Sendable (String) -> String?
    /// How far a page's text is scrolled, when it is taller than the window.
    public private(set) var pageScroll = 0
    /// The window's size, for how far a page scrolls (nil until the first drawing).
    private(set) var size: TerminalSize?

    /// What setup offers: every length the config and `miga protect` take.
    public static let pauseRange = Config.pauseRange
    /// The lengths the arrows step through: fine steps where a few seconds
    /// matter, coarse ones where only minutes do.
    static let pauseLadder: [Int] = [1, 2, 3, 5, 10, 15, 20] + Array(stride(from: 30, through: 300, by: 15))
        + Array(stride(from: 360, through: 600, by: 60)) + [900, 1200, 1800, 2700, 3600]
    /// Below this a pause is over before the pull has eased: setup says so, gently.
    static let shortPause = 10

    /// `sites`: the protected sites' plain names, ticked; `browsers`: the
    /// browsers `miga browser setup` would equip for them.
    public init(firstRun: Bool, programs: [SetupProgram], sites: [String] = [], tags: [(tag: String, count: Int)],
                interests: [String] = [], pause: Int = Config.defaultPause, hook: HookOffer?, browsers: [String] = [], extensionSteps: [(browser: String, how: String)] = [],
                check: @escaping @Sendable (String) -> String?) {
        self.firstRun = firstRun
        self.programs = programs
        self.sites = sites.map { SetupSite(name: $0) }
        self.tags = tags
        chosenTags = Set(interests.filter { interest in tags.contains { $0.tag == interest } })
        // What setup cannot show or choose is kept as it is: interests that
        // match no tag, a pause between the ladder's rungs.
        otherInterests = interests.filter { interest in !tags.contains { $0.tag == interest } }
        self.pause = pause
        self.hook = hook
        addHook = !(hook?.present ?? true)
        self.browsers = browsers
        self.extensionSteps = extensionSteps
        self.check = check
        if !firstRun { step = .programs }
    }

    var selectedCount: Int { programs.filter(\.selected).count }

    /// The Continue button's row, after "another site".
    var continueRow: Int { anotherSiteRow + 1 }

    public var answers: SetupAnswers {
        SetupAnswers(programs: programs.filter(\.selected),
                     interests: tags.map(\.tag).filter { chosenTags.contains($0) } + otherInterests,
                     pause: pause, addHook: addHook && !(hook?.present ?? true), sites: sites.filter(\.selected).map(\.name),
                     equipBrowsers: equipBrowsers && offersBrowsers)
    }

    // MARK: Keys

    public mutating func resize(_ size: TerminalSize) {
        self.size = size
        if case .page(let index) = step { pageScroll = min(pageScroll, pageText(index, size: size).lastOffset) }
    }

    public mutating func handle(_ key: Key) -> Result? {
        if key == .control("c") { return .left }
        if field != nil { return typing(key) }
        message = nil
        if key == .escape || key == .character("q") {
            if !firstRun { return .left }
            message = "Setup is how MIGA begins; Ctrl-C leaves without saving anything."
            return nil
        }
        switch step {
        case .page(let index): onPage(index, key)
        case .programs: onPrograms(key)
        case .interests: onInterests(key)
        case .pause: onPause(key)
        case .hook: onHook(key)
        case .browsers: onBrowsers(key)
        case .ready: return onReady(key)
        }
        return nil
    }

    private mutating func onPage(_ index: Int, _ key: Key) {
        // A page taller than the window scrolls; Enter and Space read on
        // to its end before they turn it, so no page is left half read.
        let text = size.map { pageText(index, size: $0) }
        let last = text?.lastOffset ?? 0
        switch key {
        case .down, .character("j"):
            pageScroll = min(last, pageScroll + 1)
        case .up, .character("k"):
            pageScroll = max(0, pageScroll - 1)
        case .enter where pageScroll < last, .space where pageScroll < last:
            pageScroll = min(last, pageScroll + max(1, (text?.rows ?? 1) - 1))
        case .right, .enter, .space, .character("l"):
            step = index + 1 < Onboarding.pages.count ? .page(index + 1) : .programs
            pageScroll = 0
        case .left, .backspace, .character("h"):
            if index > 0 { step = .page(index - 1) }
            pageScroll = 0
        default: break
        }
    }

    private mutating func onPrograms(_ key: Key) {
        switch key {
        case .up, .character("k"): cursor = max(0, cursor - 1)
        case .down, .character("j"): cursor = min(continueRow, cursor + 1)
        case .space:
            if cursor > programs.count { chooseSiteRow() } else { toggleProgram() }
        case .enter:
            if cursor == programs.count { field = ""; return }
            if cursor == anotherSiteRow { return chooseSiteRow() }
            guard selectedCount + selectedSiteCount > 0 else {
                message = "Choose at least one program with Space."
                return
            }
            step = .interests
        case .backspace, .left:
            if firstRun { step = .page(Onboarding.pages.count - 1) }
        default: break
        }
    }

    private mutating func onInterests(_ key: Key) {
        switch key {
        case .up, .character("k"): tagCursor = max(0, tagCursor - 1)
        case .down, .character("j"): tagCursor = min(tags.count - 1, tagCursor + 1)
        case .space:
            guard tags.indices.contains(tagCursor) else { break }
            let tag = tags[tagCursor].tag
            if chosenTags.contains(tag) { chosenTags.remove(tag) } else { chosenTags.insert(tag) }
        case .enter: step = .pause
        case .backspace, .left: step = .programs
        default: break
        }
    }

    private mutating func onPause(_ key: Key) {
        switch key {
        case .left, .character("-"), .character("h"): pause = Self.step(pause, longer: false)
        case .right, .character("+"), .character("l"): pause = Self.step(pause, longer: true)
        case .enter: step = hook == nil ? afterHook : .hook
        case .backspace: step = .interests
        default: break
        }
    }

    private mutating func onHook(_ key: Key) {
        switch key {
        case .character("y"), .character("Y"): addHook = true; step = afterHook
        case .character("n"), .character("N"): addHook = false; step = afterHook
        case .left, .right, .space: addHook.toggle()
        case .enter: step = afterHook
        case .backspace: step = .pause
        default: break
        }
    }

    private mutating func onReady(_ key: Key) -> Result? {
        switch key {
        case .enter: return .finished(answers)
        case .backspace: step = offersBrowsers ? .browsers : beforeBrowsers
        default: break
        }
        return nil
    }

    /// The next length on the ladder, longer or shorter; a length between
    /// its rungs (set in the config) moves to the nearest one that way.
    static func step(_ pause: Int, longer: Bool) -> Int {
        (longer ? pauseLadder.first { $0 > pause } : pauseLadder.last { $0 < pause }) ?? pause
    }

    private mutating func toggleProgram() {
        guard cursor < programs.count else {
            field = ""
            return
        }
        guard programs[cursor].installed else {
            message = "\(programs[cursor].name) is not installed here."
            return
        }
        programs[cursor].selected.toggle()
    }

    private mutating func typing(_ key: Key) -> Result? {
        switch key {
        case .escape:
            field = nil
            typingSite = false
        case .backspace:
            if field?.isEmpty == false { field?.removeLast() }
        case .control("u"):
            // As a shell's line: Ctrl-U clears what is typed.
            field = ""
        case .character(let character):
            field?.append(character)
        case .enter where typingSite:
            addSite(field ?? "")
        case .enter:
            let command = (field ?? "").trimmingWhitespace()
            guard !command.isEmpty else { field = nil; return nil }
            if let index = programs.firstIndex(where: { $0.command == command }) {
                programs[index].selected = programs[index].installed
                cursor = index
                field = nil
                message = nil
                return nil
            }
            if let problem = check(command) {
                message = problem
                return nil
            }
            programs.append(SetupProgram(name: command.prefix(1).uppercased() + command.dropFirst(), command: command,
                                         glyph: ProgramCatalog.glyph(for: command), installed: true, selected: true))
            cursor = programs.count - 1
            field = nil
            // A refusal of an earlier try is answered now.
            message = nil
        default:
            break
        }
        return nil
    }
}
