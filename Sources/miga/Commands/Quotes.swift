import ArgumentParser
import MIGACore
import MIGAKit
import MIGATerminal

extension Miga {
    /// `miga quotes …`: the texts of the pause.
    struct Quotes: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The texts shown in a pause: list them, add your own, import fortune files.",
            discussion: """
                MIGA's own quotes are built in; yours live in ~/.config/miga/quotes as text files, \
                one quote per line: id | tags | source | text. The pause draws from both, honouring \
                your interests.

                Example:
                  miga quotes add "Look up from the screen. What colour is the sky?" --tag Nature
                  miga quotes import /usr/share/games/fortunes/fortunes
                """,
            subcommands: [List.self, Tags.self, Show.self, Add.self, Import.self, Remove.self],
            defaultSubcommand: List.self)

        static func library() -> QuoteLibrary {
            QuoteLibrary(folder: Miga.paths.userQuotesDirectory)
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List quotes, optionally of one tag.",
                discussion: "Yours are marked (yours).\n\nExample:\n  miga quotes list --tag Stoicism")

            @Option(help: "Only quotes with this tag.")
            var tag: String?

            func run() throws {
                let library = Quotes.library()
                let wanted = tag.map { library.bank.spelling(of: $0) ?? $0 }
                let quotes = library.bank.quotes.filter { quote in wanted.map(quote.tags.contains) ?? true }
                let width = outputColumns(environment: processEnvironment())
                for quote in quotes {
                    let head = "\(quote.id)  [\(quote.tags.joined(separator: ", "))]\(quote.file == nil ? "" : " (yours)")  "
                    print(TextWrap.truncate(head + quote.text, width: max(20, width)))
                }
                if quotes.isEmpty { print(tag.map { "No quotes with the tag \($0). See miga quotes tags." } ?? "No quotes.") }
                for problem in library.problems { printError("miga: \(problem)") }
            }
        }

        struct Tags: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Every tag, with how many quotes carry it.",
                discussion: "Choose among them with miga interests set.\n\nExample:\n  miga quotes tags")

            func run() throws {
                let counts = Quotes.library().bank.tagCounts
                let width = counts.map { CellWidth.of($0.tag) }.max() ?? 0
                for (tag, count) in counts { print("\(tag.padded(toLength: width))  \(count)") }
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "One quote in full.",
                discussion: "Its text, source, tags, and the file it comes from.\n\nExample:\n  miga quotes show poetry-004")

            @Argument(help: "Its id, as miga quotes list shows it.")
            var id: String

            func run() throws {
                guard let quote = Quotes.library().bank[id] else { throw MigaError(usage: "there is no quote \(id)") }
                print(quote.verses.joined(separator: "\n"))
                if let source = quote.source { print("— \(source)") }
                print("tags: \(quote.tags.joined(separator: ", "))")
                print(quote.file.map { "from: \($0)" } ?? "from: MIGA's own bank")
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add a quote of your own (to ~/.config/miga/quotes/mine.txt).",
                discussion: "Example:\n  miga quotes add \"Somewhere a kettle is singing.\" --tag Poetry --source \"my notebook\"")

            @Argument(help: "The text. \" / \" marks a line break in a poem.")
            var text: String

            @Option(name: .customLong("tag"), help: "A tag (give --tag again for more).")
            var tags: [String] = []

            @Option(help: "Where it comes from.")
            var source: String?

            func run() throws {
                let library = Quotes.library()
                if let existing = library.own(text: text) {
                    print("Already among your quotes as \(existing.id).")
                    return
                }
                let quote = try library.add(text: text, tags: tags, source: source)
                print("Added \(quote.id).")
            }
        }

        struct Import: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Import a fortune(6) file: entries between lines of %, tagged with the file's name.",
                discussion: "Importing the same file again replaces what it brought, never doubles it.\n\nExample:\n  miga quotes import /usr/share/games/fortunes/literature")

            @Argument(help: "The fortune file.")
            var file: String

            @Option(help: "The tag to give them, instead of the file's name.")
            var tag: String?

            func run() throws {
                let quotes = try Quotes.library().importFortunes(from: file, tag: tag)
                print("Imported \(quotes.count) quote\(quotes.count == 1 ? "" : "s") tagged \(quotes.first?.tags.first ?? "").")
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove a quote of your own.",
                discussion: "MIGA's own quotes stay; choose what you see with miga interests set.\n\nExample:\n  miga quotes remove mine-003")

            @Argument(help: "Its id.")
            var id: String

            func run() throws {
                try Quotes.library().remove(id)
                print("Removed \(id).")
            }
        }
    }
}
