#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import MIGACore
import MIGAConfig

/// One way a protected program can be started, and whether it reaches the pause.
public struct Route: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case shellHook = "shell hook"
        case shim = "PATH shim"
        case menu
        case login
        case dbus = "D-Bus"
        case flatpak = "Flatpak ID"
    }

    public let kind: Kind
    /// Where: the start-up file, the shim, the entry, the service file.
    public let place: String
    public let reaches: Bool
    /// When it does not: what is wrong, as the end of a sentence.
    public let problem: String?
    /// When it does not: what puts it right.
    public let fix: String?

    init(_ kind: Kind, _ place: String, problem: String? = nil, fix: String? = nil) {
        self.kind = kind
        self.place = place
        reaches = problem == nil
        self.problem = problem
        self.fix = problem == nil ? nil : fix
    }
}

extension Route {
    /// An entry or service whose Exec line MIGA cannot write back as it
    /// runs: no override stands in front of it, and why.
    static func unrewritable(_ kind: Kind, _ place: String, source: String, problem: String, orHide: Bool = false) -> Route {
        Route(kind, place, problem: "cannot be rewritten: in the Exec line of \(source), \(problem)",
              fix: "mend the Exec line of \(source)\(orHide ? " (or hide the entry)" : ""), then: miga refresh")
    }
}

/// How many of a program's routes reach the pause.
public struct Coverage: Equatable, Sendable {
    public let program: String
    public let routes: [Route]

    public var reaching: Int { routes.filter(\.reaches).count }
    /// `discord: 6 of 6 routes reach the pause`.
    public var summary: String {
        "\(program): \(reaching) of \(routes.count) route\(routes.count == 1 ? "" : "s") reach\(routes.count == 1 && reaching == 1 ? "es" : "") the pause"
    }
}

extension Protection {
    /// Every route found for each protected program (kept rules are none),
    /// and whether it reaches the pause.
    public func coverage() -> [Coverage] {
        let config = protectedOnly(self.config)
        let hooks = shellHookRoutes()
        return config.programs.keys.sorted().map { command in
            Coverage(program: command, routes: routes(of: command, settings: config.programs[command], config: config, hooks: hooks))
        }
    }

    func routes(of command: String, settings: ProgramSettings?, config: Config, hooks: [Route]) -> [Route] {
        var routes: [Route] = []
        // Typing the name reaches the shim through a shell's hook: one route
        // per shell in use. Each other name of the program is typed too: its
        // shim, and (below) a name that has none yet.
        for name in settings?.commands ?? [command] where realProgram(name) != nil {
            if name == command { routes += hooks }
            routes.append(shimRoute(name))
        }
        if let settings {
            for name in uncoveredCommands(of: settings, config: config) {
                routes.append(Route(.shim, name, problem: "starts \(settings.displayName) too, and has no shim", fix: "miga refresh"))
            }
        }
        for place in [desktop, login] {
            for source in place.sources(for: command) {
                if let problem = DesktopOverrides.execProblem(in: source.entry) {
                    let kind: Route.Kind = place.place == .login ? .login : .menu
                    routes.append(.unrewritable(kind, place.userFolder + "/" + source.name, source: source.path, problem: problem,
                                                orHide: true))
                    continue
                }
                routes.append(overrideRoute(place, name: source.name, command: command))
            }
        }
        for source in services.sources(for: command, appIDs: appIDs(of: command, settings: settings)) {
            let target = services.userFolder + "/" + baseName(of: source.path)
            if let problem = DesktopExec.problem(in: source.exec, fieldCodes: false) {
                routes.append(.unrewritable(.dbus, target, source: source.path, problem: problem))
                continue
            }
            let written = DBusServices.read(target)
            let first = written.flatMap { DesktopExec.texts($0.exec, fieldCodes: false).first }
            let problem: String? = if written?.program != command { "has no service file of MIGA's in front of it" }
                else if let first, !desktop.isLiveGateway(first) { "starts \(first), not this miga" }
                else { nil }
            routes.append(Route(.dbus, target, problem: problem, fix: written?.program != command ? "miga refresh" : "miga doctor --fix"))
        }
        return routes + flatpakRoutes(of: settings)
    }

    /// The hook of each shell this person uses (their login shell, and each
    /// shell with a start-up file): typing a name in it is a way to start the
    /// program. Each reaches the pause when its start-up file runs `miga init`
    /// with a live miga. A shell only installed is no route (`idleShells`).
    func shellHookRoutes() -> [Route] {
        installedShells().filter(\.inUse).map(\.shell).map { shell in
            let file = shell.startupFile(environment: environment, paths: paths)
            let place = "\(shell.rawValue): \(file.shown)"
            let addLine = "add this line to \(file.shown):  \(hookLine(for: shell))"
            let text = ((try? readTextFile(file.path)) ?? nil) ?? ""
            guard let line = ShellHook.Shell.initLine(in: text) else {
                return Route(.shellHook, place, problem: "does not run miga init", fix: addLine)
            }
            if let missing = hookProblem(line) {
                return Route(.shellHook, place, problem: missing, fix: isHookLineOfMIGAs(line, in: file.path) ? "miga doctor --fix" : addLine)
            }
            return Route(.shellHook, place)
        }
    }

    /// What is wrong with the miga a hook line runs, if anything.
    func hookProblem(_ line: String) -> String? {
        guard let program = ShellHook.Shell.program(inInitLine: line) else { return nil }
        if program.contains("/") {
            return access(program, X_OK) == 0 ? nil : "runs \(program), which is gone"
        }
        return ProgramResolver(searchPath: environment["PATH"]).resolve(program) == nil ? "runs \(program), which is not on PATH" : nil
    }

    func shimRoute(_ command: String) -> Route {
        Route(.shim, shims.path + "/" + command, problem: shimProblem(command), fix: shimFix)
    }

    /// What puts a shim right: doctor's repair, once the folder is a folder.
    var shimFix: String {
        shims.folderProblem == nil ? "miga doctor --fix"
            : "move \(shims.path) aside (mv \(shims.path) \(shims.path).moved), then: miga doctor --fix"
    }

    /// What is wrong with the shim for `name`, if anything.
    func shimProblem(_ name: String) -> String? {
        let link = shims.path + "/" + name
        if let problem = shims.folderProblem { return "cannot be written: its folder \(shims.path) \(problem)" }
        guard let target = shims.target(of: link) else { return "is missing" }
        guard access(link, X_OK) == 0 else { return "points to \(target), which is gone" }
        return desktop.isLiveGateway(target) ? nil : "points to \(target), not this miga"
    }

    func overrideRoute(_ place: DesktopOverrides, name: String, command: String) -> Route {
        let kind: Route.Kind = place.place == .login ? .login : .menu
        let target = place.userFolder + "/" + name
        guard let override = Manifest(path: manifestPath).menuOverrides(for: command).first(where: { $0.path == target }) else {
            return Route(kind, target, problem: "has no override of MIGA's in front of it", fix: "miga refresh")
        }
        let state = place.state(of: override)
        return switch state {
        case .inPlace, .editedByHand(reachesGateway: true): Route(kind, target)
        case .editedByHand(reachesGateway: false), .disowned:
            Route(kind, target, problem: state.summary, fix: "delete or rename \(target), then: miga doctor --fix")
        default: Route(kind, target, problem: state.summary, fix: "miga doctor --fix")
        }
    }
}

extension Protection {
    /// Entries, login starts and service files that mention `command` but
    /// cannot be read (not UTF-8 text, not a desktop entry, not a regular
    /// file): left alone, and named by `miga doctor`, since a launcher may
    /// still start the program from one of them without a pause.
    public func unreadableRoutes(for command: String) -> [(path: String, reason: String)] {
        var found: [(path: String, reason: String)] = []
        let wanted = command.lowercased()
        for folder in watchedFolders {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            for name in names where name.hasSuffix(".desktop") || name.hasSuffix(".service") {
                let path = folder + "/" + name
                let text: String
                do {
                    guard let read = try readTextFile(path) else { continue }
                    text = read
                } catch {
                    if name.lowercased().contains(wanted) { found.append((path, "\(error)")) }
                    continue
                }
                guard text.lowercased().contains(wanted) || name.lowercased().contains(wanted) else { continue }
                if name.hasSuffix(".service") {
                    if DBusServices.parse(text, path: path) == nil { found.append((path, "it has no [D-BUS Service] Name and Exec")) }
                    continue
                }
                do {
                    _ = try DesktopEntry(text: text)
                } catch {
                    found.append((path, "\(error)"))
                }
            }
        }
        return found
    }
}
