import ArgumentParser
import MIGACore
import MIGAKit
import MIGATerminal
import MIGADesktop

extension Miga {
    /// `miga init SHELL`: the shell hook.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the shell hook that routes protected programs through MIGA.",
            discussion: """
                Add one line to your shell's start-up file:
                  bash  ~/.bashrc                  eval "$(miga init bash)"
                  zsh   ~/.zshrc                   eval "$(miga init zsh)"
                  fish  ~/.config/fish/config.fish miga init fish | source

                The hook puts MIGA's shim folder at the front of PATH, once, however often it \
                runs. With --functions it also defines a shell function for each protected \
                program, for setups that rearrange PATH after the hook.

                Example:
                  echo 'eval "$(miga init zsh)"' >> ~/.zshrc
                """)

        @Argument(help: "The shell.")
        var shell: ShellHook.Shell

        @Flag(help: "Also define a function for each protected program.")
        var functions = false

        func run() throws {
            let protection = try Miga.protection()
            let commands = functions ? protection.list().filter { !$0.kept }.map(\.settings.command) : []
            writeAll(1, ShellHook.script(for: shell, shimDirectory: protection.shims.path,
                                         gateway: protection.shims.gateway, functions: commands))
        }

        /// `miga init SHELL` as every new shell runs it, without the full
        /// parser (about 2 ms of reflection): nil when the words are anything else.
        static func quickHook(_ words: [String]) -> String? {
            guard words.count == 2, words[0] == "init", let shell = ShellHook.Shell(rawValue: words[1]),
                  let gateway = ShimDirectory.runningGateway else { return nil }
            return ShellHook.script(for: shell, shimDirectory: Miga.paths.shimDirectory,
                                    gateway: gateway, functions: [])
        }
    }
}

/// Shells, as `miga init` takes them: help and completions list them from the type.
extension ShellHook.Shell: ExpressibleByArgument {}
