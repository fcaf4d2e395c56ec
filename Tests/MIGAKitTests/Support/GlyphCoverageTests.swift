import Foundation
import Testing

/// Every character MIGA shows beyond ASCII is one Debian's default terminal
/// font draws (fonts-dejavu-core: DejaVu Sans Mono, and DejaVu Sans where
/// fontconfig falls back to it), so that no screen shows an empty box
/// (docs/TERMINALS.md). Shown means: in a string or character literal of
/// Sources (help and messages included), in the built-in quotes, or on a
/// recorded screen (the snapshots: the hub, stats, setup, the pause and its
/// ring). `ASCIIText`'s literals are the characters it replaces, not shown.
@Suite struct GlyphCoverageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The code points of Tests/Fixtures/font-coverage.txt (scripts/font-coverage writes it).
    static func coverage() throws -> [ClosedRange<UInt32>] {
        let text = try String(contentsOf: root.appendingPathComponent("Tests/Fixtures/font-coverage.txt"), encoding: .utf8)
        return try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let bounds = try line.split(separator: "-").map { try #require(UInt32($0, radix: 16), "\(line)") }
            return bounds[0]...bounds[bounds.count - 1]
        }
    }

    /// The text of the string literals of Swift `source`, comments left out.
    static func literals(of source: String) -> String {
        var shown = "", inBlock = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if !inBlock, line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
            // A multi-line literal's lines are all text; `"""` opens or closes one.
            if line.components(separatedBy: "\"\"\"").count % 2 == 0 {
                inBlock.toggle()
                continue
            }
            if inBlock {
                shown += line + "\n"
                continue
            }
            var inString = false, escaped = false
            var characters = line[...]
            while let character = characters.popFirst() {
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false } else { shown.append(character) }
                } else if character == "\"" {
                    inString = true
                } else if character == "/", characters.first == "/" {
                    break
                }
            }
            shown += "\n"
        }
        return shown
    }

    /// Each place a character is shown from, by file, for every file that shows it.
    static func shownCharacters() throws -> [(file: String, text: String)] {
        var shown: [(file: String, text: String)] = []
        let files = FileManager.default
        for folder in ["Sources"] {
            let base = root.appendingPathComponent(folder)
            for path in try files.subpathsOfDirectory(atPath: base.path) where path.hasSuffix(".swift") && !path.hasSuffix("/ASCIIText.swift") {
                shown.append((folder + "/" + path, literals(of: try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8))))
            }
        }
        shown.append(("Resources/quotes.txt", try String(contentsOf: root.appendingPathComponent("Resources/quotes.txt"), encoding: .utf8)))
        let tests = root.appendingPathComponent("Tests/MIGAKitTests")
        for path in try files.subpathsOfDirectory(atPath: tests.path) where path.contains("__Snapshots__/") && path.hasSuffix(".txt") {
            shown.append(("Tests/MIGAKitTests/" + path, try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)))
        }
        return shown
    }

    @Test func every_shown_character_is_one_the_default_terminal_font_draws() throws {
        let coverage = try Self.coverage()
        #expect(coverage.contains { $0.contains(0x2800) && $0.contains(0x28FF) }, "the fixture lacks Braille: not DejaVu's")
        let shown = try Self.shownCharacters()
        #expect(shown.count > 100 && shown.contains { $0.file.hasSuffix("hub-80x24.txt") }, "the scan found \(shown.count) files")
        var missing: [String: Set<String>] = [:]
        for (file, text) in shown {
            for scalar in text.unicodeScalars where !scalar.isASCII && !coverage.contains(where: { $0.contains(scalar.value) }) {
                missing["U+" + String(scalar.value, radix: 16, uppercase: true) + " " + String(scalar), default: []].insert(file)
            }
        }
        #expect(missing.isEmpty, "drawn as an empty box without a font beyond fonts-dejavu-core: \(missing.mapValues { $0.sorted() })")
    }

    @Test func the_scan_reads_literals_and_leaves_comments_out() {
        let source = """
            // A comment: 🔥
            let a = "streak ▲" // 🔥 beside the code
            let b = "a \\"quoted\\" ★ // not a comment"
            let c = \"\"\"
                help with ✓
                \"\"\"
            """
        let shown = Self.literals(of: source)
        #expect(!shown.contains("🔥") && shown.contains("▲") && shown.contains("★ // not a comment") && shown.contains("✓"), "\(shown)")
    }
}
