#if canImport(Glibc)
import Glibc
#endif
import MIGACore

/// `miga config edit`: the person edits a copy in their editor; it replaces
/// the file only when it reads cleanly, so a slip never breaks the pause.
public enum EditorSession {
    /// What a new config offers to edit: every setting, commented out, with
    /// its default or an example (a program's settings from `ProgramSetting`).
    static let template: String = {
        var lines = [
            "# MIGA settings. Every line is optional; these are the defaults.",
            "# pause = 90              # seconds of a pause, 1-3600",
            "# interests = []          # quote tags, e.g. [\"Stoicism\", \"Nature\"]; empty means all",
            "# notifications = true",
            "# reduced_motion = false",
            "# pause_kinds = [\"breathe\"]  # " + PauseKind.names(glossing: [.type: "a line typed back", .instead: "miga instead add"]),
            "# rotate = \"adaptive\"     # learns which kind ends in an exit for you; or \"cycle\", or \"off\"",
            "# weekly_review = true    # a notification once a week with the week in one line",
            "",
            "# [programs.firefox]      # added by `miga protect firefox`",
        ]
        for setting in ProgramSetting.all {
            let line = "# \(setting.key) = \(setting.example)"
            lines.append(line.padded(toLength: max(line.count + 1, 29)) + "# " + setting.comment)
        }
        return lines.joined(separator: "\n") + "\n\n"
    }()

    /// Returns what to tell the person when the file was saved or left
    /// unchanged; throws what went wrong otherwise.
    public static func edit(path: String, environment: [String: String],
                            askAgain: () -> Bool = askOnTerminal,
                            report: (String) -> Void = printError) throws(MigaError) -> String {
        guard let editor = editorCommand(environment) else {
            throw MigaError("no editor found; set $VISUAL or $EDITOR")
        }
        let original = ((try? readTextFile(path)) ?? nil)
        // A hidden copy beside the file, so the rename that saves it stays on one file system.
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let copyPath = folder + "/.config.toml.edit-\(getpid())"
        do {
            try atomicWrite(original ?? template, to: copyPath, mode: 0o600)
        } catch {
            throw MigaError("cannot make a copy to edit: \(error)")
        }
        defer { unlink(copyPath) }
        while true {
            let status = runEditor(editor + [copyPath])
            guard status == 0 else { throw MigaError("the editor (\(editor.joined(separator: " "))) did not finish cleanly; nothing was changed") }
            let text = ((try? readTextFile(copyPath)) ?? nil) ?? ""
            if text == (original ?? template) { return "No changes." }
            let problems = ConfigLoader.parse(text, file: path).problems
            if problems.isEmpty {
                do {
                    try atomicWrite(text, to: path, mode: 0o600)
                } catch {
                    throw MigaError("cannot save \(path): \(error)")
                }
                return "Saved \(path)."
            }
            // The edit is refused, the file untouched: what MIGA would do with a broken file does not apply.
            report("miga: your edit was not saved; \(path) is as it was:")
            for problem in problems { report("  \(problem.cause)") }
            guard askAgain() else { throw MigaError("\(path) was left as it was") }
        }
    }

    /// `$VISUAL`, `$EDITOR`, Debian's `editor`, or `vi`, split into words
    /// (an editor may be set with its options, like `code -w`).
    static func editorCommand(_ environment: [String: String]) -> [String]? {
        for candidate in [environment["VISUAL"], environment["EDITOR"]] {
            if let words = candidate?.split(separator: " ").map(String.init), !words.isEmpty { return words }
        }
        let resolver = ProgramResolver(searchPath: environment["PATH"])
        return ["editor", "vi", "nano"].first { resolver.resolve($0) != nil }.map { [$0] }
    }

    /// Runs the editor on this terminal and waits for it; its status.
    static func runEditor(_ words: [String]) -> Int32 {
        // A bare name only from PATH: never a same-named file in the current folder.
        guard let resolved = words[0].contains("/") ? words[0]
                : ProgramResolver(searchPath: processEnvironment()["PATH"]).resolve(words[0]) else { return -1 }
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, resolved, nil, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
    }

    /// "Edit again?" on the terminal: yes unless the answer starts with n.
    public static func askOnTerminal() -> Bool {
        guard isatty(0) == 1 else { return false }
        printError("Edit again? [Y/n] ")
        guard let answer = readLine() else { return false }
        return !answer.lowercased().hasPrefix("n")
    }
}
