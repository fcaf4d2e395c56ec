import ArgumentParser
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAConfig

extension Miga {
    /// `miga config [edit]`.
    struct ConfigFile: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "config",
            abstract: "Show the settings in effect and where they live; edit them safely.",
            discussion: """
                `miga config` prints every setting as MIGA reads it (defaults filled in) and any \
                problem with the file. `miga config edit` opens a copy in $VISUAL or $EDITOR and \
                puts it in place only when it reads cleanly.

                Example:
                  miga config
                  EDITOR=nano miga config edit
                """,
            subcommands: [Show.self, Edit.self], defaultSubcommand: Show.self)

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "The settings in effect.",
                discussion: "As TOML, every default filled in; problems with the file on standard error.\n\nExample:\n  miga config show")

            func run() throws {
                let path = Miga.paths.configFile
                let loaded = ConfigLoader.load(from: path)
                print(ConfigSummary.text(loaded.config, path: path))
                for problem in loaded.problems { printError("miga: \(problem)") }
                if !loaded.problems.isEmpty { throw ExitCode(ExitStatus.failure) }
            }
        }

        struct Edit: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Edit the settings in your editor, checked before they take effect.",
                discussion: "A copy opens in $VISUAL or $EDITOR; it replaces the file only when it reads cleanly.\n\nExample:\n  miga config edit")

            func run() throws {
                let environment = processEnvironment()
                let path = XDGPaths(environment: environment).configFile
                print(try EditorSession.edit(path: path, environment: environment))
            }
        }
    }
}
