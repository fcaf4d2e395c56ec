import ArgumentParser
import MIGACore
import MIGAKit
import MIGATerminal
import MIGAConfig

extension Miga {
    /// `miga interests [set TAG…]`.
    struct Interests: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The tags the pause draws its texts from.",
            discussion: """
                Without arguments, your interests and every tag there is. `miga interests set` \
                with tags chooses them; with none, all texts again.

                Example:
                  miga interests set Stoicism Nature
                """,
            subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "Your interests and the tags there are.",
                discussion: "Example:\n  miga interests")

            func run() throws {
                let paths = Miga.paths
                let interests = ConfigLoader.load(from: paths.configFile).config.interests
                print(interests.isEmpty ? "Interests: all texts." : "Interests: \(interests.joined(separator: ", ")).")
                let tags = QuoteLibrary(folder: paths.userQuotesDirectory).bank.tagCounts
                print("Tags: " + tags.map { "\($0.tag) (\($0.count))" }.joined(separator: ", "))
            }
        }

        struct Set: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "set", abstract: "Choose your interests (none: all texts).",
                discussion: "Tags are matched without regard to case.\n\nExample:\n  miga interests set Stoicism Nature")

            @Argument(help: "Tags, as miga quotes tags lists them.")
            var tags: [String] = []

            func run() throws {
                let paths = Miga.paths
                let bank = QuoteLibrary(folder: paths.userQuotesDirectory).bank
                let known = bank.tagCounts.map(\.tag)
                var chosen: [String] = []
                for tag in tags {
                    guard let match = bank.spelling(of: tag) else {
                        throw MigaError(usage: "there is no tag \"\(tag)\"; the tags are: \(known.joined(separator: ", "))")
                    }
                    if !chosen.contains(match) { chosen.append(match) }
                }
                do {
                    try ConfigEditor(path: paths.configFile).setTopLevel("interests", to: .strings(chosen))
                } catch {
                    throw MigaError("cannot change \(paths.configFile): \(error)")
                }
                print(chosen.isEmpty ? "Interests: all texts." : "Interests: \(chosen.joined(separator: ", ")).")
            }
        }
    }
}
