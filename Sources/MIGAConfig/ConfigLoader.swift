import MIGACore
import TOMLKit

/// Something wrong in the config file, with where it is.
public struct ConfigProblem: Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let column: Int?
    /// What is wrong.
    public let message: String
    /// What MIGA does about it meanwhile ("using the default"), said after the cause.
    public let consequence: String?

    public init(file: String, line: Int? = nil, column: Int? = nil, message: String, consequence: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.consequence = consequence
        // One line, always: a message quoting the file's own line break would
        // start what looks like a problem of its own.
        self.message = message.replacingOccurrences(of: "\r\n", with: "⏎").replacingOccurrences(of: "\n", with: "⏎")
            .replacingOccurrences(of: "\r", with: "⏎")
    }

    /// The file, and the line and column when they are known.
    public var place: String {
        var place = file
        if let line { place += ":\(line)" }
        if let line, line > 0, let column { place += ":\(column)" }
        return place
    }

    /// Where, and what is wrong, without what MIGA does about it.
    public var cause: String { "\(place): \(message)" }

    /// For a screen (the hub's notice): what is wrong first, then what MIGA
    /// does about it, then where, so a narrow window shows the cause and
    /// the path gives way.
    public var notice: String { message + (consequence.map { "; " + $0 } ?? "") + " (\(place))" }

    public var description: String { cause + (consequence.map { "; " + $0 } ?? "") }
}

/// The config as read, and everything that could not be used.
public struct LoadedConfig: Sendable {
    public var config: Config
    public var problems: [ConfigProblem]
    /// The file is not valid TOML: everything in it was set aside for the defaults.
    public var syntaxError: ConfigProblem?
    /// The file is there but none of it could be used (not valid TOML, or
    /// not readable): the defaults stand in for all of it, and its programs
    /// are unknown, never none.
    public var unreadable: ConfigProblem?

    public init(config: Config = Config(), problems: [ConfigProblem] = [], syntaxError: ConfigProblem? = nil,
                unreadable: ConfigProblem? = nil) {
        self.config = config
        self.problems = problems
        self.syntaxError = syntaxError
        self.unreadable = unreadable ?? syntaxError
    }
}

/// Reads `config.toml`. Never fails and never writes: a missing file means the
/// defaults; a broken file means the defaults and a problem naming the line and
/// column; a bad value means that value's default and a problem naming its key.
public enum ConfigLoader {
    /// The most of a config MIGA reads: a real one is a few kilobytes, and
    /// the parser's time grows with the text at every launch.
    static let sizeLimit = 256 << 10
    /// The settings a config may hold, at the top and in a program's table.
    static let topLevelKeys = ["pause", "interests", "notifications", "reduced_motion", "pause_kinds", "rotate", "weekly_review",
                               "programs", "sites"]
    static let programKeys = ProgramSetting.all.map(\.key)

    public static func load(from path: String) -> LoadedConfig {
        do {
            guard let text = try readTextFile(path, limit: Self.sizeLimit) else { return LoadedConfig() }
            return parse(text, file: path)
        } catch {
            let problem = ConfigProblem(file: path, message: "cannot be read (\(error))", consequence: "using the defaults")
            return LoadedConfig(problems: [problem], unreadable: problem)
        }
    }

    public static func parse(_ text: String, file: String) -> LoadedConfig {
        let toml = TOMLText(text)
        if let (line, column, message) = toml.hazard {
            let problem = ConfigProblem(file: file, line: line, column: column, message: message,
                                        consequence: "using the defaults until it is fixed")
            return LoadedConfig(problems: [problem], syntaxError: problem)
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let position = error.source.begin
            let problem = ConfigProblem(file: file, line: position.line, column: position.column, message: error.description,
                                        consequence: "using the defaults until it is fixed")
            return LoadedConfig(problems: [problem], syntaxError: problem)
        } catch {
            let problem = ConfigProblem(file: file, message: "\(error)", consequence: "using the defaults")
            return LoadedConfig(problems: [problem], unreadable: problem)
        }
        var reader = Reader(file: file, locator: KeyLocator(text: text, toml: toml))
        let config = reader.read(table)
        // TOMLKit hands keys over sorted, not in file order; report top to bottom.
        let problems = reader.problems.sorted { ($0.line ?? .max, $0.column ?? 0) < ($1.line ?? .max, $1.column ?? 0) }
        return LoadedConfig(config: config, problems: problems)
    }


    /// Walks the parsed table, keeping good values and reporting the others.
    private struct Reader {
        let file: String
        let locator: KeyLocator
        var problems: [ConfigProblem] = []


        mutating func read(_ table: TOMLTable) -> Config {
            var config = Config()
            for key in table.keys {
                guard let value = table[key] else { continue }
                switch key {
                case "pause":
                    take(ProgramSetting.seconds(value, in: Config.pauseRange) { config.pause = $0 }, at: [key])
                case "interests":
                    if let tags = strings(value, at: [key]) { config.interests = tags }
                case "notifications":
                    take(ProgramSetting.flag(value) { config.notifications = $0 }, at: [key])
                case "reduced_motion":
                    take(ProgramSetting.flag(value) { config.reducedMotion = $0 }, at: [key])
                case "pause_kinds":
                    take(ProgramSetting.kinds(value) { config.pauseKinds = $0 }, at: [key])
                case "rotate":
                    take(ProgramSetting.choice(value, otherwise: Rotation.adaptive) { config.rotate = $0 }, at: [key])
                case "weekly_review":
                    take(ProgramSetting.flag(value) { config.weeklyReview = $0 }, at: [key])
                case "programs":
                    guard let programs = value.table else {
                        report(at: [key], "`programs` must be a table of programs, like [programs.firefox]")
                        continue
                    }
                    for command in programs.keys {
                        guard let entry = programs[command] else { continue }
                        if let settings = program(command, entry) { config.programs[command] = settings }
                    }
                case "sites":
                    guard let sites = value.table else {
                        report(at: [key], "`sites` must be a table of websites, like [sites.\"youtube.com\"]")
                        continue
                    }
                    config.sites = self.sites(sites)
                default:
                    unknown(key, at: [key], known: ConfigLoader.topLevelKeys)
                }
            }
            return config
        }

        mutating func program(_ command: String, _ value: TOMLValueConvertible) -> ProgramSettings? {
            let path = ["programs", command]
            guard let table = value.table else {
                report(at: path, "`programs.\(command)` must be a table of settings")
                return nil
            }
            guard !command.isEmpty, !command.contains("/") else {
                report(at: path, "`\(command)` is not a command name (use the name, not a path)")
                return nil
            }
            return settings(ProgramSettings(command: command), from: table, at: path)
        }

        /// The websites of `[sites]`, each by its plain name: a key written
        /// loosely (`https://www.YouTube.com/`) is read as what it names; a
        /// site written twice is read once, from its plainly written table.
        mutating func sites(_ tables: TOMLTable) -> [String: ProgramSettings] {
            var found: [(key: String, site: Site)] = []
            for key in tables.keys {
                do {
                    found.append((key, try Site(key)))
                } catch {
                    report(at: ["sites", key], error.message)
                }
            }
            var sites: [String: ProgramSettings] = [:]
            let plainFirst = found.sorted { (Self.loose($0), $0.key) < (Self.loose($1), $1.key) }
            for (key, site) in plainFirst {
                let path = ["sites", key]
                guard let table = tables[key]?.table else {
                    report(at: path, "`sites.\(key)` must be a table of settings")
                    continue
                }
                guard sites[site.name] == nil else {
                    report(at: path, "`sites.\(key)` is \(site.name), which is set twice (ignored)")
                    continue
                }
                sites[site.name] = settings(ProgramSettings(.site(site)), from: table, at: path)
            }
            return sites
        }

        /// 1 for a site's key written other than as its plain name, else 0.
        private static func loose(_ entry: (key: String, site: Site)) -> Int { entry.key == entry.site.name ? 0 : 1 }

        /// `settings` with the values of `table` taken in, each checked; a
        /// site's table takes no setting that only a program has.
        mutating func settings(_ settings: ProgramSettings, from table: TOMLTable, at path: [String]) -> ProgramSettings {
            let site = settings.protected.site != nil
            var settings = settings
            for key in table.keys {
                guard let value = table[key] else { continue }
                let at = path + [key]
                guard let setting = ProgramSetting.named(key) else {
                    unknown(key, at: at, known: ConfigLoader.programKeys)
                    continue
                }
                if site && setting.programsOnly {
                    report(at: at, "`\(dotted(at))` is not a setting of a site (ignored)")
                    continue
                }
                take(setting.read(value, &settings), at: at)
            }
            return settings
        }

        /// Reports a value that was not taken, by its key.
        mutating func take(_ problem: ProgramSetting.Problem?, at path: [String]) {
            guard let problem else { return }
            report(at: path, "`\(dotted(path))`" + (problem.text.hasPrefix(":") ? "" : " ") + problem.text, then: problem.consequence)
        }

        mutating func strings(_ value: TOMLValueConvertible, at path: [String]) -> [String]? {
            if let array = value.array {
                let texts = array.compactMap { $0.string }
                if texts.count == array.count { return texts }
            }
            report(at: path, "`\(dotted(path))` must be a list of strings, like [\"Stoicism\", \"Nature\"]", then: "using all tags")
            return nil
        }

        mutating func unknown(_ key: String, at path: [String], known: [String]) {
            var message = "unknown setting `\(dotted(path))` (ignored)"
            if let guess = likelyMeant(key, among: known) {
                message = "unknown setting `\(dotted(path))` (ignored); did you mean `\(guess)`?"
            }
            report(at: path, message)
        }

        mutating func report(at path: [String], _ message: String, then consequence: String? = nil) {
            let place = locator.location(of: path)
            problems.append(ConfigProblem(file: file, line: place?.line, column: place?.column, message: message,
                                          consequence: consequence))
        }

        func dotted(_ path: [String]) -> String { path.joined(separator: ".") }
    }
}

/// Finds the line and column where a dotted key is set. TOMLKit reports
/// positions only for syntax errors, so values with the wrong type are located
/// by this light scan of `[table]` headers and `key =` lines.
struct KeyLocator {
    private var places: [[String]: (line: Int, column: Int)] = [:]

    init(text: String, toml: TOMLText) {
        // Lines cut at scalars, as TOMLText counts them: in "\r\n" files the
        // Character is "\r\n", never "\n".
        let rawLines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        var table: [String] = []
        for (index, kind) in toml.lines.enumerated() {
            let indent = index < rawLines.count ? rawLines[index].prefix { $0 == " " || $0 == "\t" }.count : 0
            switch kind {
            case .header(let path), .arrayHeader(let path):
                table = path
                record(path, index + 1, indent + 2)
            case .keyValue(let path):
                record(table + path, index + 1, indent + 1)
            case .blank, .comment, .other:
                break
            }
        }
    }

    func location(of path: [String]) -> (line: Int, column: Int)? {
        places[path]
    }

    private mutating func record(_ path: [String], _ line: Int, _ column: Int) {
        for length in 1...max(1, path.count) where places[Array(path.prefix(length))] == nil {
            places[Array(path.prefix(length))] = (line, column)
        }
    }
}
