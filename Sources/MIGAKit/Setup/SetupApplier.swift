#if canImport(Glibc)
import Glibc
#endif
import MIGAConfig
import MIGADesktop

/// Puts setup's answers into effect, at the end and only then: interests and
/// pause length in the config, the chosen programs protected (and those
/// unchosen no longer), the shell hook line added when it was wanted.
public struct SetupApplier {
    public let protection: Protection

    public init(protection: Protection) {
        self.protection = protection
    }

    /// What was done, a line each, and what could not be. The programs (and
    /// sites, as `site:NAME`) in `keeping` stay protected though unticked (their switch-off pause ended
    /// in Exit to Focus). A value that did not change is not written again,
    /// so the config keeps its lines, comments and all.
    public func apply(_ answers: SetupAnswers, keeping: Set<String> = []) -> (done: [String], problems: [String]) {
        var done: [String] = []
        var problems: [String] = []
        let editor = ConfigEditor(path: protection.paths.configFile)
        let before = protection.config
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
                problems.append(error.line)
            }
        }
        for program in answers.programs {
            do {
                // A program protected already keeps the name it has; a new one takes the catalog's.
                let name = before.programs[program.command] != nil || program.name == program.command ? nil : program.name
                var changes = ProgramChanges()
                changes.name = name
                try protection.protect(program.command, changes)
                done.append("Protected \(program.name).")
            } catch {
                problems.append(error.line)
            }
        }
        let sites = applySites(answers.sites, keeping: keeping, before: before)
        (done, problems) = (done + sites.done, problems + sites.problems)
        if answers.addHook, let hook = protection.hookOffer(), !hook.present {
            do {
                try protection.addHookLine(hook)
                done.append("Added to \(hook.shownFile): \(hook.line)")
            } catch {
                problems.append(error.line)
            }
        }
        if answers.equipBrowsers { equipBrowsers(done: &done, problems: &problems) }
        // Where systemd runs for the person, entries installed later are covered as they appear.
        if !answers.programs.isEmpty, SystemdUnits.userManagerRuns(environment: protection.environment),
           access(protection.units.pathUnitFile, F_OK) != 0 {
            do {
                done.append(try protection.installUnits())
            } catch {
                problems.append(error.line)
            }
        }
        return (done, problems)
    }
}
