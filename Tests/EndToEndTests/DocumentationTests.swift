import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGAConfig

/// The documentation says what the program does; these hold it to the
/// program: the commands and the exit statuses (docs/GUIDE.md), the settings
/// and their defaults (docs/SETTINGS.md), the CSV header (docs/DATA.md) and
/// the keys of `stats --json` (docs/STATS.md).
@Suite struct DocumentationTests {
    /// The repository's root, where README.md is.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let guide: Document, settings: Document, data: Document, stats: Document

    init() throws {
        guide = try Document("docs/GUIDE.md")
        settings = try Document("docs/SETTINGS.md")
        data = try Document("docs/DATA.md")
        stats = try Document("docs/STATS.md")
    }

    @Test func the_gate_options_written_on_the_launch_path_are_the_parsers() throws {
        // `GateInvocation` writes and reads them; `miga gate --help` declares them (the window's ready file hidden).
        let help = try run(migaBinary, ["gate", "--help"]).output
        let declared = Set(help.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^\s+(?:-[a-z], )?(--[a-z][a-z-]*)/).map { String($0.1) }
        }).subtracting(["--help", "--version"])
        let every = GateInvocation(command: "x", pause: 5, detach: true, window: true, loginStart: true, identity: "y", readyFile: "z")
        let written = Set(every.wordsBeforeCommand.filter { $0.hasPrefix("--") }).subtracting(["--ready-file"])
        #expect(declared == written, "declared only: \(declared.subtracting(written)); written only: \(written.subtracting(declared))")
    }

    @Test func the_command_table_names_every_command_and_no_other() throws {
        let help = try run(migaBinary, ["--help"])
        let listed = (help.output.components(separatedBy: "SUBCOMMANDS:").last ?? "").components(separatedBy: "\n\n")[0]
        let commands = Set(listed.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let first = words.first, first.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
            return String(first)
        })
        #expect(commands.contains("gate") && !commands.contains("remind"), "\(commands)")
        // The commands whose chores `CommandWord` decides are the parser's, hub and all.
        #expect(Set(CommandWord.allCases.map(\.rawValue)) == commands, "\(commands)")
        let rows = Document.table(try guide.section("## Commands").drop { !$0.hasPrefix("| command |") }.map { $0 })
        var documented: Set<String> = []
        for row in rows {
            let cell = try #require(row.first)
            for match in cell.components(separatedBy: "`miga ").dropFirst() {
                if let word = match.split(whereSeparator: { !($0.isLetter || $0 == "-") }).first { documented.insert(String(word)) }
            }
        }
        #expect(documented == commands, "in \(guide.path) only: \(documented.subtracting(commands)); in miga only: \(commands.subtracting(documented))")
        // Each option a row names is an option of one of the row's commands.
        for row in rows {
            let cell = try #require(row.first)
            let names = cell.components(separatedBy: "`miga ").dropFirst()
                .compactMap { $0.split(whereSeparator: { !($0.isLetter || $0 == "-") }).first.map(String.init) }
            let helps = try names.map { try run(migaBinary, [$0, "--help"]).output }.joined()
            let options = cell.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }).filter { $0.hasPrefix("--") }
            for option in options { #expect(helps.contains(option), "\(option) in \(guide.path)'s row \(cell)") }
        }
    }

    @Test func the_exit_statuses_are_the_programs() throws {
        let rows = Document.table(try guide.section("## Exit statuses"))
        #expect(rows.map { $0[0] } == ExitStatus.documented.map(\.status))
        #expect(rows.map { $0[1] } == ExitStatus.documented.map(\.meaning))
        let help = try run(migaBinary, ["--help"]).output
        #expect(help.contains("Exit statuses:") && help.contains("127: the program is not installed"))
    }

    @Test func the_settings_and_their_defaults_are_the_programs() throws {
        let lines = try settings.section("## The file")
        let block = lines.drop { $0 != "```toml" }.dropFirst().prefix { $0 != "```" }
        let loaded = ConfigLoader.parse(block.joined(separator: "\n"), file: settings.path)
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        let defaults = Config()
        #expect(loaded.config.pause == defaults.pause)
        #expect(loaded.config.interests == defaults.interests)
        #expect(loaded.config.notifications == defaults.notifications)
        #expect(loaded.config.reducedMotion == defaults.reducedMotion)
        // Every setting is documented: in the block, or in the rules' table.
        let rules = try settings.section("## Rules for a program").joined(separator: "\n")
        for key in ConfigLoader.topLevelKeys where !["programs", "sites"].contains(key) {
            #expect(block.contains { $0.hasPrefix(key + " = ") }, "\(key) is not in \(settings.path)")
        }
        for key in ConfigLoader.programKeys {
            #expect(block.contains { $0.hasPrefix(key + " = ") || $0.hasPrefix("# " + key + " = ") } || rules.contains("`\(key) = "),
                    "\(key) is not in \(settings.path)")
        }
    }

    @Test func the_csv_header_is_the_programs() {
        #expect(data.text.contains("`" + Exchange.csvHeader.joined(separator: ",") + "`"), "the CSV header is not in \(data.path)")
    }

    @Test func the_stats_json_keys_are_the_programs() throws {
        let sandbox = Sandbox()
        let output = try run(migaBinary, ["stats", "--json"], environment: sandbox.environment).output
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let block = stats.text.components(separatedBy: "`miga stats --json` prints the same numbers in a stable schema:").last ?? ""
        let example = block.components(separatedBy: "```")[1]
        let documented = Set(example.split(separator: "\"").enumerated().compactMap { index, piece -> String? in
            // Keys are the quoted words followed by a colon.
            index % 2 == 1 && example.contains("\"\(piece)\":") ? String(piece) : nil
        })
        for key in json.keys { #expect(documented.contains(key), "stats --json has \(key), \(stats.path) does not") }
        for key in ["conscious_exits", "week", "days", "programs", "filter", "streak"] { #expect(json[key] != nil) }
    }
}

/// A Markdown file of the repository, read as the tests need it.
struct Document {
    /// Relative to the repository's root.
    let path: String
    let text: String

    init(_ path: String) throws {
        self.path = path
        text = try String(contentsOf: DocumentationTests.root.appendingPathComponent(path), encoding: .utf8)
    }

    var lines: [String] { text.components(separatedBy: "\n") }

    /// The lines of the section that starts with `heading`, up to the next heading of its level or above.
    func section(_ heading: String) throws -> [String] {
        let lines = self.lines
        let start = try #require(lines.firstIndex(of: heading), "no \(heading) in \(path)")
        let level = heading.prefix { $0 == "#" }.count
        var inCode = false
        let end = lines[(start + 1)...].firstIndex { line in
            if line.hasPrefix("```") { inCode.toggle() }
            let hashes = line.prefix { $0 == "#" }.count
            return !inCode && hashes > 0 && hashes <= level && line.dropFirst(hashes).hasPrefix(" ")
        } ?? lines.count
        return Array(lines[(start + 1)..<end])
    }

    /// The cells of each row of the first table in `lines`, header and rule left out.
    static func table(_ lines: [String]) -> [[String]] {
        lines.drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2).map { row in
            // Split on | that are not escaped (\|) inside a cell.
            var cells: [String] = [], cell = "", previous: Character = " "
            for character in row.dropFirst() {
                if character == "|" && previous != "\\" { cells.append(cell.trimmingCharacters(in: .whitespaces)); cell = "" }
                else { cell.append(character) }
                previous = character
            }
            return cells
        }
    }
}
