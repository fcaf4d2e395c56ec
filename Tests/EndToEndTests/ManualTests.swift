import Foundation
import Testing

/// The manual (docs/miga.1), as swift-argument-parser's generator writes it
/// from the binary's own description of its command line.
struct Manual {
    /// One command or option of `--experimental-dump-help`, the generator's input.
    struct Command: Decodable {
        let commandName: String
        let aliases: [String]?
        let abstract: String?
        let discussion: String?
        let arguments: [Argument]?
        let subcommands: [Command]?
    }

    struct Argument: Decodable {
        struct Name: Decodable { let kind: String, name: String }
        let kind: String
        let shouldDisplay: Bool
        let names: [Name]?
        let valueName: String?
        let isRepeating: Bool
        let abstract: String?
        let discussion: String?
        let allValueStrings: [String]?
        let allValueDescriptions: [String: String]?
    }

    struct Dump: Decodable { let command: Command }

    /// The manual's lines.
    let lines: [String]
    /// The command line, as `miga --experimental-dump-help` describes it.
    let root: Command

    init() throws {
        let path = DocumentationTests.root.appendingPathComponent("docs/miga.1").path
        // As a reader sees it: mdoc's escapes (a backslash, a line's leading dot or blank, a quote) undone.
        lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            $0.replacingOccurrences(of: #"\e"#, with: #"\"#).replacingOccurrences(of: #"\&"#, with: "")
                .replacingOccurrences(of: #"\(dq"#, with: "\"")
        }
        let dump = try run(migaBinary, ["--experimental-dump-help"], environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"])
        #expect(dump.status == 0, "\(dump.error)")
        root = try JSONDecoder().decode(Dump.self, from: Data(dump.output.utf8)).command
    }

    /// The manual's list items for `command`'s options and subcommands, in the generator's order.
    func items(of command: Command) -> [String] {
        var items: [String] = []
        for argument in command.arguments ?? [] where argument.shouldDisplay {
            let value = "Ar " + quotedIfBlank((argument.valueName ?? "") + (argument.isRepeating ? "..." : ""))
            let names = (argument.names ?? []).filter { $0.kind == "short" } + (argument.names ?? []).filter { $0.kind != "short" }
            let flags = "Fl " + names.map { $0.kind == "long" ? "-" + $0.name : $0.name }.joined(separator: " , ")
            switch argument.kind {
            case "positional": items.append(".It " + value)
            case "option": items.append(".It \(flags) \(value)")
            default: items.append(".It " + flags)
            }
            if argument.allValueDescriptions != nil {
                items += (argument.allValueStrings ?? []).map { ".It Ar " + quotedIfBlank($0) }
            }
        }
        for subcommand in command.subcommands ?? [] {
            items.append(".It Em " + quotedIfBlank(([subcommand.commandName] + (subcommand.aliases ?? [])).joined(separator: ", ")))
            items += self.items(of: subcommand)
        }
        return items
    }

    func quotedIfBlank(_ text: String) -> String { text.contains(" ") || text.isEmpty ? "\"\(text)\"" : text }

    /// Every line of help `command` and its options and subcommands give, as the manual keeps it (ASCII only).
    func texts(of command: Command) -> [String] {
        var texts = [command.abstract, command.discussion]
        for argument in command.arguments ?? [] where argument.shouldDisplay {
            texts += [argument.abstract, argument.discussion] + (argument.allValueDescriptions ?? [:]).values.map { $0 }
        }
        return texts.compactMap { $0 }.flatMap { $0.split(separator: "\n").map { String($0.unicodeScalars.filter(\.isASCII)) } }
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            + (command.subcommands ?? []).flatMap(texts(of:))
    }
}

/// The manual is written by `make man` and committed, so that installing
/// builds MIGA once; these hold it to the binary's help: every command,
/// option, argument and listed value, in order, and every line of their
/// help. A change to the command line without `make man` fails here.
extension DocumentationTests {
    @Test func every_command_option_and_value_is_in_the_manual_in_order() throws {
        let manual = try Manual()
        let listed = manual.lines.filter { $0.hasPrefix(".It ") }
        let expected = manual.items(of: manual.root)
        let same = listed == expected
        let common = min(listed.count, expected.count)
        let first = (0..<common).first { listed[$0] != expected[$0] } ?? common
        #expect(same, """
            docs/miga.1 is not the command line's (run make man): from item \(first + 1) of \(expected.count), \
            the manual lists \(listed.dropFirst(first).prefix(3)), --help \(expected.dropFirst(first).prefix(3))
            """)
    }

    @Test func every_line_of_help_is_in_the_manual() throws {
        let manual = try Manual()
        let shown = Set(manual.lines.map { $0.trimmingCharacters(in: .whitespaces) })
        let missing = manual.texts(of: manual.root).filter { text in
            // The root's abstract is the NAME section's `.Nd "…"`.
            !shown.contains(text.trimmingCharacters(in: .whitespaces)) && !shown.contains(".Nd \"\(text)\"")
        }
        #expect(missing.isEmpty, "docs/miga.1 lacks these lines of --help (run make man): \(missing)")
    }
}
