import MIGACore

/// The lines a shell evaluates at start-up so that typing a protected
/// command's name reaches its shim: `eval "$(miga init zsh)"`, or in fish
/// `miga init fish | source`.
///
/// Every new shell pays for this, so it is a few lines of the shell's own
/// syntax and no subprocess. Evaluating it twice changes nothing: the shim
/// folder is put at the front of PATH only when it is not in PATH already.
public enum ShellHook {
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The hook for `shell`. With `functions`, each protected command also
    /// gets a shell function that calls the gateway, for people whose PATH is
    /// rearranged after the hook runs. `gateway` is the absolute path of the
    /// miga binary, whose folder the hook also adds. (One text rather than lines joined:
    /// every new shell waits for it, and the first use of a generic
    /// algorithm costs more than the text.)
    public static func script(for shell: Shell, shimDirectory: String, gateway: String, functions commands: [String] = []) -> String {
        var text: String
        switch shell {
        case .bash, .zsh:
            // The second case puts miga itself in PATH, by name, when the hook
            // line had to name it by its path.
            let shims = posixQuoted(shimDirectory), own = posixQuoted(folderName(of: gateway))
            text = """
                # MIGA: protected programs start through the mindful gateway (miga init \(shell.rawValue)).
                case ":${PATH}:" in
                  *:\(shims):*) ;;
                  *) export PATH=\(shims)"${PATH:+:${PATH}}" ;;
                esac
                case ":${PATH}:" in
                  *:\(own):*) ;;
                  *) export PATH="${PATH:+${PATH}:}"\(own) ;;
                esac

                """ + rehash(for: shell, shimDirectory: shimDirectory)
            for command in commands where isFunctionName(command) {
                text += "\(command)() { \(posixQuoted(gateway)) gate \(posixQuoted(command)) -- \"$@\"; }\n"
            }
        case .fish:
            let shims = fishQuoted(shimDirectory), own = fishQuoted(folderName(of: gateway))
            text = """
                # MIGA: protected programs start through the mindful gateway (miga init fish).
                if not contains -- \(shims) $PATH
                    set -gx PATH \(shims) $PATH
                end
                if not contains -- \(own) $PATH
                    set -gx PATH $PATH \(own)
                end

                """
            for command in commands where isFunctionName(command) {
                text += "function \(command); \(fishQuoted(gateway)) gate \(fishQuoted(command)) -- $argv; end\n"
            }
        }
        return text
    }

    /// bash and zsh remember where they found a command: after `protect` a
    /// name typed in an open shell would still run the program directly, and
    /// after `unprotect` the shell would look for a shim that is gone. Before
    /// each prompt the shim folder is read (a glob, no subprocess) and, when
    /// its names changed, the shell forgets what it remembered. The shim
    /// folder is also put first again when something moved it: a login
    /// shell's profile (Debian's ~/.profile) prepends ~/bin and ~/.local/bin
    /// after ~/.bashrc ran the hook, and a program there would walk around the
    /// pause. Registered once, however often the hook is evaluated.
    static func rehash(for shell: Shell, shimDirectory: String) -> String {
        let folder = posixQuoted(shimDirectory)
        switch shell {
        case .bash:
            return """
                _miga_rehash() {
                  if [[ "${PATH%%:*}" != \(folder) ]]; then PATH=\(folder):"${PATH}"; _miga_shims=; fi
                  local shims=(\(folder)/*)
                  if [[ "${shims[*]}" != "${_miga_shims-}" ]]; then _miga_shims="${shims[*]}"; hash -r; fi
                }
                if [[ ";${PROMPT_COMMAND:-};" != *";_miga_rehash;"* ]]; then
                  PROMPT_COMMAND="_miga_rehash${PROMPT_COMMAND:+;${PROMPT_COMMAND}}"
                fi

                """
        case .zsh:
            return """
                _miga_rehash() {
                  if [[ "${PATH%%:*}" != \(folder) ]]; then PATH=\(folder):"${PATH}"; _miga_shims=; fi
                  local -a shims; shims=(\(folder)/*(N))
                  if [[ "${shims[*]}" != "${_miga_shims-}" ]]; then _miga_shims="${shims[*]}"; rehash; fi
                }
                typeset -ga precmd_functions
                (( ${precmd_functions[(I)_miga_rehash]} )) || precmd_functions+=(_miga_rehash)

                """
        case .fish:
            // fish looks a command up in PATH each time it runs it.
            return ""
        }
    }

    /// A word in single quotes for sh, bash and zsh: nothing inside is special
    /// except the quote itself, written '\''.
    static func posixQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A word in single quotes for fish, where \ and ' are escaped with a backslash.
    static func fishQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// Names every supported shell accepts for a function.
    static func isFunctionName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-+".contains($0)) }
            && !name.hasPrefix("-")
    }
}

extension ShellHook.Shell {
    /// The shell a login shell path names (`$SHELL`: `/usr/bin/zsh`), if MIGA has a hook for it.
    public init?(loginShell: String?) {
        guard let name = loginShell.map(baseName(of:)) else { return nil }
        self.init(rawValue: name)
    }

    /// The start-up file an interactive shell of this kind reads, where the
    /// hook line goes (zsh honours `$ZDOTDIR`), and how a person writes it.
    public func startupFile(environment: [String: String], paths: XDGPaths) -> (path: String, shown: String) {
        let home = environment["HOME"] ?? ""
        let path = switch self {
        case .bash: home + "/.bashrc"
        case .zsh: (environment["ZDOTDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? home) + "/.zshrc"
        case .fish: paths.configHome + "/fish/config.fish"
        }
        let shown = !home.isEmpty && path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
        return (path, shown)
    }

    /// The line of a start-up file that runs `miga init`, if there is one.
    public static func initLine(in text: String) -> String? {
        text.lines().map(String.init).first { line in
            let trimmed = line.trimmingWhitespace()
            return !trimmed.hasPrefix("#") && program(inInitLine: trimmed) != nil
        }
    }

    /// The miga a hook line runs (`miga`, or a path), when the line runs `miga init`.
    public static func program(inInitLine line: String) -> String? {
        let words = line.replacingOccurrences(of: "\"$(", with: " ").replacingOccurrences(of: "'", with: " ")
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let index = words.firstIndex(of: "init"), index > 0 else { return nil }
        let program = words[index - 1]
        return baseName(of: program).hasPrefix("miga") ? program : nil
    }

    /// The line that runs the hook at start-up, with `miga` by name.
    public var hookLine: String { hookLine(miga: "miga") }

    /// The line that runs the hook at start-up with `miga`, a name or a path
    /// (quoted when it needs it), as starship and zoxide write theirs for a
    /// binary outside PATH.
    public func hookLine(miga: String) -> String {
        let plain = miga.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+".contains($0)) }
        switch self {
        case .bash, .zsh: return "eval \"$(\(plain ? miga : ShellHook.posixQuoted(miga)) init \(rawValue))\""
        case .fish: return "\(plain ? miga : ShellHook.fishQuoted(miga)) init fish | source"
        }
    }
}
