/// Puts setup's answers into effect, at the end and only then: interests and
/// pause length in the config, the chosen programs protected (and those
/// unchosen no longer), the shell hook line added when it was wanted.
public struct SetupApplier {
    public let protection: Protection

    public init(protection: Protection) {
        self.protection = protection
    }

    /// What was done, a line each, and what could not be. The programs in
    /// `keeping` stay protected though unticked (their switch-off pause ended
    /// in Exit to Focus). A value that did not change is not written again,
    /// so the config keeps its lines, comments and all.
    public func apply(_ answers: SetupAnswers, keeping: Set<String> = []) -> (done: [String], problems: [String]) {
        var done: [String] = []
        var problems: [String] = []
        let editor = ConfigEditor(path: protection.paths.configFile)
        let before = ConfigLoader.load(from: protection.paths.configFile).config
        do {
            if answers.pause != before.pause { try editor.setTopLevel("pause", to: .integer(answers.pause)) }
            if answers.interests != before.interests { try editor.setTopLevel("interests", to: .strings(answers.interests)) }
        } catch {
            return ([], ["miga: cannot change \(protection.paths.configFile): \(error)"])
        }
        let chosen = Set(answers.programs.map(\.command)).union(keeping)
        for command in before.programs.keys.sorted() where !chosen.contains(command) {
            do {
                try protection.unprotect(command)
                done.append("No longer protected: \(command).")
            } catch {
                problems.append(error.message)
            }
        }
        for program in answers.programs {
            do {
                // A program protected already keeps the name it has; a new one takes the catalog's.
                let name = before.programs[program.command] != nil || program.name == program.command ? nil : program.name
                try protection.protect(program.command, ProgramChanges(name: name))
                done.append("Protected \(program.name).")
            } catch {
                problems.append(error.message)
            }
        }
        if answers.addHook, let hook = protection.hookOffer(), !hook.present {
            do {
                try protection.addHookLine(hook)
                done.append("Added to \(hook.shownFile): \(hook.line)")
            } catch {
                problems.append(error.message)
            }
        }
        return (done, problems)
    }
}

extension Protection {
    /// The hook line for the shell in `$SHELL`, and whether its start-up file runs it already.
    public func hookOffer() -> HookOffer? {
        let home = environment["HOME"] ?? ""
        let (shown, line) = hookLine()
        let file: String
        switch environment["SHELL"]?.split(separator: "/").last {
        case "zsh": file = (environment["ZDOTDIR"] ?? home) + "/.zshrc"
        case "fish": file = paths.configHome + "/fish/config.fish"
        case "bash", nil: file = home + "/.bashrc"
        default: return nil
        }
        let present = (((try? readTextFile(file)) ?? nil) ?? "").contains("miga init")
        return HookOffer(shownFile: shown, file: file, line: line, present: present)
    }

    /// Appends the hook line to the shell's start-up file, remembering it for `uninstall`.
    public func addHookLine(_ hook: HookOffer) throws(ProtectionError) {
        let existing = ((try? readTextFile(hook.file)) ?? nil) ?? ""
        let text = existing + (existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n") + hook.line + "\n"
        do {
            try atomicWrite(text, to: hook.file, mode: 0o644)
            var manifest = Manifest(path: manifestPath)
            manifest.record(.hookLine(file: hook.file, line: hook.line))
            try manifest.save()
        } catch {
            throw ProtectionError(message: "miga: cannot add the hook line to \(hook.file): \(error)", status: ExitStatus.failure)
        }
    }

    /// Setup's list: every program already protected (chosen), the catalog's
    /// installed programs, then the rest of the catalog, marked not installed.
    public func setupPrograms() -> [SetupProgram] {
        let protected = ConfigLoader.load(from: paths.configFile).config.programs
        var list = ProgramCatalog.programs.map { entry -> SetupProgram in
            let installed = entry.commands.first { isInstalled($0) }
            let command = installed ?? entry.commands[0]
            let chosen = entry.commands.first { protected[$0] != nil }
            return SetupProgram(name: chosen.flatMap { protected[$0]?.displayName } ?? entry.name, command: chosen ?? command,
                                glyph: entry.glyph,
                                installed: installed != nil || chosen != nil, selected: chosen != nil)
        }
        for (command, settings) in protected.sorted(by: { $0.key < $1.key }) where !list.contains(where: { $0.command == command }) {
            list.append(SetupProgram(name: settings.displayName, command: command, glyph: ProgramCatalog.glyph(for: command),
                                     installed: true, selected: true))
        }
        // What can be chosen comes first, so it is never scrolled out of sight.
        return list.filter(\.selected) + list.filter { $0.installed && !$0.selected } + list.filter { !$0.installed }
    }

    /// Found on PATH (past the shims) or in the application menu.
    public func isInstalled(_ command: String) -> Bool {
        realProgram(command) != nil || !desktop.sources(for: command).isEmpty
    }

    /// Why `command` cannot be protected, or nil.
    public func problem(protecting command: String) -> String? {
        do {
            try Self.checkName(command)
        } catch {
            return error.message.replacingOccurrences(of: "miga: ", with: "")
        }
        return isInstalled(command) ? nil : "\(command) is not installed here."
    }
}
