import ArgumentParser
import MIGACore
import MIGAKit
import MIGATerminal

extension Miga {
    /// `miga instead …`: the person's own alternatives, offered by pauses of the kind `instead`.
    struct InsteadList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "instead",
            abstract: "Your own alternatives to opening a program, offered on the pause.",
            discussion: """
                A pause of the kind instead (pause_kinds = ["instead"] in the config, or \
                miga protect NAME --kinds instead) offers one of them; choosing it with [I] is an \
                Exit to Focus, recorded with the alternative. They live in ~/.config/miga/instead.txt, \
                one a line (at most 80 characters).

                Example:
                  miga instead add "read ten pages"
                  miga instead list
                  miga instead remove 1
                """,
            subcommands: [List.self, Add.self, Remove.self],
            defaultSubcommand: List.self)

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List your alternatives, numbered.",
                discussion: "Example:\n  miga instead list")

            func run() throws {
                let list = Instead(paths: Miga.paths)
                for (index, item) in list.items.enumerated() { print("\(index + 1). \(printable(item))") }
                if list.items.isEmpty { print("No alternatives yet. Try: miga instead add \"read ten pages\"") }
                for problem in list.problems { printError("miga: \(printable(problem))") }
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add an alternative.",
                discussion: "Example:\n  miga instead add \"go for a walk around the block\"")

            @Argument(help: "A few words: what you could do instead.")
            var text: String

            func run() throws {
                var list = Instead(paths: Miga.paths)
                let added = try list.add(text)
                print(added ? "Added: \(printable(text.trimmingWhitespace()))" : "Already among your alternatives.")
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove an alternative, by its words or its number in the list.",
                discussion: "Example:\n  miga instead remove 2")

            @Argument(help: "Its words, or its number in miga instead list.")
            var item: String

            func run() throws {
                var list = Instead(paths: Miga.paths)
                let removed = try list.remove(item)
                print("Removed: \(printable(removed))")
            }
        }
    }
}
